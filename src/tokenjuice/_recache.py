"""Compiled regular expressions kept from one process to the next.

Every command is a new process, and compiling the few dozen patterns a reduction
needs (the rule's, its formatter's, the signal scans') costs more than reducing a
typical output. `re` compiles in two steps: parse the pattern and generate its code
(Python, slow), then build the matcher from the code (`_sre.compile`, C, microseconds).
What the first step made in earlier runs is kept in the cache directory, keyed by the
exact Python build, and `tokenjuice._re.compile` builds matchers straight from it
without importing `re`. The code is what `re` itself passed to `_sre.compile` for the
same pattern and flags (recorded by replaying the compile), and `_sre` validates code
it is given, so the matchers are the ones `re` would build. What a pattern's parse
tells (`fact`: backtracking risk, required literals) is kept with it.

The file holds one marshalled entry per pattern, decoded when the pattern is used (a
process needs a few dozen of a thousand). It records what `_re` had to compile with
`re`, and, in a command that primes `re` for argparse (`prime_re`), the patterns
argparse and gettext compile, which that command puts into `re`'s own cache; never a
host program's own patterns.

Anything unexpected (another layout of `re`'s cache, a damaged file) leaves the cache,
or the part of it concerned, unused for the process; nothing else changes.
`TOKENJUICE_NO_CACHE=1` turns it off.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable
    from typing import Any

# Patterns kept in the file, the most recently learned last.
MAX_PATTERNS = 1024
# Leave room in `re`'s cache for the host program's own patterns.
_RE_CACHE_SPARE = 128
_MAX_FOREIGN = 128
FORMAT = 2

_state: dict[str, Any] = {
    "loaded": False,
    "blobs": {},  # (pattern, flags) -> marshalled {"code": args, fact kind: value, ...}
    "entries": {},  # the blobs read so far
    "dirty": set(),  # patterns learned something new about in this process
    "used": set(),  # patterns read from the oldest quarter of a nearly full file
    "old": None,  # that oldest quarter (`_old`), worked out on first use
    "filled": False,
    "foreign": [],  # patterns argparse and gettext compile with `re`, in the file's order
    "baseline": None,  # `re`'s cache keys that are not ours to record; None: cache off
    "path": None,
}
_MISSING = object()


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


def _fill_re() -> None:
    """Put the matchers of the patterns other modules compile with `re` (argparse's,
    gettext's) into `re`'s own cache, so that their `re.compile` is a hit; once, when
    asked (`prime_re`). Our own modules compile through `tokenjuice._re`."""
    re = sys.modules.get("re")
    if re is None or _state["filled"]:
        return
    _state["filled"] = True
    cache = getattr(re, "_cache", None)
    if not isinstance(cache, dict):
        return
    probe = "(?:tokenjuice re cache probe)"
    re.compile(probe)
    if (str, probe, 0) not in cache:
        return  # another layout of `re`'s cache
    import _sre  # type: ignore[import-not-found,unused-ignore]

    room = max(0, int(getattr(re, "_MAXCACHE", 512)) - _RE_CACHE_SPARE - len(cache))
    for pattern, flags in _state["foreign"][:room]:
        key = (str, pattern, flags)
        built = _entry(pattern, flags).get("code")
        if built is None or key in cache:
            continue
        try:
            cache[key] = _sre.compile(*built)
        except Exception:  # noqa: BLE001 - a damaged entry is only a cache miss
            continue
    _state["baseline"] = set(cache)


def _tag() -> str:
    """The exact Python build and regex engine: the file is only good for these."""
    import _sre  # type: ignore[import-not-found,unused-ignore]

    return f"{sys.version}|{_sre.MAGIC}|{getattr(_sre, 'CODESIZE', '')}|{FORMAT}"


def _path() -> str:
    from tokenjuice.paths import cache_dir, short_digest

    return os.path.join(cache_dir(), f"re-{short_digest(_tag())}.marshal")


def load() -> None:
    """Read the file (once per process; quiet on any problem). Does not import `re`."""
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
        foreign = data.get("foreign")
        if isinstance(foreign, list):
            _state["foreign"] = [tuple(k) for k in foreign if tuple(k) in _state["blobs"]]
        re = sys.modules.get("re")
        cache = getattr(re, "_cache", None)
        # What is in `re`'s cache before us (a host program's patterns) is not ours.
        _state["baseline"] = set(cache) if isinstance(cache, dict) else set()
    except Exception:  # noqa: BLE001 - the cache must never cost a reduction
        _state["baseline"] = None
        _state["blobs"] = {}
        _state["foreign"] = []


def prime_re() -> None:
    """Import `re` with the cached matchers in its cache (before argparse, whose
    patterns and gettext's are in the file too)."""
    load()
    import re  # noqa: F401 - `_fill_re` finds it in sys.modules

    _fill_re()


def code(pattern: str, flags: int) -> tuple[Any, ...] | None:
    """What `_sre.compile` takes to build this pattern, if an earlier run recorded it."""
    if not _state["loaded"]:
        load()
    got: tuple[Any, ...] | None = _entry(pattern, flags).get("code")
    return got


def forget(pattern: str, flags: int) -> None:
    """The recorded code did not build a matcher: drop it, so that `save` records the
    code `re` makes this time instead of the file keeping what failed."""
    _entry(pattern, flags).pop("code", None)


def fact(kind: str, pattern: str, flags: int, compute: Callable[[str, int], Any]) -> Any:
    """`compute(pattern, flags)`, remembered across processes: what a pattern's parse
    tells (its backtracking risk, its required literals) is the same every time, and
    parsing it costs more than matching a small output. The value must be plain data
    (marshal); without the cache it is computed every time."""
    flags = int(flags)  # a `re.RegexFlag` is an int subclass, which marshal refuses
    if not _state["loaded"]:
        load()
    entry = _entry(pattern, flags)
    got = entry.get(kind, _MISSING)
    if got is _MISSING:
        got = compute(pattern, flags)
        if _state["baseline"] is not None and kind != "code" and _plain(got):
            entry[kind] = got
            _state["dirty"].add((pattern, flags))
    return got


def known(kind: str, pattern: str, flags: int) -> Any:
    """The remembered value of a fact, or `MISSING` (then ask whoever computes it)."""
    if not _state["loaded"]:
        load()
    return _entry(pattern, int(flags)).get(kind, _MISSING)


MISSING = _MISSING


def _plain(value: Any) -> bool:
    """Can marshal store it (one odd value must not cost the whole file)?"""
    import marshal

    try:
        marshal.dumps(value)
    except ValueError:
        return False
    return True


def save() -> None:
    """Record what this process learned that the file does not hold yet: the code of
    the patterns `re` compiled for us (and, in a command that primed `re` for argparse,
    argparse's; never a host program's own), and new facts."""
    baseline = _state["baseline"]
    if baseline is None:
        return
    try:
        re = sys.modules.get("re")  # not imported: nothing was compiled but from the file
        cache = getattr(re, "_cache", None) if re is not None else {}
        if not isinstance(cache, dict):
            return
        dirty: set[tuple[str, int]] = _state["dirty"]
        ours: set[tuple[str, int]] = getattr(sys.modules.get("tokenjuice._re"), "fallbacks", set())
        foreign: list[tuple[str, int]] = _state["foreign"]
        new_foreign = False
        for k in list(cache):
            if k in baseline or len(k) != 3 or k[0] is not str or not isinstance(k[2], int) or k[2] & 128:
                continue  # 128: re.DEBUG
            key = (k[1], k[2])
            mine = key in ours
            if not mine and not _state["filled"]:
                continue
            entry = _entry(*key)
            if "code" not in entry:
                args = _record(k[1], k[2], cache[k])
                if args is None:
                    continue
                entry["code"] = args
                dirty.add(key)
            if not mine and key not in foreign:
                foreign.append(key)
                new_foreign = True
        baseline.update(cache)
        used: set[tuple[str, int]] = _state["used"]
        if not dirty and not new_foreign and not used:
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
        foreign[:] = [k for k in foreign if k in blobs][-_MAX_FOREIGN:]
        _write(blobs, foreign)
        _state["blobs"] = blobs
        _state["old"] = None
        dirty.clear()
        used.clear()
    except Exception:  # noqa: BLE001 - the cache must never cost a reduction
        return


def _record(pattern: str, flags: int, compiled: re.Pattern[str]) -> tuple[Any, ...] | None:
    """The arguments `re` gives `_sre.compile` for this pattern, by compiling it again
    with a stand-in that notes them; None unless they rebuild the same matcher."""
    from re import _compiler  # type: ignore[attr-defined]

    real = _compiler._sre
    seen: list[tuple[Any, ...]] = []

    class _Recorder:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        @staticmethod
        def compile(*args: Any) -> Any:
            if args and args[0] == pattern and not seen:
                seen.append(args)
            return real.compile(*args)

    _compiler._sre = _Recorder()
    try:
        _compiler.compile(pattern, flags)
    finally:
        _compiler._sre = real
    if len(seen) != 1 or len(seen[0]) != 6:
        return None
    pat, final_flags, code, groups, groupindex, indexgroup = seen[0]
    # Plain values only (`re`'s opcodes are an int subclass, which marshal refuses).
    args = (
        str(pat),
        int(final_flags),
        [int(c) for c in code],
        int(groups),
        {str(k): int(v) for k, v in groupindex.items()},
        tuple(None if g is None else str(g) for g in indexgroup),
    )
    rebuilt = real.compile(*args)
    same = (
        rebuilt.pattern == compiled.pattern
        and rebuilt.flags == compiled.flags
        and rebuilt.groups == compiled.groups
        and rebuilt.groupindex == compiled.groupindex
    )
    return args if same else None


def _write(blobs: dict[tuple[str, int], bytes], foreign: list[tuple[str, int]]) -> None:
    import marshal

    from tokenjuice._fs import write_atomic

    path: str = _state["path"]
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    write_atomic(path, marshal.dumps({"tag": _tag(), "patterns": blobs, "foreign": foreign}), 0o600)
