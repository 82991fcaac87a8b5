"""cargo nextest run: FAIL lines with their panic, not the PASS lines.

A failing test keeps its `FAIL [t] binary test` line, the `panicked at file:line:col`
line and panic message from its STDERR section, project backtrace frames, and a
head/tail of what it printed; the libtest boilerplate nextest captures in STDOUT
(`running 1 test`, `failures:`, `test result: …`), std frames, RUST_BACKTRACE hints,
PASS/SKIP lines, the start banner and the FAIL recap after the summary go. The
`Summary … N tests run: …` line becomes the facts line; SLOW, TIMEOUT, SIGSEGV, LEAK
and retry lines stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Run, RustPanic, add_counts

STATUS_RE = re.compile(r"^\s*([A-Z]+(?: [A-Z]+)*|TRY \d+ \w+)\s+\[\s*[>\d.]+s\]\s+(\S.*)$")
SECTION_RE = re.compile(r"^---? (STDOUT|STDERR):\s+(\S.*?)\s*---?$")
SUMMARY_RE = re.compile(r"^\s*Summary \[\s*[\d.]+s\]\s+(.*)$")
COUNT_RE = re.compile(r"(\d+) (passed|failed|skipped|timed out|flaky|leaky|tests run)")
BANNER_RE = re.compile(r"^\s*(?:Starting \d+ tests?|Nextest run ID |─+$|Compiling |Finished |Blocking |Downloaded )")
BOILERPLATE_RE = re.compile(
    r"^(?:running \d+ tests?|test .+ \.\.\. (?:FAILED|ok|ignored.*)|failures:|test result: .*|successes:|\s{4}\S+)$"
)

MESSAGE_HEAD = 8
MESSAGE_TAIL = 2
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3
MAX_FRAMES = 3
QUIET = ("PASS", "SKIP")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    saw = False
    after_summary = False
    section: str | None = None  # "STDOUT", "STDERR"
    message = Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message")
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")

    def flush() -> None:
        message.flush()
        output.flush()

    panic = RustPanic(b, message, MAX_FRAMES, flush)

    for i, line in enumerate(lines):
        s = SUMMARY_RE.match(line)
        if s:
            flush()
            saw = True
            section = panic.state = None
            after_summary = True
            b.headline_from(i, s.group(1))
            add_counts(b.facts, COUNT_RE.findall(s.group(1)), {"tests run": "tests"})
            continue
        st = STATUS_RE.match(line)
        if st:
            flush()
            saw = True
            section = panic.state = None
            status = st.group(1)
            if status in QUIET:
                b.drop(i, "passed" if status == "PASS" else "skipped")
            elif after_summary and status in ("FAIL", "SIGSEGV", "SIGABRT", "TIMEOUT", "LEAK", "FLAKY"):
                b.drop(i, "repeated failures")  # the recap after the summary
            else:
                b.keep(i, protect=status not in ("SLOW", "RETRY", "START"), text=f"{status} {st.group(2)}")
            continue
        sec = SECTION_RE.match(line)
        if sec:
            flush()
            section, panic.state = sec.group(1), None
            b.drop(i, "section headers")
            continue
        if BANNER_RE.match(line):
            b.drop(i, "progress")
            continue
        was_in_panic = panic.state is not None
        if panic.step(i, line):
            continue
        if was_in_panic:
            section = "STDERR"  # the test's own output goes on after its panic
        if not line.strip():
            b.drop(i, "blank")
            continue
        if section == "STDOUT" and BOILERPLATE_RE.match(line):
            b.drop(i, "libtest boilerplate")
            continue
        if section in ("STDOUT", "STDERR"):
            output.add(i)
            continue
        b.keep(i, protect=line.startswith("error"))
    flush()
    if not saw:
        return None
    return b.build(final=True)
