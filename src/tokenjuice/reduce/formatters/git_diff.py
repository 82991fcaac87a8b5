"""git diff: every changed line and hunk header kept; context folded.

File headers shrink to the `diff --git` line plus what matters of the extended header
(new/deleted/renamed/binary); `index`, `---`/`+++` lines go. Context lines are dropped
(`formatterOptions.context` keeps N lines around each change). `--stat` bars are
trimmed to the counts; `--name-only`/`--name-status` output passes unchanged.
"""

from __future__ import annotations

import re

from tokenjuice.reduce.formatters import FormatInput, FormatOutput
from tokenjuice.reduce.formatters._common import Builder

STAT_RE = re.compile(r"^ (\S.*?)\s+\|\s+(\d+|Bin [^|]*)(?: ([+-]+))?$")
STAT_SUMMARY_RE = re.compile(r"^ \d+ files? changed")
KEEP_HEADER = (
    "new file mode",
    "deleted file mode",
    "similarity index",
    "dissimilarity index",
    "rename from",
    "rename to",
    "copy from",
    "copy to",
    "old mode",
    "new mode",
    "Binary files",
)
DROP_HEADER = ("index ", "--- ", "+++ ")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    return format_diff(fi.lines, fi.weights, int(fi.options.get("context", 0)))


def format_diff(lines: list[str], weights: list[int], context: int = 0) -> FormatOutput | None:
    if not any(line.startswith(("diff --git", "@@", "diff --cc")) or STAT_RE.match(line) for line in lines):
        return None
    b = Builder(lines, weights)
    n = len(lines)
    in_hunk = False
    changed = [False] * n
    for i, line in enumerate(lines):
        if line.startswith(("diff --git", "diff --cc", "diff --combined")):
            in_hunk = False
        elif line.startswith("@@"):
            in_hunk = True
        elif in_hunk and line[:1] in ("+", "-"):
            changed[i] = True
    near = _near_changes(changed, context) if context else None
    in_hunk = False
    files = 0
    plus = minus = 0
    for i, line in enumerate(lines):
        if line.startswith(("diff --git", "diff --cc", "diff --combined")):
            in_hunk = False
            files += 1
            b.keep(i, protect=True)
        elif line.startswith("@@"):
            in_hunk = True
            b.keep(i, protect=True)
        elif in_hunk:
            if changed[i]:
                b.keep(i, protect=True)
                if line[0] == "+":
                    plus += 1
                else:
                    minus += 1
            elif line.startswith("\\ No newline"):
                b.drop(i, "context")
            elif near is not None and near[i]:
                b.keep(i)
            else:
                b.drop(i, "context")
        elif line.startswith(DROP_HEADER):
            b.drop(i, "headers")
        elif line.startswith(KEEP_HEADER):
            b.keep(i, protect=True)
        else:
            m = STAT_RE.match(line)
            if m:
                b.keep(i, protect=True, text=f"{m.group(1)} | {m.group(2)}")
            else:
                b.keep(i, protect=bool(STAT_SUMMARY_RE.match(line)))
    if files:
        b.facts.update({"files": files, "added lines": plus, "removed lines": minus})
    return b.build(final=True, essential=True)


def _near_changes(changed: list[bool], context: int) -> list[bool]:
    n = len(changed)
    near = [False] * n
    last = -(10**9)
    for i in range(n):
        if changed[i]:
            last = i
        elif i - last <= context:
            near[i] = True
    last = 10**9
    for i in range(n - 1, -1, -1):
        if changed[i]:
            last = i
        elif last - i <= context:
            near[i] = True
    return near
