"""vitest run (default and verbose reporters): the FAIL blocks and the counts.

Each ` FAIL  file > suite > test` block keeps its error line, Expected/Received, the
head of its diff, its ` ❯ file:line:col` location and the failing source line (the
code-frame line the caret points at); node_modules locations and the rest of the code
frame go, and a location repeated by `test.each` is shown once. Passing/skipped lines,
per-file summaries, the `→ message` previews (repeated in the blocks), separators and
timing go; `stdout | …` output keeps a head and tail. `Test Files`/`Tests` become the
facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Failure, Run, add_counts, is_vendor

RUN_RE = re.compile(r"^\s*RUN\s+v\d")
SECTION_RE = re.compile(r"^⎯+\s*(.*?)\s*⎯+$")
SEPARATOR_RE = re.compile(r"^⎯+(?:\[\d+/\d+\]⎯*)?$")
FAIL_RE = re.compile(r"^\s*FAIL\s+(\S.*)$")
PASS_MARK_RE = re.compile(r"^\s*[✓✔]\s")
FAIL_MARK_RE = re.compile(r"^\s*[×✗✕]\s")
SKIP_MARK_RE = re.compile(r"^\s*[↓]\s")
FILE_SUMMARY_RE = re.compile(r"^\s*[❯✓×↓]\s+\S+\s+\(\d+ tests?\b")
PREVIEW_RE = re.compile(r"^\s+→\s")
OUTPUT_HEAD_RE = re.compile(r"^(stdout|stderr) \| (\S.*)$")
LOCATION_RE = re.compile(r"^\s*❯\s+(?:\S+\s+)?(\S+:\d+:\d+)")
FRAME_RE = re.compile(r"^\s+\d+\|")
CARET_RE = re.compile(r"^\s+\|\s*\^")
EXPECT_RE = re.compile(r"^(?:Expected|Received):\s")
SUMMARY_RE = re.compile(r"^\s*(Test Files|Tests|Errors|Snapshots|Type Errors)\s{2,}(\S.*)$")
TIMING_RE = re.compile(r"^\s*(?:Start at|Duration)\s{2,}")
COUNT_RE = re.compile(r"(\d+) (failed|passed|skipped|todo|errors?)")

MESSAGE_HEAD = 14
MESSAGE_TAIL = 4
OUTPUT_HEAD = 4
OUTPUT_TAIL = 4


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    has_details = any(FAIL_RE.match(ln) for ln in lines)
    saw = False
    block: str | None = None  # "failure" or "output"
    seen_locations: set[str] = set()
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")
    fail = Failure(b, Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message"), output)
    flush = fail.flush
    n = len(lines)

    for i, line in enumerate(lines):
        if RUN_RE.match(line):
            saw = True
            b.drop(i, "header")
            continue
        s = SUMMARY_RE.match(line)
        if s:
            flush()
            saw = True
            block = None
            b.headline_from(i, f"{s.group(1)}: {s.group(2)}")
            if s.group(1) == "Tests":
                add_counts(b.facts, COUNT_RE.findall(s.group(2)), {"error": "errors"})
            elif s.group(1) == "Test Files":
                failed = re.search(r"(\d+) failed", s.group(2))
                if failed:
                    b.facts["failed files"] = int(failed.group(1))
            continue
        if TIMING_RE.match(line):
            b.drop(i, "timing")
            continue
        if SEPARATOR_RE.match(line):
            flush()
            b.drop(i, "separators")
            continue
        sec = SECTION_RE.match(line)
        if sec:
            flush()
            block = None
            b.keep(i, text=f"== {sec.group(1)} ==")
            continue
        f = FAIL_RE.match(line)
        if f:
            saw = True
            block = "failure"
            fail.start(i, f"FAIL {f.group(1)}")
            continue
        o = OUTPUT_HEAD_RE.match(line)
        if o:
            flush()
            saw = True
            block = "output"
            b.keep(i)
            continue

        if block == "output":
            if not line.strip():
                output.flush()
                block = None
                b.drop(i, "blank")
            else:
                output.add(i)
            continue
        if block == "failure":
            if not line.strip():
                b.drop(i, "blank")
                continue
            loc = LOCATION_RE.match(line)
            if loc:
                fail.message.flush()
                if is_vendor(line):
                    b.drop(i, "library frames")
                elif loc.group(1) in seen_locations:
                    fail.repeated = True
                    b.drop(i, "repeated locations")
                else:
                    seen_locations.add(loc.group(1))
                    fail.repeated = False
                    b.keep(i, protect=True)
                continue
            if FRAME_RE.match(line) or CARET_RE.match(line):
                fail.message.flush()
                # Keep only the source line the caret points at.
                points = i + 1 < n and CARET_RE.match(lines[i + 1]) is not None
                if points and not fail.repeated and not CARET_RE.match(line):
                    b.keep(i)
                else:
                    b.drop(i, "repeated locations" if fail.repeated else "code frames")
                continue
            fail.message_line(i, protect=EXPECT_RE.match(line) is not None or line.startswith("Caused by:"))
            continue

        saw = _progress_line(b, i, line, has_details) or saw
    flush()
    if not saw:
        return None
    return b.build(final=True)


def _progress_line(b: Builder, i: int, line: str, has_details: bool) -> bool:
    """A line outside the blocks: the run's per-file summaries and per-test lines, or
    other output. True for a line that shows the output is a vitest run."""
    if PASS_MARK_RE.match(line) and not FILE_SUMMARY_RE.match(line):
        b.drop(i, "passed")
        return True
    if SKIP_MARK_RE.match(line) and not FILE_SUMMARY_RE.match(line):
        b.drop(i, "skipped")
        return False
    if FILE_SUMMARY_RE.match(line):
        if has_details or line.lstrip().startswith("✓"):
            b.drop(i, "file summaries")
        else:
            b.keep(i)
        return True
    if FAIL_MARK_RE.match(line) or PREVIEW_RE.match(line):
        if has_details:
            b.drop(i, "status lines")  # the FAIL block below repeats it
        else:
            b.keep(i, protect=True)
        return True
    if not line.strip():
        b.drop(i, "blank")
    else:
        b.keep(i)
    return False
