"""Which lines of a batch a pattern matches, searching as few lines as possible.

A rule pattern is searched line by line. When it has required literals (see
`tokenjuice.prefilter`), the batch is first checked for them at memchr speed: absent
everywhere (the usual case for error and counter patterns on a clean run) means no line
can match; present on a few lines means only those are searched. A pattern whose
literal sits on most lines (`PASSED` in `pytest -v`) is searched on every line, as
without a prefilter. The answer is the same either way, only cheaper.
"""

from __future__ import annotations

import operator
from itertools import compress, count, repeat

from tokenjuice import _re as re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from tokenjuice.patterns import Matcher
    from tokenjuice.prefilter import Literals

# Batches this small are searched directly: the checks would cost more than they save.
_MIN_LINES = 16
# Literal density is sampled on this much of the batch before deciding.
_SAMPLE_CHARS = 32 * 1024


class Lines:
    """A batch of lines with the joined and lower-cased texts the checks share."""

    __slots__ = ("_joined", "_lower_lines", "_lowered", "lines")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._joined: str | None = None
        self._lowered: str | None = None
        self._lower_lines: list[str] | None = None

    @property
    def joined(self) -> str:
        if self._joined is None:
            self._joined = "\n".join(self.lines)
        return self._joined

    @property
    def lowered(self) -> str:
        if self._lowered is None:
            self._lowered = self.joined.lower()
        return self._lowered

    @property
    def lower_lines(self) -> list[str]:
        if self._lower_lines is None:
            self._lower_lines = list(map(str.lower, self.lines))
        return self._lower_lines


class Hints:
    """What one reduction learnt about its patterns: their literals, and which ones
    turned out to sit on most lines (not worth checking again in later batches)."""

    __slots__ = ("dense", "finders", "literals", "prefixes")

    def __init__(self) -> None:
        self.literals: dict[int, Literals | None] = {}
        self.dense: set[int] = set()
        self.finders: dict[int, Any] = {}
        self.prefixes: dict[int, str | None] = {}


def hits(matchers: list[Matcher], lines: list[str] | Lines, hints: Hints | None = None) -> list[bool]:
    """Per line: does any of the matchers match it."""
    batch = lines if isinstance(lines, Lines) else Lines(lines)
    hints = hints if hints is not None else Hints()
    out: list[bool] | None = None
    for m in matchers:
        got = _one(m, batch, hints)
        out = got if out is None else list(map(operator.or_, out, got))
    return out if out is not None else [False] * len(batch.lines)


def weighted(matcher: Matcher, lines: list[str] | Lines, weights: list[int], hints: Hints | None = None) -> int:
    """The summed weights of the lines the matcher matches."""
    batch = lines if isinstance(lines, Lines) else Lines(lines)
    return sum(compress(weights, _one(matcher, batch, hints if hints is not None else Hints())))


def containing(strings: tuple[str, ...], lines: list[str]) -> list[int] | None:
    """Indices of the lines holding one of `strings` (a formatter's cheap necessary
    condition for its own regex), or None when that is most lines."""
    from tokenjuice.prefilter import Literals

    batch = Lines(lines)
    return _candidates(Literals(strings, False), batch.joined, batch)


def _finder(m: Matcher) -> Any:
    """`m.match` for a pattern anchored at the start (same answer, less work), else
    `m.search`. Guarded patterns keep their `search`: it enforces their time budget."""
    if isinstance(m, re.Pattern):
        from tokenjuice import prefilter

        if prefilter.anchored(m.pattern, m.flags):
            return m.match
    return m.search


def _one(m: Matcher, batch: Lines, hints: Hints) -> list[bool]:
    text = batch.lines
    n = len(text)
    if n < _MIN_LINES:
        return list(map(bool, map(m.search, text)))
    key = id(m)
    find = hints.finders.get(key)
    if find is None:
        find = hints.finders[key] = _finder(m)
    if key in hints.dense:
        return _every_line(m, find, text, hints)
    if key not in hints.literals:
        from tokenjuice import prefilter

        hints.literals[key] = prefilter.for_matcher(m)
    lit = hints.literals[key]
    if lit is None or (lit.fold and not batch.joined.isascii()):
        return _every_line(m, find, text, hints)
    hay = batch.lowered if lit.fold else batch.joined
    idx = _candidates(lit, hay, batch)
    if idx is None:
        hints.dense.add(key)
        return _every_line(m, find, text, hints)
    out = [False] * n
    for i, found in zip(idx, map(find, map(text.__getitem__, idx)), strict=True):
        if found is not None:
            out[i] = True
    return out


def _every_line(m: Matcher, find: Any, text: list[str], hints: Hints) -> list[bool]:
    """Search every line; a pattern whose matches all start with one literal is tried
    only where that literal first occurs on the line, and searched in full only on the
    lines where it fails there but occurs again."""
    key = id(m)
    if key not in hints.prefixes:
        lead = None
        if isinstance(m, re.Pattern) and find != m.match:
            from tokenjuice import prefilter

            lead = prefilter.prefix(m.pattern, m.flags)
        hints.prefixes[key] = lead
    lead = hints.prefixes[key]
    if lead is None:
        return list(map(bool, map(find, text)))
    assert isinstance(m, re.Pattern)
    # `match(line, pos)` sees the whole line, so `\b` still looks at the character before.
    at = list(map(str.find, text, repeat(lead)))
    out = list(map(bool, map(m.match, text, at)))
    again = map(str.find, text, repeat(lead), map(operator.add, at, repeat(1)))
    retry = compress(count(), map(operator.and_, map(operator.not_, out), map(operator.le, repeat(0), again)))
    for i in retry:
        out[i] = m.search(text[i]) is not None
    return out


def _candidates(lit: Literals, hay: str, batch: Lines) -> list[int] | None:
    """Indices of the lines holding one of the literals; None when that is most lines
    (the checks would only add to the search)."""
    strings = lit.strings
    n = len(batch.lines)
    ac = automaton(strings)
    if ac is not None:
        # One pass for all the strings; a position's line is the newlines before it.
        ascii_hay = hay.isascii()
        if ascii_hay:
            found = ac[0].find_matches_as_indexes(hay.encode("ascii"))
        else:
            found = ac[1]().find_matches_as_indexes(hay)
        if len(found) * 2 > n:
            return None
        out: list[int] = []
        line = prev = 0
        for _, start, _ in found:
            line += hay.count("\n", prev, start)
            prev = start
            if not out or out[-1] != line:
                out.append(line)
        return out
    # Judged on a sample first: a literal on most lines is not worth checking line by line.
    sample_lines = hay.count("\n", 0, _SAMPLE_CHARS) + 1
    if sum(hay.count(s, 0, _SAMPLE_CHARS) for s in strings) * 2 > sample_lines:
        return None
    present = [s for s in strings if s in hay]
    if not present:
        return []
    src = batch.lower_lines if lit.fold else batch.lines
    cand: list[bool] | None = None
    for s in present:
        got = list(map(operator.contains, src, repeat(s)))
        cand = got if cand is None else list(map(operator.or_, cand, got))
    assert cand is not None
    return list(compress(count(), cand))


_automata: dict[tuple[str, ...], tuple[Any, Callable[[], Any]] | None] = {}


def automaton(strings: tuple[str, ...]) -> tuple[Any, Callable[[], Any]] | None:
    """An Aho-Corasick automaton over `strings` for bytes haystacks, and a function
    giving one for str haystacks (built on first use: most text is ASCII). None without
    `ahocorasick_rs`, a declared dependency: the per-line checks then serve."""
    if strings in _automata:
        return _automata[strings]
    try:
        import ahocorasick_rs

        kind = ahocorasick_rs.MATCHKIND_LEFTMOST_FIRST
        pair: tuple[Any, Callable[[], Any]] | None = (
            ahocorasick_rs.BytesAhoCorasick([s.encode() for s in strings], matchkind=kind),
            _once(lambda: ahocorasick_rs.AhoCorasick(list(strings), matchkind=kind)),
        )
    except ImportError:  # pragma: no cover
        pair = None
    _automata[strings] = pair
    return pair


def _once(make: Callable[[], Any]) -> Callable[[], Any]:
    """`make()`, called the first time it is wanted."""
    made: list[Any] = []

    def get() -> Any:
        if not made:
            made.append(make())
        return made[0]

    return get
