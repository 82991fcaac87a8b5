"""node --test (TAP, the default without a TTY, and the spec reporter).

TAP: `not ok` lines keep their location and error lines (the `error: |-` block) and
project stack frames; `ok` lines, `# Subtest:` headers, YAML details of passing tests,
durations, error codes, expected/actual dumps and node internals go. Spec: the
`✖ failing tests:` section keeps each failure's `test at file:line:col`, name, error
lines and project frames; the tree above it (which repeats every failure inline) and
the error property dumps go. `# tests/pass/fail …` (`ℹ …`) become the facts line;
output the tests printed (`# …` TAP comments) keeps a head and tail.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Failure, Run, js_frame_useful

# TAP
TAP_VERSION_RE = re.compile(r"^TAP version \d+$")
SUBTEST_RE = re.compile(r"^\s*# Subtest: ")
OK_RE = re.compile(r"^\s*ok \d+ - ")
NOT_OK_RE = re.compile(r"^\s*not ok \d+ - (.*)$")
PLAN_RE = re.compile(r"^\s*1\.\.\d+$")
YAML_START_RE = re.compile(r"^\s*---$")
YAML_END_RE = re.compile(r"^\s*\.\.\.$")
YAML_KEY_RE = re.compile(r"^(\s*)(\w+):(?: (.*))?$")
COUNTER_RE = re.compile(r"^(?:# |ℹ )(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d[\d.]*)$")
TAP_COMMENT_RE = re.compile(r"^\s*# ")
# spec
SUITE_RE = re.compile(r"^\s*▶ ")
PASS_RE = re.compile(r"^\s*✔ ")
SKIP_RE = re.compile(r"^\s*﹣ ")
FAIL_RE = re.compile(r"^(\s*)✖ (.*)$")
FAILING_SECTION_RE = re.compile(r"^✖ failing tests:$")
TEST_AT_RE = re.compile(r"^\s*test at \S+:\d+:\d+$")
AT_RE = re.compile(r"^\s+at \S")
PROP_RE = re.compile(r"^\s+(?:generatedMessage|code|actual|expected|operator|failureType|cause):")

MESSAGE_HEAD = 10
MESSAGE_TAIL = 3
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3
MAX_FRAMES = 3
KEEP_YAML = {"location"}


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if any(TAP_VERSION_RE.match(ln) for ln in lines[:50]):
        return _tap(fi)
    if any(COUNTER_RE.match(ln) for ln in lines) or any(FAILING_SECTION_RE.match(ln) for ln in lines):
        return _spec(fi)
    return None


def _counter(b: Builder, i: int, key: str, value: str) -> None:
    if key in ("suites", "duration_ms") or value == "0":
        b.drop(i, "summary")
        return
    b.headline_from(i, f"{key} {value}")
    b.facts[key] = int(value)


def _tap(fi: FormatInput) -> FormatOutput:
    lines = fi.lines
    b = Builder(lines, fi.weights)
    yaml: str | None = None  # "pass" or "fail" while inside a YAML block
    block_key: str | None = None  # the multi-line YAML key being read
    key_indent = 0
    frames = 0
    seen_frames: set[str] = set()
    first_error = False
    message = Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message")
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")
    last_result = "pass"

    for i, line in enumerate(lines):
        if yaml is not None:
            if YAML_END_RE.match(line):
                message.flush()
                yaml = None
                block_key = None
                b.drop(i, "details")
                continue
            if yaml == "pass":
                b.drop(i, "passed")
                continue
            k = YAML_KEY_RE.match(line)
            indent = len(line) - len(line.lstrip())
            if block_key is not None and (not line.strip() or indent > key_indent):
                if block_key == "error":
                    if not line.strip():
                        b.drop(i, "blank")
                    elif first_error:
                        first_error = False
                        b.keep(i, protect=True, text=line.strip())
                    else:
                        message.add(i)
                elif block_key == "stack":
                    frame = line.strip()
                    if not js_frame_useful(frame):
                        b.drop(i, "library frames")
                    elif frame in seen_frames or frames >= MAX_FRAMES:
                        b.drop(i, "repeated frames" if frame in seen_frames else "stack frames")
                    else:
                        seen_frames.add(frame)
                        frames += 1
                        b.keep(i, text=f"    at {frame}")
                else:
                    b.drop(i, "details")
                continue
            message.flush()
            block_key = None
            if k:
                key, value = k.group(2), (k.group(3) or "").strip()
                key_indent = len(k.group(1))
                if value in ("|-", "|", ">-", ">") or not value:
                    block_key = key
                    first_error = key == "error"
                    b.drop(i, "details")
                elif key in KEEP_YAML or key == "error":
                    b.keep(i, protect=True, text=f"  {key}: {value}")
                else:
                    b.drop(i, "details")
            else:
                b.drop(i, "details")
            continue

        if YAML_START_RE.match(line):
            output.flush()
            yaml = last_result
            block_key = None
            frames = 0
            b.drop(i, "details" if yaml == "fail" else "passed")
            continue
        c = COUNTER_RE.match(line)
        if c:
            output.flush()
            _counter(b, i, c.group(1), c.group(2))
            continue
        if TAP_VERSION_RE.match(line) or PLAN_RE.match(line):
            b.drop(i, "header")
            continue
        if SUBTEST_RE.match(line):
            output.flush()
            b.drop(i, "subtest headers")
            continue
        nok = NOT_OK_RE.match(line)
        if nok:
            output.flush()
            if "# TODO" in nok.group(1):
                last_result = "pass"
                b.drop(i, "todo")
            else:
                last_result = "fail"
                b.keep(i, protect=True, text=line.strip())
            continue
        if OK_RE.match(line):
            output.flush()
            last_result = "pass"
            b.drop(i, "skipped" if "# SKIP" in line else "passed")
            continue
        if TAP_COMMENT_RE.match(line):
            output.add(i)  # diagnostics: what the tests printed
            continue
        if not line.strip():
            b.drop(i, "blank")
            continue
        output.add(i)
    message.flush()
    output.flush()
    return b.build(final=True)


def _spec(fi: FormatInput) -> FormatOutput:
    lines = fi.lines
    b = Builder(lines, fi.weights)
    has_section = any(FAILING_SECTION_RE.match(ln) for ln in lines)
    in_section = False
    in_inline_failure = False  # details under a ✖ in the tree
    fail_indent = 0
    seen_frames: set[str] = set()
    message = Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message")
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")
    fail = Failure(b, message, max_frames=MAX_FRAMES)

    for i, line in enumerate(lines):
        c = COUNTER_RE.match(line)
        if c:
            output.flush()
            message.flush()
            in_inline_failure = False
            _counter(b, i, c.group(1), c.group(2))
            continue
        if FAILING_SECTION_RE.match(line):
            output.flush()
            in_section = True
            b.drop(i, "section headers")
            continue
        indent = len(line) - len(line.lstrip())
        if not in_section:
            if in_inline_failure and (not line.strip() or indent > fail_indent):
                if has_section:
                    b.drop(i, "repeated failures")
                    continue
                # No summary section (older node): these are the only details.
                _detail(b, i, line, message, seen_frames)
                continue
            in_inline_failure = False
            message.flush()
            f = FAIL_RE.match(line)
            if f:
                output.flush()
                in_inline_failure = True
                fail_indent = len(f.group(1))
                if has_section:
                    b.drop(i, "status lines")
                else:
                    b.keep(i, protect=True)
                continue
            if PASS_RE.match(line) or SUITE_RE.match(line):
                output.flush()
                b.drop(i, "passed" if PASS_RE.match(line) else "suite names")
                continue
            if SKIP_RE.match(line):
                output.flush()
                b.drop(i, "skipped")
                continue
            if not line.strip():
                output.flush()
                b.drop(i, "blank")
                continue
            output.add(i)
            continue

        # The failing-tests section.
        if TEST_AT_RE.match(line):
            message.flush()
            b.keep(i, protect=True, text=line.strip())
            continue
        f = FAIL_RE.match(line)
        if f and indent == 0:
            fail.start(i)
            continue
        if not line.strip():
            message.flush()
            b.drop(i, "blank")
            continue
        if fail.first:
            fail.message_line(i, text=line.strip())
            continue
        if AT_RE.match(line):
            frame = line.strip().removesuffix(" {").rstrip(",")
            again = "repeated frames" if frame in seen_frames else ""
            if fail.frame(i, library=not js_frame_useful(frame), repeated=again, text=f"    {frame}"):
                seen_frames.add(frame)
            continue
        if PROP_RE.match(line) or line.strip() in ("}", "},"):
            message.flush()
            b.drop(i, "error properties")
            continue
        fail.message_line(i)
    message.flush()
    output.flush()
    return b.build(final=True)


def _detail(b: Builder, i: int, line: str, message: Run, seen_frames: set[str]) -> None:
    """A detail line of an inline failure (spec reporter without a summary section)."""
    if not line.strip():
        b.drop(i, "blank")
    elif AT_RE.match(line):
        message.flush()
        frame = line.strip().removesuffix(" {")
        if not js_frame_useful(frame) or frame in seen_frames:
            b.drop(i, "library frames" if not js_frame_useful(frame) else "repeated frames")
        else:
            seen_frames.add(frame)
            b.keep(i)
    elif PROP_RE.match(line) or line.strip() == "}":
        b.drop(i, "error properties")
    else:
        message.add(i)
