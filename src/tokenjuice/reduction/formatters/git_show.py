"""git show: the commit header in two lines, the whole message, every changed line.

    942425d8bd (HEAD -> main) Clamp negative values and log give-ups at info level
    Author: Dana Dev <dana@example.com> · Tue Nov 14 23:13:20 2023 +0000
      Negative inputs used to leak through every pipeline step; clamp them at the
      Refs: #412
    diff --git a/src/proj/metrics.py b/src/proj/metrics.py
    @@ -9,6 +9,7 @@ def metrics_step_0(value, *, retries=3):
    +    # NOTE: retries are bounded by the caller

The patch is reduced like `git diff` (hunk headers and changed lines kept, context and
index/---/+++ lines folded); `--stat` bars shrink to counts; `--name-status` lines stay.
Annotated tags keep the tag line, tagger and message. Anything that is not a commit or
tag (a tree listing, a blob, an error) is passed through whole: it is a file read.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters.git_diff import DiffStats, emit_diff, word_mode

COMMIT_RE = re.compile(r"^commit ([0-9a-f]{7,64})(?: (\(.*\)))?$")
TAG_RE = re.compile(r"^tag \S")
HEADER_RE = re.compile(r"^(Author|AuthorDate|Commit|CommitDate|Date|Merge|Tagger):\s+(.*)$")
SIG_START = "-----BEGIN PGP SIGNATURE-----"
SIG_END = "-----END PGP SIGNATURE-----"


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    starts = [i for i, line in enumerate(lines) if COMMIT_RE.match(line) or TAG_RE.match(line)]
    if not starts or not _object_header(lines, starts[0]):
        # A blob or tree (`git show REV:path`, `git show REV:dir/`), or an error: as is.
        for i in range(len(lines)):
            b.keep(i, protect=True)
        return b.build(final=True)
    for i in range(starts[0]):
        b.keep(i, protect=True)  # warnings before the first object
    words = word_mode(fi.cmd.argv)
    total = DiffStats()
    commits = 0
    bounds = [*starts, len(lines)]
    for k, start in enumerate(starts):
        end = bounds[k + 1]
        if lines[start].startswith("commit "):
            commits += 1
            st = _commit(b, lines, start, end, words)
            total.files += st.files
            total.plus += st.plus
            total.minus += st.minus
        else:
            _tag(b, lines, start, end)
    if commits > 1:
        b.facts["commits"] = commits
    b.facts.update(total.facts())
    return b.build(final=True, essential=True)


def _object_header(lines: list[str], i: int) -> bool:
    """A commit/tag line followed by header fields (not a file that starts with "commit ")."""
    return i + 1 < len(lines) and HEADER_RE.match(lines[i + 1]) is not None


def _commit(b: Builder, lines: list[str], start: int, end: int, words: str) -> DiffStats:
    m = COMMIT_RE.match(lines[start])
    assert m is not None
    deco = f" {m.group(2)}" if m.group(2) else ""
    head_at = len(b.lines)
    b.keep(start, protect=True, text=f"{m.group(1)[:10]}{deco}")
    i = start + 1
    who: list[str] = []
    who_at = -1
    while i < end and lines[i].strip():
        h = HEADER_RE.match(lines[i])
        if h is None:
            break
        if h.group(1) == "Merge":
            b.keep(i, protect=True)
        elif who_at < 0:
            who_at = len(b.lines)
            b.keep(i)
            who.append(h.group(0))
        else:
            b.weights[who_at] += b.src_weights[i]
            who.append(h.group(0) if h.group(1) in ("Author", "Commit") else h.group(2))
        i += 1
    if who_at >= 0:
        b.lines[who_at] = " · ".join(who)
    subject_done = False
    # Message: indented by four spaces, up to the first unindented line.
    while i < end and (not lines[i].strip() or lines[i].startswith("    ")):
        text = lines[i].strip()
        if not text:
            b.drop(i, "blank")
        elif not subject_done:
            b.lines[head_at] += " " + text
            b.weights[head_at] += b.src_weights[i]
            subject_done = True
        else:
            b.keep(i, protect=True, text="  " + lines[i][4:])
        i += 1
    if i < end:
        return emit_diff(b, lines, i, end, words=words)
    return DiffStats()


def _tag(b: Builder, lines: list[str], start: int, end: int) -> None:
    b.keep(start, protect=True)
    i = start + 1
    while i < end and (h := HEADER_RE.match(lines[i])) is not None:
        b.lines[-1] += f" · {h.group(0) if h.group(1) == 'Tagger' else h.group(2)}"
        b.merge_into_last(i)
        i += 1
    in_sig = False
    for j in range(i, end):
        line = lines[j]
        if line.startswith(SIG_START):
            in_sig = True
        if in_sig:
            b.drop(j, "signature")
            in_sig = not line.startswith(SIG_END)
        elif not line.strip():
            b.drop(j, "blank")
        else:
            b.keep(j, protect=True, text="  " + line)
