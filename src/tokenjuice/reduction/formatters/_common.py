"""Helpers shared by formatters: an output builder that keeps the line accounting."""

from __future__ import annotations

from tokenjuice.reduction.formatters import FormatOutput

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Iterator, Sequence


class Builder:
    """Collects output lines with their weights, protection and drop reasons.

    `keep(i)` copies input line i (with its `(×N)` repeat count, since formatter output
    is rendered as is); `add(text)` adds a synthetic line (weight 0);
    `drop(i, reason)` counts input line i as omitted for `reason`. `build()` returns a
    FormatOutput whose accounting adds up to the input.
    """

    __slots__ = (
        "facts",
        "headline",
        "headline_weight",
        "lines",
        "omitted",
        "protected",
        "src_lines",
        "src_weights",
        "weights",
    )

    def __init__(self, src_lines: Sequence[str], src_weights: Sequence[int]) -> None:
        self.src_lines = src_lines
        self.src_weights = src_weights
        self.lines: list[str] = []
        self.weights: list[int] = []
        self.protected: list[bool] = []
        self.omitted: dict[str, int] = {}
        self.facts: dict[str, int] = {}
        self.headline: str | None = None
        self.headline_weight = 0

    def keep(self, i: int, *, protect: bool = False, text: str | None = None) -> None:
        # `keep_line` spelt out: this runs once per kept line of every formatter.
        line = self.src_lines[i] if text is None else text
        w = self.src_weights[i]
        if w > 1 and line.strip():
            line = f"{line} (×{w})"
        self.lines.append(line)
        self.weights.append(w)
        self.protected.append(protect)

    def keep_line(self, line: str, w: int, *, protect: bool = False) -> None:
        """A line standing for `w` input lines (a kept line whose index is not at hand)."""
        if w > 1 and line.strip():
            line = f"{line} (×{w})"  # the repeat count folded by dedupe stays visible
        self.lines.append(line)
        self.weights.append(w)
        self.protected.append(protect)

    def merge_into_last(self, i: int) -> None:
        """Count input line i as represented by the last output line."""
        self.weights[-1] += self.src_weights[i]

    def add(self, text: str, *, protect: bool = False) -> None:
        self.lines.append(text)
        self.weights.append(0)
        self.protected.append(protect)

    def keep_all(self, *, protect: bool = False) -> FormatOutput:
        """Every input line as it is (a list where each line is the signal); final."""
        for i in range(len(self.src_lines)):
            self.keep(i, protect=protect)
        return self.build(final=True, essential=protect)

    def group(self, indices: list[int], text: str, *, protect: bool = False) -> None:
        """One output line standing for several input lines whose content it carries."""
        if not indices:
            return
        self.lines.append(text)
        self.weights.append(sum(self.src_weights[i] for i in indices))
        self.protected.append(protect)

    def headline_from(self, i: int, text: str) -> None:
        """Input line i becomes the facts line at the top (several such lines join)."""
        self.headline = text if self.headline is None else f"{self.headline}; {text}"
        self.headline_weight += self.src_weights[i]

    def drop(self, i: int, reason: str) -> None:
        w = self.src_weights[i]  # `drop_weight` spelt out: once per dropped line
        if w:
            self.omitted[reason] = self.omitted.get(reason, 0) + w

    def drop_weight(self, reason: str, w: int) -> None:
        """Input lines weighing `w` in all dropped for `reason`."""
        if w:  # blank lines weigh nothing and are never reported
            self.omitted[reason] = self.omitted.get(reason, 0) + w

    def build(self, *, final: bool = True, essential: bool = False) -> FormatOutput:
        return FormatOutput(
            self.lines,
            self.weights,
            protected=self.protected,
            facts=self.facts or None,
            headline=self.headline,
            headline_weight=self.headline_weight,
            omitted=self.omitted,
            final=final,
            essential=essential,
        )


def matches_by_line(rx: re.Pattern[str], lines: list[str]) -> Iterator[tuple[int, re.Match[str]]]:
    """Matches of `rx` in the lines joined with a newline before each, with the index of
    the line each starts on: a pattern `\\n…` then matches whole blocks of lines in one
    step (what the batch-reading formatters do for their common cases)."""
    hay = "\n".join(["", *lines])  # one copy of the batch's text, not two
    at = pos = 0
    for m in rx.finditer(hay):
        at += hay.count("\n", pos, m.start())
        pos = m.start()
        yield at, m


def lazy_end(head: re.Match[str], ending: re.Pattern[str]) -> int:
    """Where a lazy group `(.+?)(?:ENDING)?$` starting at the end of `head` would end:
    at the leftmost match of `ending` (a pattern ending in `$`) after the group's first
    character, else at the end of the line. One search, which `re` skips through to
    where `ending` can start, where the lazy group tried it after every character."""
    line = head.string
    m = ending.search(line, head.end() + 1)
    return len(line) if m is None else m.start()
