"""Exact file reads (cat, head, tail, sed -n, nl, bat): the content as it is.

One behaviour everywhere (`wrap`, the executor, the adapters, the MCP `run` tool), and
the one `tokenjuice guidance` states: a read of at most `wholeChars` characters comes
back whole, every line kept as it is; a longer one comes back as its first and last
lines, `partChars` characters in all, with one marker that the engine rewrites to the
exact line range left out (`tokenjuice cat ID --lines A-B` returns it). Error lines
(`cat: x: No such file or directory`) are kept like any other line.
"""

from __future__ import annotations

from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

WHOLE_CHARS = 96_000
PART_CHARS = 48_000


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    whole = int(fi.options.get("wholeChars", WHOLE_CHARS))
    part = int(fi.options.get("partChars", PART_CHARS))
    lines = fi.lines
    b = Builder(lines, fi.weights)
    if sum(map(len, lines)) + len(lines) <= whole:
        for i in range(len(lines)):
            b.keep(i, protect=True)
        return b.build(final=True, essential=True)
    head_end, used = 0, 0
    while head_end < len(lines) and used + len(lines[head_end]) + 1 <= part // 2:
        used += len(lines[head_end]) + 1
        head_end += 1
    tail_start, used = len(lines), 0
    while tail_start > head_end and used + len(lines[tail_start - 1]) + 1 <= part - part // 2:
        used += len(lines[tail_start - 1]) + 1
        tail_start -= 1
    for i in range(head_end):
        b.keep(i, protect=True)
    for i in range(head_end, tail_start):
        b.drop(i, "middle")
    b.add("… 0 lines omitted …", protect=True)  # the engine states the exact range
    for i in range(tail_start, len(lines)):
        b.keep(i, protect=True)
    return b.build(final=True, essential=True)
