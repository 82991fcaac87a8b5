"""playwright test (list, line and dot reporters): the numbered failure blocks.

Each `N) [project] › file:line:col › title` block keeps its error line, the
Locator/Expected/Received/Timeout lines, the head of the diff and of the call log, the
failing source line (`> 20 | …`), project stack frames and the `Error Context`/
attachment pointers; the rest of the code frame, frames in node_modules and retry
attempts repeating the first attempt's lines go. Per-test progress lines (✓/✘/-,
`[3/7]`, dots), the `Running N tests` header and the closing list of failed tests
(already shown) go. The `N failed / N passed / N skipped / N flaky` lines become the
facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Failure, Run, js_frame_useful

RUNNING_RE = re.compile(r"^Running \d+ tests? using \d+ workers?")
LIST_LINE_RE = re.compile(r"^\s+([✓✘✔×\-~°])\s+\d+ (?:\[[^\]]+\] › )?\S")
LINE_PROGRESS_RE = re.compile(r"^\[\d+/\d+\] ")
DOTS_RE = re.compile(r"^[·×°±TF✓✘]+$")
HEADER_RE = re.compile(r"^\s+(\d+\) .*?)\s*─*$")
RETRY_RE = re.compile(r"^\s+(Retry #\d+)\s*─*$")
SUMMARY_RE = re.compile(r"^\s+(\d+) (failed|passed|skipped|flaky|interrupted|did not run)(?: \(.*\))?$")
LISTED_RE = re.compile(r"^\s{4}\[[^\]]+\] › \S.*?─*$|^\s{4}\S+\.(?:spec|test)\.[cm]?[jt]sx?:\d+:\d+ › ")
CODE_RE = re.compile(r"^\s*(>?)\s*\d+ \|")
CARET_RE = re.compile(r"^\s+\|\s*\^?\s*$")
AT_RE = re.compile(r"^\s+at \S")
KEY_RE = re.compile(
    r"^\s+(?:Locator|Expected|Received|Timeout|Expected pattern|Received string|Expected string|Call log)\b[^:]*:"
)
CALL_LOG_RE = re.compile(r"^\s+Call log:$")
POINTER_RE = re.compile(r"^\s+(?:Error Context:|attachment #\d+:|test-results/|Usage:)")

MESSAGE_HEAD = 12
MESSAGE_TAIL = 3
CALL_LOG_HEAD = 3
CALL_LOG_TAIL = 3
MAX_FRAMES = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    has_blocks = any(HEADER_RE.match(ln) and "›" in ln for ln in lines)
    saw = False
    in_call_log = False
    listing: str | None = None
    block_lines: set[str] = set()  # what this failure printed (retries repeat it)
    retry = False
    seen_frames: set[str] = set()
    call_log = Run(b, CALL_LOG_HEAD, CALL_LOG_TAIL, "call log")
    fail = Failure(b, Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message"), call_log, max_frames=MAX_FRAMES)
    flush = fail.flush

    for i, line in enumerate(lines):
        if RUNNING_RE.match(line):
            saw = True
            b.drop(i, "header")
            continue
        s = SUMMARY_RE.match(line)
        if s:
            fail.close()
            saw = True
            listing = s.group(2)
            b.headline_from(i, line.strip())
            b.facts[s.group(2)] = int(s.group(1))
            continue
        if listing is not None and LISTED_RE.match(line):
            # Tests listed under `N failed` had their block above; flaky ones did not fail.
            if listing == "failed" and has_blocks:
                b.drop(i, "repeated failures")
            else:
                b.keep(i, protect=listing in ("failed", "flaky", "interrupted"), text=line.strip().rstrip("─ "))
            continue
        h = HEADER_RE.match(line)
        if h and "›" in line:
            saw = True
            in_call_log = False
            retry = False
            block_lines = set()
            fail.start(i, h.group(1))
            continue
        rt = RETRY_RE.match(line)
        if rt and fail.open:
            flush()
            retry = True
            in_call_log = False
            b.keep(i, text=f"  {rt.group(1)}")
            continue
        if fail.open and LINE_PROGRESS_RE.match(line):
            # The line reporter's next test: the block is over.
            fail.close()
        if not fail.open:
            if LIST_LINE_RE.match(line):
                saw = True
                mark = LIST_LINE_RE.match(line).group(1)  # type: ignore[union-attr]
                if mark in "✘×" and not has_blocks:
                    b.keep(i, protect=True)
                else:
                    b.drop(i, {"✓": "passed", "✔": "passed", "-": "skipped"}.get(mark, "status lines"))
                continue
            if LINE_PROGRESS_RE.match(line) or DOTS_RE.match(line.strip()):
                saw = True
                b.drop(i, "progress")
                continue
            if not line.strip():
                b.drop(i, "blank")
                continue
            b.keep(i)
            continue

        # Inside a failure block.
        if not line.strip():
            flush()
            in_call_log = False
            b.drop(i, "blank")
            continue
        key = line.strip()
        if CALL_LOG_RE.match(line):
            in_call_log = True
        if retry and (key in block_lines or in_call_log or POINTER_RE.match(line)):
            # A retry mostly repeats the first attempt; only a different error is news.
            b.drop(i, "repeated retry")
            continue
        block_lines.add(key)
        if CALL_LOG_RE.match(line):
            fail.message.flush()
            b.keep(i)
            continue
        if in_call_log:
            call_log.add(i)
            continue
        c = CODE_RE.match(line)
        if c:
            fail.message.flush()
            if c.group(1):
                b.keep(i)
            else:
                b.drop(i, "code frames")
            continue
        if CARET_RE.match(line):
            b.drop(i, "code frames")
            continue
        if AT_RE.match(line):
            again = "repeated frames" if key in seen_frames else ""
            if fail.frame(i, library=not js_frame_useful(line), repeated=again):
                seen_frames.add(key)
            continue
        if not fail.first and (KEY_RE.match(line) or POINTER_RE.match(line)):
            fail.message.flush()
            b.keep(i, protect=line.lstrip().startswith(("Expected", "Received")))
            continue
        fail.message_line(i)
    flush()
    if not saw:
        return None
    return b.build(final=True)
