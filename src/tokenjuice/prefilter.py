"""Required literals of a regex: a cheap necessary condition checked before the regex.

`required(r"^FAILED |^\\S+::\\S.* FAILED\\b")` is `("FAILED",)`: every match contains
one of the strings, so a line without any of them cannot match and need not be
searched. `str.__contains__` runs at memchr speed, while `re` steps through every
position of a line whose pattern has no literal prefix; on long outputs where a
pattern matches few lines this is most of the matching time.

The strings come from Python's own regex parser, walking the parsed pattern: literal
runs, groups, alternations (one string per branch), repeats taken at least once.
Anything else (classes, anchors, lookarounds, backreferences) only ends a run, so the
result is never wrong, at worst absent (None). Under IGNORECASE the strings are
lower-cased and `fold` says to compare against lower-cased text; that is exact only
for ASCII text (Unicode case folding maps `ſ` to `s`), so callers skip folded
prefilters on other text.
"""

from __future__ import annotations

from tokenjuice import _re as re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Shorter strings occur on most lines anyway; checking them costs more than it saves.
MIN_CHARS = 3


class Literals:
    """At least one of `strings` occurs in every match (lower-cased when `fold`)."""

    __slots__ = ("fold", "strings")

    def __init__(self, strings: tuple[str, ...], fold: bool) -> None:
        self.strings = strings
        self.fold = fold

    def __repr__(self) -> str:
        return f"Literals({self.strings!r}, fold={self.fold})"


class _Info:
    """What a node requires: `exact` when it matches only that one string, and the best
    set of strings one of which every match of it contains."""

    __slots__ = ("exact", "fold", "req")

    def __init__(self, exact: str | None, req: frozenset[str] | None, fold: bool) -> None:
        self.exact = exact
        self.req = req
        self.fold = fold


def _score(req: frozenset[str]) -> tuple[int, int]:
    # Longer shortest string first (rarer), then fewer alternatives.
    return (min(len(s) for s in req), -len(req))


def _better(a: tuple[frozenset[str], bool] | None, b: tuple[frozenset[str], bool] | None) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return b if _score(b[0]) > _score(a[0]) else a


def _walk(items: Any, ci: bool, c: Any) -> _Info:
    run: list[str] = []
    run_fold = False
    pure = True  # every item so far was a literal: the sequence is one exact string
    best: tuple[frozenset[str], bool] | None = None

    def flush() -> None:
        nonlocal best, run_fold
        if run:
            best = _better(best, (frozenset(["".join(run)]), run_fold))
            run.clear()
            run_fold = False

    for op, av in items:
        if op == c.LITERAL:
            ch = chr(av)
            run.append(ch.lower() if ci else ch)
            run_fold = run_fold or ci
            continue
        if op in (c.SUBPATTERN, c.ATOMIC_GROUP):
            if op == c.SUBPATTERN:
                _gid, add, delete, sub = av
                sub_ci = (ci or bool(add & re.IGNORECASE)) and not (delete & re.IGNORECASE)
            else:
                sub, sub_ci = av, ci
            info = _walk(sub, sub_ci, c)
            if info.exact is not None:
                run.append(info.exact)
                run_fold = run_fold or info.fold
                continue
            pure = False
            flush()
            if info.req is not None:
                best = _better(best, (info.req, info.fold))
            continue
        if op == c.BRANCH:
            infos = [_walk(alt, ci, c) for alt in av[1]]
            if run and all(i.exact for i in infos):
                # `re` factors a common prefix out (`Compiling|Checking` is `C` then a
                # branch): put it back in front of each alternative.
                prefix = "".join(run)
                joined = {prefix + (i.exact or "") for i in infos}
                best = _better(best, _norm(joined, run_fold or any(i.fold for i in infos)))
                run.clear()
                run_fold = False
                pure = False
                continue
            pure = False
            flush()
            alts: set[str] = set()
            fold = False
            for info in infos:
                got = frozenset([info.exact]) if info.exact else info.req
                if not got:
                    alts.clear()
                    break
                alts |= got
                fold = fold or info.fold
            else:
                if alts:
                    best = _better(best, _norm(alts, fold))
            continue
        pure = False
        flush()
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            lo, _hi, sub = av
            if lo >= 1:
                info = _walk(sub, ci, c)
                got = frozenset([info.exact]) if info.exact else info.req
                if got:
                    best = _better(best, (got, info.fold))
        # Anything else (classes, anchors, lookarounds, references) just ends the run.
    if pure:
        return _Info("".join(run), None, run_fold)
    flush()
    if best is None:
        return _Info(None, None, False)
    return _Info(None, best[0], best[1])


def _norm(strings: set[str], fold: bool) -> tuple[frozenset[str], bool]:
    # Mixed case rules in one set: compare all of them case-insensitively (a superset).
    return (frozenset(s.lower() for s in strings) if fold else frozenset(strings)), fold


_cache: dict[tuple[str, int], Literals | None] = {}


def required(pattern: str, flags: int = 0) -> Literals | None:
    """Strings one of which every match of `pattern` contains; None when there are none
    worth checking (or the pattern does not parse with Python's `re`)."""
    key = (pattern, flags & re.IGNORECASE)
    if key in _cache:
        return _cache[key]
    from tokenjuice import _recache

    got = _recache.fact("required", pattern, flags & re.IGNORECASE, _required)
    result = Literals(tuple(got[0]), bool(got[1])) if got else None
    _cache[key] = result
    return result


def _required(pattern: str, flags: int) -> tuple[tuple[str, ...], bool] | None:
    """`required` as plain data (the cross-process cache keeps it)."""
    result: Literals | None = None
    try:
        from re import _constants as c  # type: ignore[attr-defined]
        from re import _parser  # type: ignore[attr-defined]

        tree = _parser.parse(pattern, flags & re.IGNORECASE)
        ci = bool(tree.state.flags & re.IGNORECASE)
        info = _walk(tree, ci, c)
    except Exception:  # noqa: BLE001 - not parseable by `re`: no prefilter, never an error
        info = None
    if info is not None:
        strings = frozenset([info.exact]) if info.exact else info.req
        if strings and min(len(s) for s in strings) >= MIN_CHARS:
            fold = info.fold
            result = Literals(tuple(sorted(s.lower() for s in strings) if fold else sorted(strings)), fold)
    return (result.strings, result.fold) if result is not None else None


_anchored: dict[tuple[str, int], bool] = {}


def anchored(pattern: str, flags: int = 0) -> bool:
    """Can `pattern` only match at the start of the string (every branch begins with
    `^` or `\\A`, no MULTILINE)? Then `match` answers what `search` would, and `re`
    does not try the other positions: on a line that costs up to half the search."""
    key = (pattern, flags)
    got = _anchored.get(key)
    if got is None:
        from tokenjuice import _recache

        got = _anchored[key] = bool(_recache.fact("anchored", pattern, flags, _is_anchored))
    return got


def _is_anchored(pattern: str, flags: int) -> bool:
    if flags & re.MULTILINE:
        return False
    try:
        from re import _constants as c  # type: ignore[attr-defined]
        from re import _parser  # type: ignore[attr-defined]

        tree = _parser.parse(pattern, flags)
        return not tree.state.flags & re.MULTILINE and _starts_at_beginning(list(tree), c)
    except Exception:  # noqa: BLE001 - not parseable by `re`: plain search
        return False


def _starts_at_beginning(items: list[Any], c: Any) -> bool:
    if not items:
        return False
    op, av = items[0]
    if op == c.AT:
        return bool(av in (c.AT_BEGINNING, c.AT_BEGINNING_STRING))
    if op == c.BRANCH:
        return all(_starts_at_beginning(list(alt), c) for alt in av[1])
    if op == c.SUBPATTERN:
        return _starts_at_beginning(list(av[3]), c)
    if op == c.ATOMIC_GROUP:
        return _starts_at_beginning(list(av), c)
    return False


_prefix: dict[tuple[str, int], str | None] = {}


def prefix(pattern: str, flags: int = 0) -> str | None:
    """The literal every match of `pattern` starts with (after any `\\b` or `\\B`),
    when there is one of two characters or more. A match can then only start where
    that literal occurs. `re` itself skips ahead to it only when the pattern begins
    with the literal, so `\\bloaded\\s+active` is tried at every position of a line."""
    key = (pattern, flags)
    if key in _prefix:
        return _prefix[key]
    from tokenjuice import _recache

    got = _recache.fact("prefix", pattern, flags, _literal_prefix)
    result = got if isinstance(got, str) and got else None
    _prefix[key] = result
    return result


def _literal_prefix(pattern: str, flags: int) -> str:
    """`prefix` as plain data ("" for none)."""
    try:
        from re import _constants as c  # type: ignore[attr-defined]
        from re import _parser  # type: ignore[attr-defined]

        tree = _parser.parse(pattern, flags)
        if tree.state.flags & (re.IGNORECASE | re.LOCALE):
            return ""
        items = list(tree)
    except Exception:  # noqa: BLE001 - not parseable by `re`: plain search
        return ""
    k = 0
    while k < len(items) and items[k][0] == c.AT and items[k][1] in (c.AT_BOUNDARY, c.AT_NON_BOUNDARY):
        k += 1
    run: list[str] = []
    while k < len(items) and items[k][0] == c.LITERAL:
        run.append(chr(items[k][1]))
        k += 1
    return "".join(run) if len(run) >= 2 else ""


def for_matcher(matcher: Any) -> Literals | None:
    """`required` for a compiled `re` or `regex` pattern (or a guarded one)."""
    compiled = getattr(matcher, "compiled", matcher)
    pattern = getattr(compiled, "pattern", None)
    if not isinstance(pattern, str):
        return None
    return required(pattern, int(getattr(compiled, "flags", 0)))
