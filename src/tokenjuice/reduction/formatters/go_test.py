"""go test (plain and -v): failing tests with their messages, failing packages, panics.

`--- FAIL: TestX` lines keep the `x_test.go:N: message` lines their test wrote (with
-v those are printed under `=== RUN` before the verdict: they are attached to the
verdict here); output of passing tests, `=== RUN/PAUSE/CONT/NAME`, `--- PASS/SKIP`,
`ok pkg` and `[no test files]` lines go. A panic keeps its message and the project
frames of its goroutine trace (runtime/testing frames go). Compiler errors of a
package that does not build stay. The package verdicts become the facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Run, is_vendor

EVENT_RE = re.compile(r"^=== (RUN|PAUSE|CONT|NAME)\s+(\S+)")
VERDICT_RE = re.compile(r"^(\s*)--- (FAIL|PASS|SKIP): (\S+) \([\d.]+s\)$")
OK_PKG_RE = re.compile(r"^ok\s+(\S+)\s")
NO_TESTS_RE = re.compile(r"^\?\s+\S+\s+\[no test files\]$")
FAIL_PKG_RE = re.compile(r"^FAIL\s+(\S+)(?:\s+\[(build failed|setup failed)\]|\s+[\d.]+s)?$")
FINAL_RE = re.compile(r"^(PASS|FAIL)$")
PANIC_RE = re.compile(r"^\s*panic: ")
GOROUTINE_RE = re.compile(r"^goroutine \d+ \[")
TRACE_FILE_RE = re.compile(r"^\t(\S+\.go):\d+(?: \+0x[0-9a-f]+)?$")
TRACE_FUNC_RE = re.compile(r"^(?:created by )?[\w./*()\[\]-]+\(.*\)$|^created by \S+")
PKG_HEADER_RE = re.compile(r"^# \S+")
COMPILE_RE = re.compile(r"^\S+\.go:\d+:\d+: ")
EXIT_RE = re.compile(r"^exit status \d+$")
GO_STD_RE = re.compile(r"^(?:testing|runtime|reflect|created by testing)\.|/src/(?:testing|runtime|reflect)/")

MESSAGE_HEAD = 10
MESSAGE_TAIL = 3
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    n = len(lines)
    saw = False
    verbose = any(EVENT_RE.match(ln) for ln in lines[:2000])
    pending: dict[str, list[int]] = {}  # -v: lines a test printed, awaiting its verdict
    current: str | None = None
    after_fail = False  # plain mode: indented lines after a FAIL verdict are its messages
    in_trace = False
    ok_pkgs = 0
    failed_pkgs = 0
    build_failed = 0
    failed_tests = 0
    final_line = -1
    for i in range(n - 1, -1, -1):
        if FINAL_RE.match(lines[i]):
            final_line = i
            break
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")

    def emit(idxs: list[int]) -> None:
        run = Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message")
        for j in idxs:
            run.add(j)
        run.flush()

    for i, line in enumerate(lines):
        e = EVENT_RE.match(line)
        if e:
            output.flush()
            saw = True
            current = e.group(2)
            after_fail = False
            b.drop(i, "progress")
            continue
        v = VERDICT_RE.match(line)
        if v:
            output.flush()
            saw = True
            status, name = v.group(2), v.group(3)
            buffered = pending.pop(name, [])
            if status == "FAIL":
                failed_tests += 1
                b.keep(i, protect=True)
                emit(buffered)
                after_fail = True
            else:
                b.drop(i, "passed" if status == "PASS" else "skipped")
                for j in buffered:
                    b.drop(j, "passing output")
                after_fail = False
            if current == name:
                current = None
            continue
        if OK_PKG_RE.match(line) or NO_TESTS_RE.match(line):
            output.flush()
            saw = True
            ok_pkgs += OK_PKG_RE.match(line) is not None
            b.drop(i, "passed packages")
            after_fail = in_trace = False
            current = None
            continue
        fp = FAIL_PKG_RE.match(line)
        if fp:
            output.flush()
            saw = True
            failed_pkgs += 1
            build_failed += fp.group(2) is not None
            b.keep(i, protect=True)
            after_fail = in_trace = False
            current = None
            continue
        if FINAL_RE.match(line):
            output.flush()
            if i != final_line:
                b.drop(i, "verdicts")  # -v prints PASS/FAIL per package; the last one is the headline
            continue
        if EXIT_RE.match(line):
            b.drop(i, "exit status")
            continue
        if PANIC_RE.match(line):
            output.flush()
            saw = True
            in_trace = True
            b.keep(i, protect=not line.startswith("\t"), text=line.strip())
            continue
        if in_trace:
            if _trace_line(b, i, line, lines[i + 1] if i + 1 < n else ""):
                continue
            in_trace = False
        if PKG_HEADER_RE.match(line) or COMPILE_RE.match(line):
            output.flush()
            saw = True
            b.keep(i, protect=COMPILE_RE.match(line) is not None)
            continue
        if not line.strip():
            b.drop(i, "blank")
            continue
        if verbose and current is not None and not after_fail:
            pending.setdefault(current, []).append(i)
            continue
        if after_fail and line.startswith(" "):
            emit([i])
            continue
        output.add(i)
    output.flush()
    for idxs in pending.values():
        # Output of tests that never got a verdict (a panic or timeout ended the run).
        emit(idxs)
    if not saw:
        return None
    _headline(b, lines, final_line, failed_pkgs, build_failed, ok_pkgs, failed_tests)
    b.facts.update({"failed packages": failed_pkgs, "ok packages": ok_pkgs, "failed tests": failed_tests})
    return b.build(final=True)


def _headline(
    b: Builder, lines: list[str], final_line: int, failed_pkgs: int, build_failed: int, ok_pkgs: int, failed_tests: int
) -> None:
    """The last package verdict (`ok`/`FAIL`) with the counts, or the counts alone."""
    parts = []
    if failed_pkgs:
        parts.append(f"{failed_pkgs} package{'s' if failed_pkgs != 1 else ''} failed")
        if build_failed:
            parts[-1] += f" ({build_failed} build failed)"
    if ok_pkgs:
        parts.append(f"{ok_pkgs} ok")
    if failed_tests:
        parts.append(f"{failed_tests} failed test{'s' if failed_tests != 1 else ''}")
    text = ", ".join(parts) or ("PASS" if final_line < 0 else lines[final_line])
    if final_line >= 0:
        b.headline_from(final_line, f"{lines[final_line]}: {text}" if parts else text)
    else:
        b.headline = text


def _trace_line(b: Builder, i: int, line: str, nxt: str) -> bool:
    """A line of a panic's goroutine trace (False: the trace is over): frames in the
    runtime, the testing package and dependencies go, the project's stay."""
    if GOROUTINE_RE.match(line) or not line.strip():
        b.drop(i, "goroutine trace")
        return True
    tf = TRACE_FILE_RE.match(line)
    if tf:
        if is_vendor(tf.group(1)) or GO_STD_RE.search(tf.group(1)):
            b.drop(i, "runtime frames")
        else:
            b.keep(i, protect=True)
        return True
    if TRACE_FUNC_RE.match(line):
        tf2 = TRACE_FILE_RE.match(nxt)
        std = GO_STD_RE.search(line) is not None or (
            tf2 is not None and (is_vendor(tf2.group(1)) or GO_STD_RE.search(tf2.group(1)) is not None)
        )
        if std:
            b.drop(i, "runtime frames")
        else:
            b.keep(i)
        return True
    return False
