"""git commit: the new commit and its summary, or why there was none.

A commit keeps `[branch hash] subject` and the summary line; runs of `create mode`/
`delete mode` lines become one `created (n): …` line. "Nothing to commit" output embeds
a long-format status, which is reduced like `git status` (paths grouped by state, hints
gone). Anything else (pre-commit hook output) is left to the rule's window, which
keeps the head, the tail and every error line of a failing run.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._git_lines import Outcome
from tokenjuice.reduction.formatters.git_status import BRANCH_RE, SECTIONS, emit_status

COMMIT_RE = re.compile(r"^\[(\S+)(?: \(root-commit\))? ([0-9a-f]{7,40})\] ")
STATUS_START = ("On branch ", "HEAD detached ", "Not currently on any branch", "interactive rebase in progress")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    b = Builder(lines, fi.weights)
    start = next((i for i, line in enumerate(lines) if line.startswith(STATUS_START) or line in SECTIONS), None)
    end = len(lines) if start is None else start
    out = Outcome(b, lines)
    handled = True
    for i in range(end):
        line = lines[i]
        if COMMIT_RE.match(line):
            b.keep(i, protect=True)
        elif line.startswith((" Date: ", " Author: ")):
            b.keep(i)
        elif not out.feed(i, line):
            b.keep(i)
            handled = False
    if start is not None:
        if not any(BRANCH_RE.match(lines[j]) or lines[j] in SECTIONS for j in range(start, len(lines))):
            return None
        emit_status(b, lines, start, len(lines), verdict=True)
    # Hook output (unrecognised lines) gets the rule's head/tail window instead.
    return b.build(final=handled, essential=handled)
