"""cargo test (libtest's pretty output, unit/integration/doc targets).

Each `---- name stdout ----` block keeps its `panicked at file:line:col` line, the
panic message (head of long ones), the project frames of a backtrace and a head/tail
of what the test printed; std/core/test-harness frames, `note: run with
RUST_BACKTRACE` hints and the repeated `failures:` name lists go. `test x ... ok`/
`ignored` lines, `running N tests`, Compiling/Finished/Running progress go. Failing
targets keep their `test result: FAILED …` line; the totals over all targets become
the facts line. Compiler errors (a test target that does not build) keep their
message and `-->` location, not the source snippet.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Run, RustPanic

PROGRESS_RE = re.compile(
    r"^\s*(?:Compiling|Finished|Running|Doc-tests|Blocking|Downloaded|Downloading|Updating|Locking|Fresh|Checking)\s"
)
RUNNING_RE = re.compile(r"^running \d+ tests?$")
# What `_status` reads (a test holds it to this): the lazy name tried the rest after every
# character.
STATUS_RE = re.compile(r"^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?|bench:.*)$")
STATUS_TAIL_RE = re.compile(r" \.\.\. (ok|FAILED|ignored(?:, .*)?|bench:.*)$")
BLOCK_RE = re.compile(r"^---- (.+) (stdout|stderr) ----$")
RESULT_RE = re.compile(
    r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out"
)
DIAG_RE = re.compile(r"^(?:error|warning)(?:\[\w+\])?: ")
ARROW_RE = re.compile(r"^\s*--> \S+:\d+:\d+")
SNIPPET_RE = re.compile(r"^\s*\d*\s*\|")
EXPLAIN_RE = re.compile(r"^For more information about (?:this|an) error")
TARGET_RE = re.compile(r"^\s+`--?[\w-]+(?: [\w-]+)?`$")

MESSAGE_HEAD = 8
MESSAGE_TAIL = 2
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3
MAX_FRAMES = 3


def _status(line: str) -> str | None:
    """The outcome on a `test name ... ok` line: after the leftmost ` ... ` that leads to
    one (the name is at least one character)."""
    st = STATUS_TAIL_RE.search(line, 6) if line.startswith("test ") else None
    return None if st is None else st.group(1)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    totals = [0, 0, 0]  # passed, failed, ignored
    targets = failed_targets = 0
    last_result = -1
    results = {i: r for i, r in enumerate(map(RESULT_RE.match, lines)) if r}
    for i, r in results.items():
        targets += 1
        failed_targets += r.group(1) == "FAILED"
        totals[0] += int(r.group(2))
        totals[1] += int(r.group(3))
        totals[2] += int(r.group(4))
        last_result = i
    saw = targets > 0
    section: str | None = None  # "details", "list", "block"
    message = Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message")
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")

    def flush() -> None:
        message.flush()
        output.flush()

    panic = RustPanic(b, message, MAX_FRAMES, flush)

    for i, line in enumerate(lines):
        if i in results:
            flush()
            section = panic.state = None
            if i == last_result:
                b.headline_from(i, _headline(totals, targets, failed_targets))
                b.facts.update({"passed": totals[0], "failed": totals[1], "ignored": totals[2]})
            elif r.group(1) == "FAILED" or targets == 1:
                b.keep(i, protect=True, text=_compact(line))
            else:
                b.drop(i, "passing targets")
            if i == last_result and r.group(1) == "FAILED" and targets > 1:
                b.keep(i, protect=True, text=_compact(line))
                b.weights[-1] = 0  # the headline already accounts for this line
            continue
        if line == "failures:":
            flush()
            panic.state = None
            section = "details" if _next_is_block(lines, i) else "list"
            b.drop(i, "section headers" if section == "details" else "repeated failures")
            continue
        if section == "list":
            if line.startswith("    ") and line.strip():
                b.drop(i, "repeated failures")
                continue
            section = None
        m = BLOCK_RE.match(line)
        if m:
            flush()
            saw = True
            section, panic.state = "block", None
            b.keep(i, protect=True, text=f"---- {m.group(1)} ----")
            continue
        was_in_panic = panic.state is not None
        if panic.step(i, line):
            saw = saw or panic.state == "panic"
            continue
        if was_in_panic:
            section = "block"  # the test's own output goes on after its panic
        if section == "block":
            if not line:
                b.drop(i, "blank")
            elif line in {"stderr:", "stdout:"}:
                b.drop(i, "section headers")
            elif line.startswith(("Test executable failed", "note: test did not panic")):
                output.flush()
                b.keep(i, protect=True)
            else:
                output.add(i)  # what the test printed before it failed
            continue

        # Outside failure details: progress, per-test lines, compiler diagnostics.
        if PROGRESS_RE.match(line) or RUNNING_RE.match(line):
            b.drop(i, "progress")
            continue
        status = _status(line)
        if status is not None:
            saw = True
            if status == "FAILED":
                b.drop(i, "status lines")  # its ---- block (or the rerun hint) follows
            else:
                b.drop(i, "passed" if status == "ok" else "ignored")
            continue
        if DIAG_RE.match(line):
            saw = True
            b.keep(i, protect=line.startswith("error"))
            continue
        if ARROW_RE.match(line):
            b.keep(i, protect=True)
            continue
        if SNIPPET_RE.match(line) or EXPLAIN_RE.match(line):
            b.drop(i, "source snippets")
            continue
        if TARGET_RE.match(line):
            b.keep(i)
            continue
        if not line.strip():
            b.drop(i, "blank")
            continue
        b.keep(i)
    flush()
    if not saw:
        return None
    return b.build(final=True)


def _next_is_block(lines: list[str], i: int) -> bool:
    for j in range(i + 1, min(i + 4, len(lines))):
        if lines[j]:
            return lines[j].startswith("---- ")
    return False


def _compact(line: str) -> str:
    """`test result: …` without the zero measured/filtered counts and the timing."""
    text = re.sub(r"; 0 (?:measured|filtered out)", "", line)
    return re.sub(r"; finished in [\d.]+s$", "", text)


def _headline(totals: list[int], targets: int, failed_targets: int) -> str:
    status = "FAILED" if totals[1] or failed_targets else "ok"
    text = f"test result: {status}. {totals[0]} passed; {totals[1]} failed; {totals[2]} ignored"
    if targets > 1:
        text += f" ({targets} targets" + (f", {failed_targets} failed)" if failed_targets else ")")
    return text
