"""git merge / rebase / cherry-pick / revert: conflicts, errors and the result, not the
mechanics.

    CONFLICT (add/add): Merge conflict in shop/returns.py
    CONFLICT (modify/delete): shop/shipping.py deleted in HEAD and modified in …
    CONFLICT (content): Merge conflict in shop/users.py
    Automatic merge failed; fix conflicts and then commit the result.

`Auto-merging` lines and `Rebasing (n/m)` progress go; the `Could not apply …` line
that repeats `error: could not apply …` goes; hint paragraphs keep their first
sentence (how to continue); fast-forward stats keep each path with its count; runs of
`create mode`/`delete mode` lines become one `created (n): …` line. Paths listed under
"would be overwritten by merge" stay.
"""

from __future__ import annotations

from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._git_lines import Outcome


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    b = Builder(lines, fi.weights)
    out = Outcome(b, lines)
    conflicts = 0
    for i, line in enumerate(lines):
        if line.startswith("CONFLICT"):
            conflicts += 1
        if not out.feed(i, line):
            b.keep(i, protect=line.startswith(("Successfully rebased", "Merge made by", "Already up to date")))
    if conflicts:
        b.facts["conflict"] = conflicts
    return b.build(final=True, essential=True)
