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

from tokenjuice import prefilter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.patterns import Matcher

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


def hits(matchers: list[Matcher], lines: list[str] | Lines) -> list[bool]:
    """Per line: does any of the matchers match it."""
    batch = lines if isinstance(lines, Lines) else Lines(lines)
    out: list[bool] | None = None
    for m in matchers:
        got = _one(m, batch)
        out = got if out is None else list(map(operator.or_, out, got))
    return out if out is not None else [False] * len(batch.lines)


def weighted(matcher: Matcher, lines: list[str] | Lines, weights: list[int]) -> int:
    """The summed weights of the lines the matcher matches."""
    batch = lines if isinstance(lines, Lines) else Lines(lines)
    return sum(compress(weights, _one(matcher, batch)))


def _one(m: Matcher, batch: Lines) -> list[bool]:
    text = batch.lines
    n = len(text)
    lit = prefilter.for_matcher(m) if n >= _MIN_LINES else None
    if lit is None or (lit.fold and not batch.joined.isascii()):
        return list(map(bool, map(m.search, text)))
    hay = batch.lowered if lit.fold else batch.joined
    # On most lines anyway (judged on a sample): the checks would only add to the search.
    sample_lines = hay.count("\n", 0, _SAMPLE_CHARS) + 1
    if sum(hay.count(s, 0, _SAMPLE_CHARS) for s in lit.strings) * 2 > sample_lines:
        return list(map(bool, map(m.search, text)))
    present = [s for s in lit.strings if s in hay]
    if not present:
        return [False] * n
    src = batch.lower_lines if lit.fold else text
    cand: list[bool] | None = None
    for s in present:
        got = list(map(operator.contains, src, repeat(s)))
        cand = got if cand is None else list(map(operator.or_, cand, got))
    assert cand is not None
    idx = list(compress(count(), cand))
    out = [False] * n
    for i, found in zip(idx, map(m.search, map(text.__getitem__, idx)), strict=True):
        if found is not None:
            out[i] = True
    return out
