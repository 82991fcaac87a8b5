"""What a regex's text tells, kept from one process to the next.

Every command is a new process, and reading a pattern's structure (its backtracking
risk, the literals every match contains, whether it is anchored) costs more than
matching a small output. `fact(kind, pattern, flags, compute)` remembers the answer in
the cache directory; the answers are plain data derived from the pattern text alone,
so they hold for every Python version (the file is still kept per build, to be safe).

The file holds one marshalled entry per pattern, decoded when the pattern is used (a
process needs a few dozen of a thousand). Anything unexpected (a damaged file, an
older layout) leaves the cache unused for the process; nothing else changes.
`TOKENJUICE_NO_CACHE=1` turns it off.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# Patterns kept in the file, the most recently learned last.
MAX_PATTERNS = 1024
# Bumped when a fact's meaning or the file's layout changes: older files are ignored.
FORMAT = 3

_state: dict[str, Any] = {
    "loaded": False,
    "on": False,  # False: the cache is off or unusable; facts are computed every time
    "blobs": {},  # (pattern, flags) -> marshalled {fact kind: value, ...}
    "entries": {},  # the blobs read so far
    "dirty": set(),  # patterns learned something new about in this process
    "used": set(),  # patterns read from the oldest quarter of a nearly full file
    "old": None,  # that oldest quarter (`_old`), worked out on first use
    "path": None,
}
MISSING = object()


def _entry(pattern: str, flags: int) -> dict[str, Any]:
    """What the file knows of one pattern (read on first use: a process needs few)."""
    key = (pattern, flags)
    entries: dict[tuple[str, int], dict[str, Any]] = _state["entries"]
    got = entries.get(key)
    if got is None:
        got = {}
        blob = _state["blobs"].get(key)
        if blob is not None:
            import marshal

            try:
                value = marshal.loads(blob)
            except (EOFError, ValueError, TypeError):
                value = None
            if isinstance(value, dict):
                got = value
            if key in _old():
                _state["used"].add(key)  # in use: `save` moves it out of eviction's way
        entries[key] = got
    return got


def _old() -> frozenset[tuple[str, int]]:
    """The oldest quarter of the file's patterns once it is three quarters full (the
    next to be evicted), else nothing: a pattern still in use is kept as if new."""
    got: frozenset[tuple[str, int]] | None = _state.get("old")
    if got is None:
        blobs = _state["blobs"]
        got = frozenset(list(blobs)[: MAX_PATTERNS // 4]) if len(blobs) >= MAX_PATTERNS * 3 // 4 else frozenset()
        _state["old"] = got
    return got


def _tag() -> str:
    """The Python build and file layout the file was written by."""
    return f"{sys.implementation.name}|{sys.version}|{FORMAT}"


def _path() -> str:
    from tokenjuice.paths import cache_dir, short_digest

    return os.path.join(cache_dir(), f"facts-{short_digest(_tag())}.marshal")


def load() -> None:
    """Read the file (once per process; quiet on any problem)."""
    if _state["loaded"]:
        return
    _state["loaded"] = True
    try:
        if os.environ.get("TOKENJUICE_NO_CACHE"):
            return
        import atexit
        import marshal

        path = _state["path"] = _path()
        atexit.register(save)
        try:
            with open(path, "rb") as f:
                data = marshal.loads(f.read())
        except (OSError, EOFError, ValueError, TypeError):
            data = {}
        if not isinstance(data, dict) or data.get("tag") != _tag() or not isinstance(data.get("patterns"), dict):
            data = {"patterns": {}}  # another build's file under the same name, or an older layout
        _state["blobs"] = data["patterns"]
        _state["on"] = True
    except Exception:  # noqa: BLE001 - the cache must never cost a reduction
        _state["on"] = False
        _state["blobs"] = {}


def fact(kind: str, pattern: str, flags: int, compute: Callable[[str, int], Any]) -> Any:
    """`compute(pattern, flags)`, remembered across processes: what a pattern's text
    tells is the same every time. The value must be plain data (marshal); without the
    cache it is computed every time."""
    flags = int(flags)  # a `re.RegexFlag` is an int subclass, which marshal refuses
    if not _state["loaded"]:
        load()
    entry = _entry(pattern, flags)
    got = entry.get(kind, MISSING)
    if got is MISSING:
        got = compute(pattern, flags)
        if _state["on"] and _plain(got):
            entry[kind] = got
            _state["dirty"].add((pattern, flags))
    return got


def known(kind: str, pattern: str, flags: int) -> Any:
    """The remembered value of a fact, or `MISSING` (then ask whoever computes it)."""
    if not _state["loaded"]:
        load()
    return _entry(pattern, int(flags)).get(kind, MISSING)


def _plain(value: Any) -> bool:
    """Can marshal store it (one odd value must not cost the whole file)?"""
    import marshal

    try:
        marshal.dumps(value)
    except ValueError:
        return False
    return True


def save() -> None:
    """Record the facts this process learned that the file does not hold yet."""
    if not _state["on"]:
        return
    try:
        dirty: set[tuple[str, int]] = _state["dirty"]
        used: set[tuple[str, int]] = _state["used"]
        if not dirty and not used:
            return
        import marshal

        blobs = dict(_state["blobs"])
        for key in sorted(used - dirty):  # still in use: as if learned now
            if key in blobs:
                blobs[key] = blobs.pop(key)
        for key in sorted(dirty):  # the same file whatever the hash seed
            blobs.pop(key, None)
            blobs[key] = marshal.dumps(_state["entries"][key])
        for key in list(blobs)[: max(0, len(blobs) - MAX_PATTERNS)]:
            del blobs[key]
        _write(blobs)
        _state["blobs"] = blobs
        _state["old"] = None
        dirty.clear()
        used.clear()
    except Exception:  # noqa: BLE001 - the cache must never cost a reduction
        return


def _write(blobs: dict[tuple[str, int], bytes]) -> None:
    import marshal

    from tokenjuice._fs import write_atomic

    path: str = _state["path"]
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    write_atomic(path, marshal.dumps({"tag": _tag(), "patterns": blobs}), 0o600)
