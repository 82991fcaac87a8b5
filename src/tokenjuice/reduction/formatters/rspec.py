"""rspec (progress and documentation formatters): the Failures section and counts.

Each numbered failure keeps its description, the `Failure/Error:` source line, the
expected/got (or exception) lines and up to three project backtrace lines (gem and
ruby frames go); a Failure/Error line and backtrace repeated by examples sharing one
line of code are shown once. The `rspec ./spec/x_spec.rb:12 # …` rerun lines stay.
Progress dots, the documentation tree, the Pending section, carets and timing go;
`N examples, M failures` becomes the facts line. Load errors keep their message.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Failure, Run, add_counts, is_vendor

PROGRESS_RE = re.compile(r"^[.FE*]+")
SECTION_RE = re.compile(r"^(Pending|Failures|Failed examples):")
NUMBERED_RE = re.compile(r"^\s{2}(\d+)\) (\S.*)$")
FAILURE_ERROR_RE = re.compile(r"^\s+Failure/Error: ")
BACKTRACE_RE = re.compile(r"^\s+# (\S+:\d+)(?::in .*)?$")
CARET_RE = re.compile(r"^\s+\^+\s*$")
RERUN_RE = re.compile(r"^rspec (\S+) # ")
SUMMARY_RE = re.compile(
    r"^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?$"
)
FINISHED_RE = re.compile(r"^Finished in [\d.]+ seconds")
LOAD_ERROR_RE = re.compile(r"^An error occurred (?:while loading|in a `\w+\(:\w+\)` hook)")
SEED_RE = re.compile(r"^Randomized with seed \d+")
COMPARED_RE = re.compile(r"^\s+\(compared using \S+\)$")

MESSAGE_HEAD = 10
MESSAGE_TAIL = 3
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3
MAX_FRAMES = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    saw = False
    section: str | None = None  # "tree", "pending", "failures", "failed", "load"
    seen_code: set[str] = set()
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")
    fail = Failure(b, Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message"), output, max_frames=MAX_FRAMES)
    flush = fail.flush

    for i, line in enumerate(lines):
        s = SUMMARY_RE.match(line)
        if s:
            flush()
            saw = True
            section = "after"
            b.headline_from(i, line)
            pairs = [(s.group(1), "examples"), (s.group(2), "failures"), (s.group(3) or "0", "pending")]
            if s.group(4):
                pairs.append((s.group(4), "errors outside examples"))
            add_counts(b.facts, pairs)
            continue
        if FINISHED_RE.match(line) or SEED_RE.match(line):
            flush()
            b.drop(i, "timing")
            continue
        sec = SECTION_RE.match(line)
        if sec:
            flush()
            saw = True
            section = {"Pending": "pending", "Failures": "failures", "Failed examples": "failed"}[sec.group(1)]
            b.drop(i, "pending" if section == "pending" else "section headers")
            continue
        if LOAD_ERROR_RE.match(line):
            saw = True
            section = "load"
            fail.start(i)
            continue
        if section == "pending":
            b.drop(i, "pending")
            continue
        if section == "failed":
            if RERUN_RE.match(line):
                b.keep(i, protect=True)
            else:
                b.drop(i, "blank")
            continue
        if section in ("failures", "load"):
            num = NUMBERED_RE.match(line)
            if num and section == "failures":
                fail.start(i, f"{num.group(1)}) {num.group(2)}")
                continue
            if FAILURE_ERROR_RE.match(line):
                fail.message.flush()
                key = line.strip()
                fail.repeated = key in seen_code
                seen_code.add(key)
                if fail.repeated:
                    b.drop(i, "repeated code")
                else:
                    b.keep(i)
                continue
            bt = BACKTRACE_RE.match(line)
            if bt:
                again = "repeated code" if fail.repeated else ""
                fail.frame(i, library=is_vendor(line) and not again, repeated=again, cap="library frames")
                continue
            if not line.strip() or CARET_RE.match(line) or COMPARED_RE.match(line):
                fail.message.flush()
                b.drop(i, "blank" if not line.strip() else "carets")
                continue
            fail.message_line(i)
            continue

        # Before the sections: progress dots / the documentation tree, and test output.
        p = PROGRESS_RE.match(line)
        if p:
            saw = True
            rest = line[p.end() :]
            if rest.strip():
                output.flush()
                b.keep(i, text=rest)  # output glued to the dots
            else:
                b.drop(i, "progress")
            continue
        if not line.strip():
            output.flush()
            b.drop(i, "blank")
            continue
        if line.startswith(" ") or (section is None and _is_group(lines, i)):
            saw = True
            output.flush()
            b.drop(i, "example tree")
            continue
        if section == "after":
            b.keep(i)
            continue
        output.add(i)
    flush()
    if not saw:
        return None
    return b.build(final=True)


def _is_group(lines: list[str], i: int) -> bool:
    """A top-level group name of the documentation tree: its next line is indented."""
    return i + 1 < len(lines) and lines[i + 1].startswith("  ") and not lines[i].startswith(("#", "rspec "))
