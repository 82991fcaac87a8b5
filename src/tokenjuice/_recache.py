"""Compiled regular expressions kept from one process to the next.

Every command is a new process, and compiling the few dozen patterns a reduction
needs (the rule's, its formatter's, the signal scans') costs more than reducing a
typical output. `re` compiles in two steps: parse the pattern and generate its code
(Python, slow), then build the matcher from the code (`_sre.compile`, C, microseconds).
What the first step made in earlier runs is kept in the cache directory, keyed by the
exact Python build; `load()` builds matchers straight from it into `re`'s own cache,
so `re.compile` of those patterns is a cache hit. The code is what `re` itself passed
to `_sre.compile` for the same pattern and flags (recorded by replaying the compile),
and `_sre` validates code it is given, so the matchers are the ones `re` would build.

Anything unexpected (another layout of `re`'s cache, a damaged file) leaves the cache
unused for the process; nothing else changes. `TOKENJUICE_NO_CACHE=1` turns it off.
"""

from __future__ import annotations

import os
import re
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MAX_ENTRIES = 256
# Leave room in `re`'s cache for the host program's own patterns.
_RE_CACHE_SPARE = 128

MAX_FACTS = 2048
_state: dict[str, Any] = {
    "loaded": False,
    "known": set(),
    "entries": [],
    "baseline": None,
    "path": None,
    "facts": {},
    "new_facts": False,
}
_MISSING = object()


def _enabled() -> bool:
    if os.environ.get("TOKENJUICE_NO_CACHE"):
        return False
    cache = getattr(re, "_cache", None)
    if not isinstance(cache, dict):
        return False
    probe = "(?:tokenjuice re cache probe)"
    re.compile(probe)
    return (str, probe, 0) in cache


def _tag() -> str:
    """The exact Python build and regex engine: the file is only good for these."""
    import _sre  # type: ignore[import-not-found,unused-ignore]

    return f"{sys.version}|{_sre.MAGIC}|{getattr(_sre, 'CODESIZE', '')}"


def _path() -> str:
    from tokenjuice.paths import cache_dir, short_digest

    return os.path.join(cache_dir(), f"re-{short_digest(_tag())}.marshal")


def load() -> None:
    """Fill `re`'s cache from the file (once per process; quiet on any problem)."""
    if _state["loaded"]:
        return
    _state["loaded"] = True
    try:
        if not _enabled():
            return
        import _sre  # type: ignore[import-not-found,unused-ignore]
        import atexit
        import marshal

        cache = re._cache  # type: ignore[attr-defined]
        room = max(0, int(getattr(re, "_MAXCACHE", 512)) - _RE_CACHE_SPARE - len(cache))
        path = _state["path"] = _path()
        atexit.register(save)
        try:
            with open(path, "rb") as f:
                data = marshal.loads(f.read())
        except (OSError, EOFError, ValueError, TypeError):
            data = {}
        if not isinstance(data, dict) or data.get("tag") != _tag():
            data = {}  # another build's file under the same name, or an older layout
        entries = data.get("re", [])
        facts = data.get("facts")
        if isinstance(facts, dict):
            _state["facts"] = facts
        known: set[tuple[str, int]] = _state["known"]
        kept = []
        for pattern, flags, args in entries:
            key = (str, pattern, flags)
            kept.append((pattern, flags, args))
            known.add((pattern, flags))
            if key in cache or room <= 0:
                continue
            try:
                cache[key] = _sre.compile(*args)
            except Exception:  # noqa: BLE001 - a damaged entry is only a cache miss
                continue
            room -= 1
        _state["entries"] = kept
        _state["baseline"] = set(cache)
    except Exception:  # noqa: BLE001 - the cache must never cost a reduction
        _state["baseline"] = None


def fact(kind: str, pattern: str, flags: int, compute: Callable[[str, int], Any]) -> Any:
    """`compute(pattern, flags)`, remembered across processes: what a pattern's parse
    tells (its backtracking risk, its required literals) is the same every time, and
    parsing it costs more than matching a small output. The value must be plain data
    (marshal); without the cache it is computed every time."""
    flags = int(flags)  # a `re.RegexFlag` is an int subclass, which marshal refuses
    key = (kind, pattern, flags)
    facts: dict[tuple[str, str, int], Any] = _state["facts"]
    got = facts.get(key, _MISSING)
    if got is _MISSING:
        got = compute(pattern, flags)
        if _state["baseline"] is not None and len(facts) < MAX_FACTS and _plain(got):
            facts[key] = got
            _state["new_facts"] = True
    return got


def known(kind: str, pattern: str, flags: int) -> Any:
    """The remembered value of a fact, or `MISSING` (then ask whoever computes it)."""
    return _state["facts"].get((kind, pattern, int(flags)), _MISSING)


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
    """Record the patterns compiled since `load()` that the file does not have yet."""
    baseline = _state["baseline"]
    if baseline is None:
        return
    try:
        cache = re._cache  # type: ignore[attr-defined]
        known: set[tuple[str, int]] = _state["known"]
        new = [
            k
            for k in list(cache)
            if k not in baseline
            and len(k) == 3
            and k[0] is str
            and isinstance(k[2], int)
            and (k[1], k[2]) not in known
            and not k[2] & re.DEBUG
        ]
        recorded = [(k[1], k[2], args) for k in new if (args := _record(k[1], k[2], cache[k])) is not None]
        if not recorded and not _state["new_facts"]:
            return
        entries = (_state["entries"] + recorded)[-MAX_ENTRIES:]
        _write(entries, _state["facts"])
        _state["entries"] = entries
        _state["new_facts"] = False
        known.update((p, f) for p, f, _ in recorded)
        baseline.update(new)
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


def _write(entries: list[tuple[str, int, tuple[Any, ...]]], facts: dict[tuple[str, str, int], Any]) -> None:
    import marshal

    from tokenjuice._fs import write_atomic

    path: str = _state["path"]
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    write_atomic(path, marshal.dumps({"tag": _tag(), "re": entries, "facts": facts}), 0o600)
