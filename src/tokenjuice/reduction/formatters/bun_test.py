"""bun test: the error blocks before each `(fail)` line, and the counts.

Bun prints a failure's code frame, error, diff and stack, then `(fail) suite > test`.
Kept: the source line the caret points at, the error line, Expected/Received and the
diff head, project stack frames, the `(fail)` line. Dropped: the rest of the code
frame, frames outside the project, a code frame repeated by `test.each`, `(pass)`/
`(skip)`/`(todo)` lines, file headers, and the closing lists of skipped/todo/failed
tests (the failures were already shown). The `N pass / N fail / Ran N tests` lines
become the facts line; output the tests printed keeps a head and tail.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Failure, Run, js_frame_useful

HEADER_RE = re.compile(r"^bun test v\d")
FILE_RE = re.compile(r"^\S+\.(?:[cm]?[jt]sx?):$")
STATUS_RE = re.compile(r"^\((pass|fail|skip|todo)\) (.*?)(?: \[[\d.]+m?s\])?$")  # what `_status` reads
_STATUS_HEAD_RE = re.compile(r"\((pass|fail|skip|todo)\) ")
_TIME_RE = re.compile(r" \[[\d.]+m?s\]")
FRAME_RE = re.compile(r"^\s*\d+ \|(?: |$)")
CARET_RE = re.compile(r"^\s+\^\s*$")
ERROR_RE = re.compile(r"^(?:error|[A-Z]\w*(?:Error|Exception)|panic)(?:\s*\([^)]*\))?: ")
AT_RE = re.compile(r"^\s+at \S")
COUNT_RE = re.compile(r"^\s*(\d+) (pass|fail|skip|todo|snapshots?|expect\(\) calls?|errors?)$")
RAN_RE = re.compile(r"^Ran (\d+) tests? across (\d+) files?\.")
LIST_RE = re.compile(r"^\s*(\d+) tests? (skipped|todo|failed):$")

MESSAGE_HEAD = 12
MESSAGE_TAIL = 3
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3
MAX_FRAMES = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    n = len(lines)
    saw = False
    in_list: str | None = None  # the closing list being read
    seen_source: set[str] = set()
    seen_frames: set[str] = set()
    shown_fail: set[str] = set()
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")
    # Open between an error line and the (fail) line that closes the test.
    fail = Failure(b, Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message"), output, max_frames=MAX_FRAMES)
    flush = fail.flush

    for i, line in enumerate(lines):
        if HEADER_RE.match(line):
            saw = True
            b.drop(i, "header")
            continue
        c = COUNT_RE.match(line)
        if c:
            flush()
            saw = True
            in_list = None
            word = c.group(2)
            if word.startswith("expect") or c.group(1) == "0":
                b.drop(i, "summary")
            else:
                b.headline_from(i, f"{c.group(1)} {word}")
                b.facts[word] = int(c.group(1))
            continue
        r = RAN_RE.match(line)
        if r:
            flush()
            b.headline_from(i, line.split(" [", 1)[0].rstrip("."))
            b.facts["tests"] = int(r.group(1))
            continue
        lst = LIST_RE.match(line)
        if lst:
            flush()
            in_list = lst.group(2)
            b.drop(i, "closing lists")
            continue
        st = _status(line)
        if st:
            fail.close()
            saw = True
            kind, name = st
            if kind == "fail":
                if in_list == "failed" and name in shown_fail:
                    b.drop(i, "closing lists")
                else:
                    shown_fail.add(name)
                    b.keep(i, protect=True, text=f"(fail) {name}")
            else:
                b.drop(i, "closing lists" if in_list else ("passed" if kind == "pass" else kind))
            continue
        if FILE_RE.match(line):
            flush()
            in_list = None
            b.drop(i, "file headers")
            continue
        if FRAME_RE.match(line):
            flush()
            points = i + 1 < n and CARET_RE.match(lines[i + 1]) is not None
            if points:
                key = line.strip()
                fail.repeated = key in seen_source
                seen_source.add(key)
                if fail.repeated:
                    b.drop(i, "repeated code frames")
                else:
                    b.keep(i)
            else:
                b.drop(i, "code frames")
            continue
        if CARET_RE.match(line):
            b.drop(i, "code frames")
            continue
        if ERROR_RE.match(line):
            saw = True
            fail.error(i)
            continue
        if AT_RE.match(line):
            frame = line.strip()
            again = "repeated frames" if fail.repeated or frame in seen_frames else ""
            if fail.frame(i, library=not js_frame_useful(frame), repeated=again):
                seen_frames.add(frame)
            continue
        if not line.strip():
            fail.message.flush()
            b.drop(i, "blank")
            continue
        if fail.open:
            fail.message_line(i)
            continue
        output.add(i)
    flush()
    if not saw:
        return None
    return b.build(final=True)


def _status(line: str) -> tuple[str, str] | None:
    """`STATUS_RE.match(line)`'s status and test name. The pattern's lazy name tries the
    time suffix after every character (most lines of a run are `(pass)` lines); here the
    suffix is looked for once, at the last ` [` (no ` [` can follow the one it starts at)."""
    m = _STATUS_HEAD_RE.match(line)
    if m is None:
        return None
    name = line[m.end() :]
    if name.endswith("s]"):
        k = name.rfind(" [")
        if k >= 0 and _TIME_RE.fullmatch(name, k):
            name = name[:k]
    return m.group(1), name
