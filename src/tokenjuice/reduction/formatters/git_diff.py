"""git diff: every changed line and hunk header kept; context folded.

File headers shrink to the `diff --git` line plus what matters of the extended header
(new/deleted/renamed/binary); `index`, `---`/`+++` lines go. Context lines are dropped
(`formatterOptions.context` keeps N lines around each change). Combined diffs of merges
(`diff --cc`, `@@@` hunks) count a line as changed when any parent column is `+`/`-`;
`--word-diff` lines count as changed when they carry `[-…-]`/`{+…+}`; `--color-words`
output cannot be told apart once colours are stripped, so its hunks are kept whole.
`--stat` bars are trimmed to the counts; `--name-only`/`--name-status`/`--numstat`/
`--check` output is all signal and is kept whole.

`emit_diff` is shared with the git show, git log and git stash formatters.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._git_lines import stat_line

STAT_SUMMARY_RE = re.compile(r"^ \d+ files? changed")
WORD_CHANGE_RE = re.compile(r"\[-|-\]|\{\+|\+\}")
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
DIFF_START = ("diff --git", "diff --cc", "diff --combined")
COLOR_WORD_OPTS = ("--color-words", "--word-diff=color")
GIT_MESSAGE = ("warning: ", "error: ", "fatal: ", "hint: ")


class DiffStats:
    __slots__ = ("files", "minus", "plus")

    def __init__(self) -> None:
        self.files = 0
        self.plus = 0
        self.minus = 0

    def facts(self) -> dict[str, int]:
        if not self.files:
            return {}
        return {"file": self.files, "added line": self.plus, "removed line": self.minus}


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    return format_diff(fi.lines, fi.weights, int(fi.options.get("context", 0)), words=word_mode(fi.cmd.argv))


def word_mode(argv: tuple[str, ...] | list[str]) -> str:
    """ "color" for --color-words/--word-diff=color, "plain" for --word-diff[=plain], else ""."""
    mode = ""
    for a in argv:
        if a.startswith(COLOR_WORD_OPTS):
            mode = "color"
        elif a in ("--word-diff", "--word-diff=plain"):
            mode = "plain"
        elif a.startswith("--word-diff="):
            mode = ""
    return mode


def format_diff(lines: list[str], weights: list[int], context: int = 0, *, words: str = "") -> FormatOutput | None:
    if not lines:
        return None
    b = Builder(lines, weights)
    if not any(line.startswith((*DIFF_START, "@@")) or stat_line(line) for line in lines):
        # --name-only, --name-status, --numstat, --check, --shortstat: every line counts.
        for i in range(len(lines)):
            b.keep(i, protect=True)
        return b.build(final=True, essential=True)
    stats = emit_diff(b, lines, 0, len(lines), context, words=words)
    b.facts.update(stats.facts())
    return b.build(final=True, essential=True)


def changed_mask(lines: list[str], start: int, end: int, *, words: str = "") -> list[bool]:
    """For lines[start:end], whether each is a changed line inside a hunk.

    `words` is the word-diff mode: "plain" (`[-…-]{+…+}` markers), "color" (every
    hunk line, since stripped colours were the only markers) or "" (line diff).
    """
    out = [False] * (end - start)
    in_hunk = False
    parents = 1
    for i in range(start, end):
        line = lines[i]
        if line.startswith(DIFF_START):
            in_hunk = False
        elif line.startswith("@@"):
            in_hunk = True
            parents = max(1, len(line) - len(line.lstrip("@")) - 1)
        elif in_hunk:
            marks = line[:parents]
            line_change = "+" in marks or "-" in marks
            word_change = words == "color" or (words == "plain" and WORD_CHANGE_RE.search(line) is not None)
            out[i - start] = line_change or word_change
    return out


def emit_diff(b: Builder, lines: list[str], start: int, end: int, context: int = 0, *, words: str = "") -> DiffStats:
    """Reduce the patch in lines[start:end] into `b`; every changed line is protected."""
    changed = changed_mask(lines, start, end, words=words)
    near = _near_changes(changed, context) if context else None
    stats = DiffStats()
    in_hunk = False
    parents = 1
    for i in range(start, end):
        line = lines[i]
        k = i - start
        if line.startswith(DIFF_START):
            in_hunk = False
            stats.files += 1
            b.keep(i, protect=True)
        elif line.startswith("@@"):
            in_hunk = True
            parents = max(1, len(line) - len(line.lstrip("@")) - 1)
            b.keep(i, protect=True)
        elif in_hunk:
            if changed[k]:
                b.keep(i, protect=True)
                marks = line[:parents]
                if "+" in marks:
                    stats.plus += 1
                elif "-" in marks:
                    stats.minus += 1
            elif line.startswith("\\ No newline"):
                b.drop(i, "context")
            elif line.startswith(GIT_MESSAGE):
                # git's own warnings (stderr) can land between patch lines.
                b.keep(i, protect=True)
            elif near is not None and near[k]:
                b.keep(i)
            else:
                b.drop(i, "context")
        elif line.startswith(DROP_HEADER):
            b.drop(i, "headers")
        elif line.startswith(KEEP_HEADER):
            b.keep(i, protect=True)
        else:
            s = stat_line(line)
            if s:
                b.keep(i, protect=True, text=f"{s[0]} | {s[1]}")
            else:
                b.keep(i, protect=bool(STAT_SUMMARY_RE.match(line)))
    return stats


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
