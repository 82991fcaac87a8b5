"""wc over many files: the total first, the largest files, the rest as one count.

A short listing stays as it is. With more than SMALL files the `total` row becomes the
facts line, the TOP files with the highest first count (lines for `wc -l`, else
what the first column is) follow, and the others become one line saying how many they
are and what they add up to. `wc: x: No such file or directory` errors stay.
"""

from __future__ import annotations

from operator import itemgetter

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

ROW_RE = re.compile(r"^\s*(\d+)((?:\s+\d+){0,3})\s+(\S.*)$")
# ROW_RE over all lines joined (it cannot cross a newline): one C-level pass, which
# finds one row per line exactly when every line is a row (the usual listing).
ROWS_RE = re.compile(r"^[^\S\n]*(\d+)(?:[^\S\n]+\d+){0,3}[^\S\n]+(\S[^\n]*)$", re.MULTILINE)
ERROR_RE = re.compile(r"^wc: ")
SMALL = 25
TOP = 20


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    rows, totals, errors, other = _classify(lines)
    b = Builder(lines, fi.weights)
    if len(rows) <= fi.options.get("small", SMALL):
        for i in range(len(lines)):
            b.keep(i, protect=i in errors or i in totals)
        return b.build(final=True)
    for i in totals:
        b.headline_from(i, lines[i].strip())
    for i in errors:
        b.keep(i, protect=True)
    ranked = sorted(rows, key=itemgetter(0), reverse=True)  # stable: ties keep their order
    top = fi.options.get("top", TOP)
    b.add(f"{len(rows):,} files, the {top} largest:")
    for _, i in ranked[:top]:
        b.keep(i)
    rest = ranked[top:]
    together = sum(map(itemgetter(0), rest))
    b.add(f"… {len(rest):,} more files, {together:,} together (each ≤ {rest[0][0]:,})")
    b.weights[-1] = sum(map(fi.weights.__getitem__, map(itemgetter(1), rest)))
    for i in other:
        b.keep(i)
    return b.build(final=True)


def _classify(lines: list[str]) -> tuple[list[tuple[int, int]], list[int], list[int], list[int]]:
    """(first count, index) of each file row; indices of total rows, errors, other lines."""
    found = ROWS_RE.findall("\n".join(lines))
    if len(found) == len(lines):
        totals = [i for i, (_, name) in enumerate(found) if name == "total"]
        return [(int(n), i) for i, (n, name) in enumerate(found) if name != "total"], totals, [], []
    rows: list[tuple[int, int]] = []
    totals, errors, other = [], [], []
    for i, line in enumerate(lines):
        m = ROW_RE.match(line)
        if m and m.group(3) == "total":
            totals.append(i)
        elif m:
            rows.append((int(m.group(1)), i))
        elif ERROR_RE.match(line):
            errors.append(i)
        elif line.strip():
            other.append(i)
    return rows, totals, errors, other
