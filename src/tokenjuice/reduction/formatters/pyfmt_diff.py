"""Python formatter checks with `--diff` (black, isort): which files, what changes.

Status lines (`would reformat x.py`, `ERROR: x.py Imports are incorrectly sorted…`,
the summary) stay. Unified diffs keep each file's `--- path` line (timestamps and the
`+++` twin go), hunk headers and every changed line; context lines go. Without a diff
there is nothing to do (the rule's patterns handle plain `--check` output).
"""

from __future__ import annotations

from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._lintkit import DiffFolder, looks_like_diff


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not looks_like_diff(lines):
        return None
    b = Builder(lines, fi.weights)
    diff = DiffFolder(b, lines)
    for i, line in enumerate(lines):
        if diff.feed(i):
            continue
        if not line.strip():
            b.drop(i, "blank lines")
        else:
            b.keep(i, protect=True)
    # The rule's counters already count the files.
    b.facts.update({"added lines": diff.added, "removed lines": diff.removed})
    return b.build(final=True, essential=True)
