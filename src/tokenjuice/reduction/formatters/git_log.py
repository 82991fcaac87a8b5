"""git log: one line per commit (short hash, decorations, subject), however long.

The full format's Author/Date/body lines go; with `--stat` each commit keeps its
"N files changed" line with the files it names (`: src/{a.py, b.py}, README.md`, the
first ten, then how many more); with `-p` the patch is reduced like `git diff` (every changed line
kept). `--oneline` and `--graph` output keep one line per commit.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._git_lines import stat_line
from tokenjuice.reduction.formatters.git_diff import STAT_SUMMARY_RE

COMMIT_RE = re.compile(r"^(?:[*|\\/ ]+)?commit ([0-9a-f]{7,64})(?: (\(.*\)))?$")
GRAPH_ONLY_RE = re.compile(r"^[*|\\/_ .-]+$")
HEADER_RE = re.compile(r"^(?:[|\\/ ]+)?(?:Author|AuthorDate|Commit|CommitDate|Date|Merge|Reflog|Signed|gpg):")
DIFF_START = ("diff --git", "diff --cc", "diff --combined")
# A commit's `--stat` files named on its summary line; the rest are counted.
STAT_FILES_SHOWN = 10


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not any(COMMIT_RE.match(line) for line in lines[:50]):
        return _oneline(fi)
    b = Builder(lines, fi.weights)
    commits = 0
    state = "none"  # header → message → after (stat / patch)
    subject_for: int | None = None
    diff_hunk = False
    stat_files: list[tuple[int, str]] = []  # this commit's per-file stat lines, for its summary
    for i, line in enumerate(lines):
        m = COMMIT_RE.match(line)
        if m:
            _drop_stat_files(b, stat_files)
            commits += 1
            state = "header"
            subject_for = len(b.lines)
            deco = f" {m.group(2)}" if m.group(2) else ""
            b.keep(i, protect=True, text=f"{m.group(1)[:10]}{deco}")
            diff_hunk = False
            continue
        if state == "header":
            if HEADER_RE.match(line):
                b.drop(i, "author/date lines")
                continue
            if not line.strip():
                b.drop(i, "blank")
                state = "message"
                continue
        if state == "message":
            body = _strip_graph(line)
            if body.startswith("    ") or not body.strip():
                if subject_for is not None and body.strip():
                    # First message line is the subject: join it to the commit line.
                    b.lines[subject_for] += " " + body.strip()
                    b.merge_into_last(i)
                    subject_for = None
                else:
                    b.drop(i, "commit message bodies")
                continue
            state = "after"
        # stat / patch / anything else after the message
        stripped = _strip_graph(line)
        if stripped.startswith(DIFF_START):
            diff_hunk = False
            b.keep(i, protect=True, text=stripped)
        elif stripped.startswith("@@"):
            diff_hunk = True
            b.keep(i, protect=True, text=stripped)
        elif diff_hunk and stripped[:1] in ("+", "-") and not stripped.startswith(("+++ ", "--- ")):
            b.keep(i, protect=True, text=stripped)
        elif diff_hunk and stripped[:1] == " ":
            b.drop(i, "diff context")
        elif stripped.startswith(("index ", "--- ", "+++ ")):
            b.drop(i, "diff headers")
        elif STAT_SUMMARY_RE.match(stripped):
            shown = stat_files[:STAT_FILES_SHOWN]
            text = "  " + stripped.strip()
            if shown:
                names = _grouped([name for _, name in shown])
                more = len(stat_files) - len(shown)
                text += f": {names}" + (f" and {more} more" if more else "")
            b.group([*(j for j, _ in shown), i], text, protect=True)
            _drop_stat_files(b, stat_files[STAT_FILES_SHOWN:])
            stat_files = []
        elif st := stat_line(stripped):
            stat_files.append((i, st[0].strip()))
        elif not stripped.strip() or GRAPH_ONLY_RE.match(line):
            b.drop(i, "blank")
        else:
            b.keep(i)
    _drop_stat_files(b, stat_files)
    if not commits:
        return None
    b.facts["commits"] = commits
    return b.build(final=True, essential=True)


def _grouped(names: list[str]) -> str:
    """Paths joined, neighbours in one directory written once: `src/app/{cli.py, db.py},
    README.md`. git lists a commit's files sorted, so a directory's files are together.
    A rename (`{old => new}`) stays as git wrote it."""
    parts: list[str] = []
    run: list[str] = []
    run_dir = ""

    def flush() -> None:
        if len(run) > 1:
            parts.append(f"{run_dir}/{{{', '.join(run)}}}")
        elif run:
            parts.append(f"{run_dir}/{run[0]}" if run_dir else run[0])
        run.clear()

    for name in names:
        directory, _, base = name.rpartition("/")
        if "{" in name or " => " in name or not directory:
            flush()
            parts.append(name)
            continue
        if directory != run_dir:
            flush()
            run_dir = directory
        run.append(base)
    flush()
    return ", ".join(parts)


def _drop_stat_files(b: Builder, stat_files: list[tuple[int, str]]) -> None:
    """Per-file stat lines no summary line names (past the first ten, or no summary)."""
    for j, _ in stat_files:
        b.drop(j, "per-file stat lines")
    stat_files.clear()


def _strip_graph(line: str) -> str:
    """Remove a `--graph` prefix such as `| * ` or `|/ `."""
    j = 0
    while j < len(line) and line[j] in "|\\/ *" and j < 40:
        if line.startswith("    ", j) and line[j + 4 : j + 5] not in ("|", "\\", "/", "*", " "):
            break
        j += 1
    return line[j:] if j and line[:j].strip() else line


def _oneline(fi: FormatInput) -> FormatOutput | None:
    """`--oneline` / `--format` output: already one line per commit; graph-only lines go."""
    b = Builder(fi.lines, fi.weights)
    commits = 0
    for i, line in enumerate(fi.lines):
        if GRAPH_ONLY_RE.match(line):
            b.drop(i, "graph lines")
        else:
            b.keep(i, protect=True)
            commits += 1
    if not commits:
        return None
    b.facts["commits"] = commits
    return b.build(final=True, essential=True)
