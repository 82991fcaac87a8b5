"""unittest (`python -m unittest`, -v, -b, discover): failure blocks, not progress.

Each `FAIL:`/`ERROR:` block keeps its header, the project frames of its traceback (file,
line, source line) and its exception and message lines (long assertion diffs keep head
and tail); frames inside the standard library and site-packages, caret lines and the
`====`/`----` rules go. Progress dots and `... ok` lines go; stray test output keeps a
head and tail. `Ran N tests` and `OK`/`FAILED (…)` become the facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Run, add_counts, is_vendor

RAN_RE = re.compile(r"^Ran (\d+) tests? in [\d.]+s$")
RESULT_RE = re.compile(r"^(?:OK|FAILED|NO TESTS RAN)(?: \(([^)]*)\))?$")
COUNT_RE = re.compile(r"(failures|errors|skipped|expected failures|unexpected successes)=(\d+)")
BLOCK_HEADER_RE = re.compile(r"^(?:FAIL|ERROR|UNEXPECTED SUCCESS): \S")
DOUBLE_RULE = "=" * 70
SINGLE_RULE = "-" * 70
PROGRESS_RE = re.compile(r"^[.FEsxu]+$")
PROGRESS_PREFIX_RE = re.compile(r"^[.FEsxu]+(?=\S)")
# `test_x (pkg.mod.Class.test_x) ... ok`; the status may be missing (output followed).
VERBOSE_RE = re.compile(r"^\s*\S+ \([\w.]+\)(?: \(.*?\))? \.\.\. ?(.*)$")
PASS_STATUS_RE = re.compile(r"^(?:ok|skipped\b.*|expected failure)$")
FAIL_STATUS_RE = re.compile(r"^(?:FAIL|ERROR)$")
FRAME_RE = re.compile(r'^\s*File "([^"]*)", line \d+')
CARET_RE = re.compile(r"^\s*[~^]+\s*$")
CHAINED_RE = re.compile(r"^(?:During handling of the above exception|The above exception was the direct cause)")
CAPTURE_HEAD_RE = re.compile(r"^(?:Stdout|Stderr):$")

MESSAGE_HEAD = 12
MESSAGE_TAIL = 4
OUTPUT_HEAD = 3
OUTPUT_TAIL = 5


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    saw = False
    in_block = False  # inside a FAIL/ERROR block, after its `----` rule
    expect_exception = False  # the next unindented line states an exception
    last_frame: str | None = None  # path of the frame the indented lines belong to
    message = Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message")
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")

    def flush() -> None:
        message.flush()
        output.flush()

    n = len(lines)
    # Since 3.11 unexpected successes get a block of their own; the status line repeats it.
    has_us_block = any(ln.startswith("UNEXPECTED SUCCESS: ") for ln in lines)
    seen_tracebacks: set[tuple[str, ...]] = set()
    repeated = False
    for i, line in enumerate(lines):
        if line == DOUBLE_RULE:
            flush()
            in_block = False
            b.drop(i, "separators")
            continue
        if line == SINGLE_RULE:
            flush()
            b.drop(i, "separators")
            # The rule after a block header opens its body; the last one precedes `Ran N`.
            in_block = i > 0 and BLOCK_HEADER_RE.match(lines[i - 1]) is not None
            if in_block:
                # Subtests and parametrised helpers repeat one traceback: show it once.
                tb = _traceback_of(lines, i + 1)
                repeated = bool(tb) and tb in seen_tracebacks
                seen_tracebacks.add(tb)
            expect_exception = True
            last_frame = None
            continue
        m = RAN_RE.match(line)
        if m:
            flush()
            saw = True
            in_block = False
            b.headline_from(i, line)
            b.facts["tests"] = int(m.group(1))
            continue
        r = RESULT_RE.match(line)
        if r and i > 0 and RAN_RE.match(lines[i - 1] or (lines[i - 2] if i > 1 else "")):
            flush()
            b.headline_from(i, line)
            add_counts(b.facts, [(v, k) for k, v in COUNT_RE.findall(r.group(1) or "")])
            continue
        if BLOCK_HEADER_RE.match(line) and i + 1 < n and lines[i + 1] == SINGLE_RULE:
            flush()
            saw = True
            b.keep(i, protect=True)
            continue
        if CAPTURE_HEAD_RE.match(line):
            # `-b`: the test's buffered stdout/stderr, inside a block or replayed after it.
            flush()
            b.keep(i)
            in_block = False
            continue

        if in_block:
            if line.startswith("Traceback (most recent call last)"):
                message.flush()
                b.drop(i, "traceback")
                expect_exception = True
                continue
            f = FRAME_RE.match(line)
            if f:
                message.flush()
                last_frame = f.group(1)
                if repeated:
                    b.drop(i, "repeated traceback")
                elif is_vendor(last_frame):
                    b.drop(i, "library frames")
                else:
                    b.keep(i, protect=True)
                expect_exception = True
                continue
            if line.startswith("    ") and last_frame is not None:
                # The source line under a frame; caret lines only point into it.
                if CARET_RE.match(line):
                    b.drop(i, "carets")
                elif repeated:
                    b.drop(i, "repeated traceback")
                elif is_vendor(last_frame):
                    b.drop(i, "library frames")
                else:
                    b.keep(i)
                continue
            last_frame = None
            if not line:
                b.drop(i, "blank")
                continue
            if CHAINED_RE.match(line):
                message.flush()
                b.keep(i)
                continue
            if expect_exception and not line.startswith(" "):
                message.flush()
                b.keep(i, protect=True)
                expect_exception = False
                continue
            message.add(i)
            continue

        saw = _outside_line(b, i, line, output, has_us_block) or saw
    flush()
    if not saw:
        return None
    return b.build(final=True)


def _traceback_of(lines: list[str], start: int) -> tuple[str, ...]:
    """The frame and source lines of the block body starting at `start`."""
    out: list[str] = []
    for j in range(start, len(lines)):
        line = lines[j]
        if line in (DOUBLE_RULE, SINGLE_RULE):
            break
        if FRAME_RE.match(line) or (out and line.startswith("    ") and not CARET_RE.match(line)):
            out.append(line)
    return tuple(out)


def _outside_line(b: Builder, i: int, line: str, output: Run, has_us_block: bool) -> bool:
    """A line outside the failure blocks: progress, verbose status lines, stray output.
    True for a line that shows the output is a unittest run."""
    if PROGRESS_RE.match(line):
        b.drop(i, "progress")
        return True
    v = VERBOSE_RE.match(line)
    if v:
        status = v.group(1)
        if not status or PASS_STATUS_RE.match(status):
            b.drop(i, "passed")
        elif FAIL_STATUS_RE.match(status):
            b.drop(i, "status lines")  # the failure block names the test again
        elif status == "unexpected success":
            if has_us_block:
                b.drop(i, "status lines")
            else:
                b.keep(i, protect=True)
        else:
            # `test_x (…) ... <stray output>`: the output begins on the status line.
            output.add(i)
        return True
    if FAIL_STATUS_RE.match(line) or line == "ok":
        output.flush()
        b.drop(i, "status lines")
        return False
    if not line:
        b.drop(i, "blank")
        return False
    p = PROGRESS_PREFIX_RE.match(line)
    if p:
        # Dots glued to the first line a test printed: keep the printed part.
        output.flush()
        b.keep(i, text=line[p.end() :])
        return True
    output.add(i)
    return False
