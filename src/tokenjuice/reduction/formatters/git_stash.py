"""git stash: each subcommand's output reduced by what it is.

`stash show -p` is a patch (every changed line kept, like `git diff`); `stash show`
is a stat (bars trimmed to counts); `stash pop`/`apply` print a long-format status
(reduced like `git status`), possibly after CONFLICT lines, and end with
"Dropped refs/stash@{0} (…)" or "The stash entry is kept …", which stay. `stash list`
and `stash push` are already one line per entry and stay whole.
"""

from __future__ import annotations

from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._git_lines import Outcome
from tokenjuice.reduction.formatters.git_diff import DIFF_START, emit_diff
from tokenjuice.reduction.formatters.git_status import SECTIONS, emit_status

STATUS_START = ("On branch ", "HEAD detached ", "Not currently on any branch")
TAIL = ("Dropped ", "The stash entry is kept")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    b = Builder(lines, fi.weights)
    if any(line.startswith((*DIFF_START, "@@")) for line in lines):
        st = emit_diff(b, lines, 0, len(lines))
        b.facts.update(st.facts())
        return b.build(final=True, essential=True)
    start = next((i for i, line in enumerate(lines) if line.startswith(STATUS_START) or line in SECTIONS), None)
    if start is None:
        # list / push / show --stat / errors: one meaningful line each.
        out = Outcome(b, lines)
        for i, line in enumerate(lines):
            if not out.feed(i, line):
                b.keep(i, protect=True)
        return b.build(final=True, essential=True)
    out = Outcome(b, lines)
    for i in range(start):
        if not out.feed(i, lines[i]):
            b.keep(i, protect=True)
    end = len(lines)
    while end > start and lines[end - 1].startswith(TAIL):
        end -= 1
    emit_status(b, lines, start, end)
    for i in range(end, len(lines)):
        b.keep(i, protect=True)
    return b.build(final=True, essential=True)
