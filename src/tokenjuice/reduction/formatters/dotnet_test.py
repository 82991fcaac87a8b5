"""dotnet test (VSTest console logger, any verbosity): failed tests and the totals.

`Failed Name [t]` lines keep their error message (the `Error Message:` label goes),
up to three project stack frames (System/Microsoft/xUnit/NUnit/MSTest frames go) and
a head/tail of `Standard Output Messages`. Restore/build lines, the test-host banner,
`Passed`/`Skipped` lines and adapter chatter (`[xUnit.net …]`) go; compiler errors
stay. The `Failed!/Passed! - Failed: …` line (or the detailed `Total tests:` block)
becomes the facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder, lazy_end
from tokenjuice.reduction.formatters._testrun import Failure, Run, add_counts

BANNER_RE = re.compile(
    r"^\s*(?:Determining projects to restore|All projects are up-to-date|Restored \S|Restore complete|"
    r"\S+ -> \S+\.dll$|Test run for \S|Microsoft \(R\) Test Execution|Copyright \(c\) Microsoft|"
    r"Starting test execution|A total of \d+ test files? matched|Build started|Build succeeded|"
    r"\d+ Warning\(s\)|\d+ Error\(s\)|Time Elapsed|Results File:|Test run in progress)"
)
ADAPTER_RE = re.compile(r"^\[(?:xUnit\.net|NUnit|MSTest)[^\]]*\]")
# What `RESULT_HEAD_RE` with `_name` and `FRAME_HEAD_RE` with `_frame` read (a test holds
# them to these): a lazy name tried the optional ending after every character.
RESULT_RE = re.compile(r"^\s+(Passed|Failed|Skipped|NotRun)\s+(\S.*?)(?:\s+\[[^\]]*\])?$")
RESULT_HEAD_RE = re.compile(r"^\s+(Passed|Failed|Skipped|NotRun)\s+(?=\S)")
DURATION_RE = re.compile(r"\s+\[[^\]]*\]$")  # ` [12 ms]` ending a result line
LABEL_RE = re.compile(r"^\s+(Error Message|Stack Trace|Standard Output Messages|Standard Error Messages|Debug Trace):$")
FRAME_RE = re.compile(r"^\s+at (\S.*?)(?: in (\S.*:line \d+))?$")
FRAME_HEAD_RE = re.compile(r"^\s+at (?=\S)")
SOURCE_RE = re.compile(r" in \S.*:line \d+$")  # ` in /src/A.cs:line 12` ending a frame
FRAMEWORK_RE = re.compile(r"^(?:System\.|Microsoft\.|Xunit\.|NUnit\.|MSTest\.|Castle\.|Moq\.|lambda_method)")
SUMMARY_RE = re.compile(r"^(Failed!|Passed!|Skipped!)\s+-\s+(Failed:.*)$")
SUMMARY_COUNT_RE = re.compile(r"(Failed|Passed|Skipped|Total):\s+(\d+)")
DETAILED_RE = re.compile(
    r"^\s*(Test Run (?:Successful|Failed|Aborted)\.|Total tests: \d+|(?:Passed|Failed|Skipped): \d+|Total time: .*)$"
)
COMPILE_RE = re.compile(r": (?:error|warning) [A-Z]+\d+: ")

MESSAGE_HEAD = 10
MESSAGE_TAIL = 3
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3
MAX_FRAMES = 3


def _name(head: re.Match[str]) -> str:
    """The test name on a result line, without its duration."""
    return head.string[head.end() : lazy_end(head, DURATION_RE)]


def _frame(head: re.Match[str]) -> str:
    """The method of a stack frame line, without its source location."""
    return head.string[head.end() : lazy_end(head, SOURCE_RE)]


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    saw = False
    label: str | None = None
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")
    fail = Failure(b, Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message"), output, max_frames=MAX_FRAMES)
    flush = fail.flush

    for i, line in enumerate(lines):
        s = SUMMARY_RE.match(line.strip())
        if s:
            flush()
            saw = True
            label = None
            b.headline_from(i, re.sub(r"\s+", " ", line.strip()))
            add_counts(b.facts, [(n, k) for k, n in SUMMARY_COUNT_RE.findall(s.group(2))])
            continue
        dt = DETAILED_RE.match(line)
        if dt and not RESULT_HEAD_RE.match(line):
            flush()
            saw = True
            label = None
            text = dt.group(1)
            if text.startswith("Total time"):
                b.drop(i, "timing")
            else:
                b.headline_from(i, text)
                m = re.match(r"(Total tests|Passed|Failed|Skipped): (\d+)", text)
                if m:
                    key = "tests" if m.group(1) == "Total tests" else m.group(1).lower()
                    b.facts[key] = int(m.group(2))
            continue
        if BANNER_RE.match(line):
            saw = True
            b.drop(i, "build and banner")
            continue
        if ADAPTER_RE.match(line):
            b.drop(i, "adapter output")
            continue
        r = RESULT_HEAD_RE.match(line)
        if r:
            flush()
            saw = True
            label = None
            status = r.group(1)
            if status == "Failed":
                b.keep(i, protect=True, text=f"Failed {_name(r)}")
            else:
                b.drop(i, "passed" if status == "Passed" else "skipped")
            continue
        lb = LABEL_RE.match(line)
        if lb:
            label = lb.group(1)
            fail.start()  # each labelled part afresh: its first message line, its frames
            if label.startswith("Standard"):
                b.keep(i, text=f"  {label}:")
            else:
                b.drop(i, "labels")
            continue
        if label == "Stack Trace":
            f = FRAME_HEAD_RE.match(line)
            if f:
                fail.frame(i, library=FRAMEWORK_RE.match(_frame(f)) is not None, cap="library frames")
                continue
            label = None
        if label == "Error Message":
            if not line.strip():
                fail.message.flush()
                b.drop(i, "blank")
            else:
                fail.message_line(i)
            continue
        if label and label.startswith("Standard"):
            if line.strip():
                output.add(i)
            else:
                output.flush()
                b.drop(i, "blank")
            continue
        if not line.strip():
            b.drop(i, "blank")
            continue
        b.keep(i, protect=COMPILE_RE.search(line) is not None)
    flush()
    if not saw:
        return None
    return b.build(final=True)
