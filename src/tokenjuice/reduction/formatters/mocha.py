"""mocha (spec, dot and list reporters): the numbered failures and the counts.

The numbered failure list after the counts keeps each failure's title chain (joined
onto one line), its error line, the head of its diff and its project stack frames;
mocha's own `+ expected - actual` diff repeating node's assertion diff, node internals,
node_modules frames and frames already shown go. The spec tree (suite names, ✔ lines,
numbered tree entries, pending lines) and dot progress go; test output written during
the run keeps a head and tail. `N passing/failing/pending` become the facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Run, js_frame_useful

COUNT_RE = re.compile(r"^\s*(\d+) (passing|failing|pending)(?: \(\S+\))?$")
PASS_RE = re.compile(r"^\s+[✔✓√]\s")
TREE_FAIL_RE = re.compile(r"^\s+\d+\) \S")
PENDING_RE = re.compile(r"^\s+- \S")
DOTS_RE = re.compile(r"^\s*[.!,․]+")
HEADER_RE = re.compile(r"^\s{1,4}(\d+)\) (\S.*)$")
AT_RE = re.compile(r"^\s+at \S")
ASSERT_DIFF_RE = re.compile(r"^\s*\+ actual - expected\s*$")
MOCHA_DIFF_RE = re.compile(r"^\s*\+ expected - actual\s*$")
EXCEPTION_RE = re.compile(r"^\s*Exception during run: ")

MESSAGE_HEAD = 10
MESSAGE_TAIL = 3
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3
MAX_FRAMES = 3
TITLE_LINES = 8


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    n = len(lines)
    saw = False
    after_counts = False
    in_failure = False
    first_msg = False
    had_assert_diff = False
    skipping_diff = False
    frames = 0
    seen_frames: set[str] = set()
    skip_until = -1
    message = Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message")
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")

    for i, line in enumerate(lines):
        if i <= skip_until:
            b.merge_into_last(i)
            continue
        c = COUNT_RE.match(line)
        if c:
            output.flush()
            message.flush()
            saw = True
            after_counts = True
            in_failure = False
            b.headline_from(i, f"{c.group(1)} {c.group(2)}")
            b.facts[c.group(2)] = int(c.group(1))
            continue
        if EXCEPTION_RE.match(line):
            # A file that fails to load stops the run before any test.
            output.flush()
            saw = True
            in_failure = True
            first_msg = False
            frames = 0
            b.keep(i, protect=True, text=line.strip())
            continue
        if after_counts:
            h = HEADER_RE.match(line)
            if h:
                message.flush()
                in_failure = True
                first_msg = True
                had_assert_diff = skipping_diff = False
                frames = 0
                title = [h.group(2).strip()]
                j = i
                # The title chain spans lines until the one ending with ':'.
                while not title[-1].endswith(":") and j + 1 < n and j - i < TITLE_LINES and lines[j + 1].strip():
                    j += 1
                    title.append(lines[j].strip())
                b.keep(i, protect=True, text=f"{h.group(1)}) " + " › ".join(title))
                skip_until = j
                continue
        if in_failure:
            if not line.strip():
                b.drop(i, "blank")
                continue
            if AT_RE.match(line):
                message.flush()
                stripped = line.strip()
                if not js_frame_useful(line):
                    b.drop(i, "library frames")
                elif stripped in seen_frames or frames >= MAX_FRAMES:
                    b.drop(i, "repeated frames" if stripped in seen_frames else "stack frames")
                else:
                    seen_frames.add(stripped)
                    frames += 1
                    b.keep(i)
                skipping_diff = False
                continue
            if first_msg:
                first_msg = False
                b.keep(i, protect=True, text=line.strip())
                continue
            if ASSERT_DIFF_RE.match(line):
                had_assert_diff = True
            elif MOCHA_DIFF_RE.match(line) and had_assert_diff:
                # mocha's diff repeats the one in node's assertion message.
                message.flush()
                skipping_diff = True
            if skipping_diff:
                b.drop(i, "repeated diff")
                continue
            message.add(i)
            continue

        saw = _before_counts_line(b, i, line, output) or saw
    message.flush()
    output.flush()
    if not saw:
        return None
    return b.build(final=True)


def _before_counts_line(b: Builder, i: int, line: str, output: Run) -> bool:
    """A line before the counts: the spec tree or progress dots, and whatever the tests
    printed. True for a line that shows the output is a mocha run."""
    if PASS_RE.match(line) or TREE_FAIL_RE.match(line):
        output.flush()
        # A failing test's line: the numbered failure list repeats it.
        b.drop(i, "passed" if PASS_RE.match(line) else "status lines")
        return True
    if PENDING_RE.match(line):
        output.flush()
        b.drop(i, "pending")
    elif not line.strip():
        output.flush()
        b.drop(i, "blank")
    elif line.startswith("  ") and not line.startswith("   " * 4):
        output.flush()
        b.drop(i, "suite names")
    else:
        d = DOTS_RE.match(line)
        if d and d.end() == len(line):
            output.flush()
            b.drop(i, "progress")
            return True
        if d and line[: d.end()].strip():
            # Dots glued to the first line a test printed: keep the printed part.
            output.flush()
            b.keep(i, text=line[d.end() :])
        else:
            output.add(i)
    return False
