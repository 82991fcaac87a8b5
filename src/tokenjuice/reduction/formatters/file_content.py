"""Exact file reads (cat, head, tail, sed -n, nl, bat): the content as it is.

An agent reading a file needs every line, so nothing is windowed or summarised: each
line is kept and marked essential, and only an enormous file (far beyond the normal
budget) is trimmed in the middle. Error lines (`cat: x: No such file or directory`)
are kept like any other line and protected.
"""

from __future__ import annotations

from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    b = Builder(fi.lines, fi.weights)
    for i in range(len(fi.lines)):
        b.keep(i, protect=True)
    return b.build(final=True, essential=True)
