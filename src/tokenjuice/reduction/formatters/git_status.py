"""git status: every path kept, grouped by state, without the how-to hints.

Long format becomes

    On branch main · Your branch is ahead of 'origin/main' by 2 commits.
    staged (2):
      M src/app.py
      R old.py -> new.py
    unstaged (1):
      D docs/x.md
    untracked (1):
      notes/

Short and porcelain formats are already compact and pass through whole.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

SECTIONS = {
    "Changes to be committed:": "staged",
    "Changes not staged for commit:": "unstaged",
    "Untracked files:": "untracked",
    "Unmerged paths:": "unmerged",
    "Ignored files:": "ignored",
}
STATES = {
    "modified": "M",
    "new file": "A",
    "deleted": "D",
    "renamed": "R",
    "copied": "C",
    "typechange": "T",
    "both modified": "UU",
    "both added": "AA",
    "both deleted": "DD",
    "added by us": "AU",
    "added by them": "UA",
    "deleted by us": "DU",
    "deleted by them": "UD",
}
ENTRY_RE = re.compile(r"^\s+(" + "|".join(sorted(map(re.escape, STATES), key=len, reverse=True)) + r"):\s+(.+)$")
HINT_RE = re.compile(r"^\s*\(use \"git .+\"|^\s*\(fix conflicts|^\s*\(all conflicts fixed|^\s*\(commit or discard")
BRANCH_RE = re.compile(
    r"^(On branch |HEAD detached |Not currently on any branch|Your branch |and have \d+ and \d+ "
    r"different|  \(use \"git pull\"|You are currently |interactive rebase|rebase in progress)"
)
DROP_TAIL_RE = re.compile(r"^(no changes added to commit|nothing added to commit but untracked files present)")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    b = Builder(lines, fi.weights)
    if not is_long_status(lines):
        # Short/porcelain output is already one path per line: every line stays.
        for i in range(len(lines)):
            b.keep(i, protect=True)
        return b.build(final=True, essential=True)
    emit_status(b, lines, 0, len(lines))
    return b.build(final=True, essential=True)


def is_long_status(lines: list[str]) -> bool:
    return any(line in SECTIONS or line.startswith(("On branch", "HEAD detached")) for line in lines)


def emit_status(b: Builder, lines: list[str], start: int, end: int, *, verdict: bool = False) -> None:
    """Reduce the long-format status in lines[start:end] into `b` (shared with the
    stash and commit formatters, whose outputs embed a status).

    With `verdict`, "no changes added to commit" stays (without its how-to): for
    `git commit` it is the reason nothing was committed.
    """
    section: str | None = None
    groups: dict[str, list[int]] = {}
    order: list[str] = []
    branch_idx: list[int] = []
    tail_idx: list[int] = []
    for i in range(start, end):
        line = lines[i]
        if line in SECTIONS:
            section = SECTIONS[line]
            if section not in groups:
                groups[section] = []
                order.append(section)
            b.drop(i, "headings")
            continue
        if not line.strip():
            b.drop(i, "blank")
            continue
        if verdict and DROP_TAIL_RE.match(line):
            tail_idx.append(i)
            continue
        if HINT_RE.match(line) or DROP_TAIL_RE.match(line):
            b.drop(i, "hints")
            continue
        if section is None and BRANCH_RE.match(line):
            branch_idx.append(i)
            continue
        if section is not None and (line.startswith(("\t", " "))):
            groups[section].append(i)
            continue
        tail_idx.append(i)
        section = None

    if branch_idx:
        first = branch_idx[0]
        text = " · ".join(lines[j].strip() for j in branch_idx)
        b.keep(first, text=text)
        for j in branch_idx[1:]:
            b.merge_into_last(j)
    for name in order:
        idx = groups[name]
        if not idx:
            continue
        b.add(f"{name} ({len(idx)}):")
        for j in idx:
            b.keep(j, protect=True, text="  " + _entry(lines[j]))
        b.facts[f"{name} path"] = len(idx)
    for j in tail_idx:
        b.keep(j, protect=True, text=lines[j].split(" (use ", 1)[0])


def _entry(line: str) -> str:
    m = ENTRY_RE.match(line)
    if m:
        return f"{STATES[m.group(1)]} {m.group(2).strip()}"
    return line.strip()
