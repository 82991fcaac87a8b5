"""Required literals of a regex: a cheap necessary condition checked before the regex.

`required(r"^FAILED |^\\S+::\\S.* FAILED\\b")` is `("FAILED",)`: every match contains
one of the strings, so a line without any of them cannot match and need not be
searched. `str.__contains__` runs at memchr speed, while `re` steps through every
position of a line whose pattern has no literal prefix; on long outputs where a
pattern matches few lines this is most of the matching time.

The strings come from walking the pattern as `tokenjuice.backtrack` parses it: literal
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


def _literal(node: Any) -> tuple[str, bool] | None:
    """The one character a node matches (lower-cased when it matches either case)."""
    from tokenjuice.backtrack.tree import Char

    if not isinstance(node, Char):
        return None
    cs = node.cs
    if cs.neg or len(cs.ranges) != 1 or cs.ranges[0][0] != cs.ranges[0][1] or not cs.cats <= {"c"}:
        return None
    ch = chr(cs.ranges[0][0])
    fold = "c" in cs.cats  # "c": a cased letter under IGNORECASE
    return (ch.lower() if fold else ch), fold


def _node(node: Any) -> _Info:
    from tokenjuice.backtrack.tree import Alt

    lit = _literal(node)
    if lit is not None:
        return _Info(lit[0], None, lit[1])
    if isinstance(node, Alt):
        return _alt(node.branches)
    return _Info(None, None, False)


def _alt(branches: list[list[Any]]) -> _Info:
    """One branch: what its sequence requires; several: one string from each."""
    if len(branches) == 1:
        return _walk(branches[0])
    alts: set[str] = set()
    fold = False
    for info in (_walk(branch) for branch in branches):
        got = frozenset([info.exact]) if info.exact else info.req
        if not got:
            return _Info(None, None, False)
        alts |= got
        fold = fold or info.fold
    strings, fold = _norm(alts, fold)
    return _Info(None, strings, fold)


def _walk(items: list[Any]) -> _Info:
    from tokenjuice.backtrack.tree import Alt, Repeat

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

    for item in items:
        if isinstance(item, Alt) and len(item.branches) > 1 and run:
            infos = [_walk(branch) for branch in item.branches]
            if all(i.exact for i in infos):
                # `ab(?:c|d)`: the run so far goes in front of each alternative.
                joined = {"".join(run) + (i.exact or "") for i in infos}
                best = _better(best, _norm(joined, run_fold or any(i.fold for i in infos)))
                run.clear()
                run_fold = False
                pure = False
                continue
        if isinstance(item, Repeat):
            pure = False
            flush()
            if item.lo >= 1:
                info = _node(item.body)
                got = frozenset([info.exact]) if info.exact else info.req
                if got:
                    best = _better(best, (got, info.fold))
            continue
        info = _node(item)
        if info.exact is not None:
            run.append(info.exact)
            run_fold = run_fold or info.fold
            continue
        # Anything else (classes, anchors, lookarounds, references) ends the run.
        pure = False
        flush()
        if info.req is not None:
            best = _better(best, (info.req, info.fold))
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
    worth checking (or the pattern is not understood)."""
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
    from tokenjuice.backtrack import Syntax  # only to compute a fact the cache lacks

    try:
        info = _alt(Syntax(pattern, flags & re.IGNORECASE).tree.branches)
    except (ValueError, RecursionError):  # not understood: no prefilter, never an error
        return None
    strings = frozenset([info.exact]) if info.exact else info.req
    if not strings or min(len(s) for s in strings) < MIN_CHARS:
        return None
    if info.fold:
        return tuple(sorted(s.lower() for s in strings)), True
    return tuple(sorted(strings)), False


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
    from tokenjuice.backtrack import Syntax  # only to compute a fact the cache lacks

    try:
        syntax = Syntax(pattern, flags)
    except (ValueError, RecursionError):  # not understood: plain search
        return False
    return not syntax.seen_flags & re.MULTILINE and all(_starts_at_beginning(b) for b in syntax.tree.branches)


def _starts_at_beginning(items: list[Any]) -> bool:
    from tokenjuice.backtrack.tree import Alt, Assert

    if not items:
        return False
    first = items[0]
    if isinstance(first, Assert):
        return first.kind in ("^", "A")
    if isinstance(first, Alt):
        return all(_starts_at_beginning(b) for b in first.branches)
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


def _is_boundary(node: Any) -> bool:
    from tokenjuice.backtrack.tree import Assert

    return isinstance(node, Assert) and node.kind in ("b", "B")


def _literal_prefix(pattern: str, flags: int) -> str:
    """`prefix` as plain data ("" for none)."""
    from tokenjuice.backtrack import Syntax  # only to compute a fact the cache lacks

    try:
        syntax = Syntax(pattern, flags)
    except (ValueError, RecursionError):  # not understood: plain search
        return ""
    if syntax.flags & (re.IGNORECASE | re.LOCALE):
        return ""
    # Several branches (`abc|abd`): the start they share.
    starts = [_branch_prefix(items) for items in syntax.tree.branches]
    common = min(starts, key=len)
    while common and not all(s.startswith(common) for s in starts):
        common = common[:-1]
    return common if len(common) >= 2 else ""


def _branch_prefix(items: list[Any]) -> str:
    k = 0
    while k < len(items) and _is_boundary(items[k]):
        k += 1
    run: list[str] = []
    while k < len(items) and (lit := _literal(items[k])) is not None and not lit[1]:
        run.append(lit[0])
        k += 1
    return "".join(run)


def for_matcher(matcher: Any) -> Literals | None:
    """`required` for a compiled `re` or `regex` pattern (or a guarded one)."""
    compiled = getattr(matcher, "compiled", matcher)
    pattern = getattr(compiled, "pattern", None)
    if not isinstance(pattern, str):
        return None
    return required(pattern, int(getattr(compiled, "flags", 0)))
