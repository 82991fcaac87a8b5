"""ctest (plain, --output-on-failure, -V): failed tests with their output, and the counts.

`N/M Test #k: name ....***Failed` lines (also Exception/Timeout/Not Run) stay, without
the dot leaders, with a head and tail of the failing test's output; `Passed` lines,
`Start k:` lines, -V's configuration preamble and test-command lines, output of
passing tests, the closing FAILED/passed lists (repeats) and timing go. `N% tests
passed, M tests failed out of T` becomes the facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Run

RESULT_RE = re.compile(r"^\s*\d+/\d+ Test\s+#(\d+): (\S+) \.*\s*(\*{3})?(.+?)\s+([\d.]+ sec)$")
START_RE = re.compile(r"^\s*Start\s+\d+: ")
SUMMARY_RE = re.compile(r"^(\d+)% tests passed, (\d+) tests? failed out of (\d+)$")
PREFIXED_RE = re.compile(r"^(\d+): (.*)$")
PREAMBLE_RE = re.compile(
    r"^(?:UpdateCTestConfiguration|Parse Config|Constructing a list of tests|Done constructing|"
    r"Updating test list for fixtures|Added \d+ tests? to meet fixture|Checking test dependency graph|"
    r"test \d+$|Test project |Internal ctest changing into directory|Test command:|Working Directory:|"
    r"Test timeout computed|Environment variables:)"
)
LIST_HEAD_RE = re.compile(r"^The following tests (FAILED|passed|did not run):$")
LIST_ITEM_RE = re.compile(r"^\s+(?:\d+ - \S.*|\S+)$")
TIME_RE = re.compile(r"^Total Test time \(real\)")
LABEL_RE = re.compile(r"^(?:Label Time Summary:|Subproject Time Summary:)")

OUTPUT_HEAD = 10
OUTPUT_TAIL = 5


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    saw = False
    pending: dict[str, list[int]] = {}  # -V: a test's prefixed output, awaiting its result
    in_list: str | None = None
    after_failed = False  # --output-on-failure: the failing test's output follows its line
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")

    def emit(idxs: list[int]) -> None:
        run = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")
        for j in idxs:
            run.add(j)
        run.flush()

    for i, line in enumerate(lines):
        r = RESULT_RE.match(line)
        if r:
            output.flush()
            saw = True
            in_list = None
            num, name, status = r.group(1), r.group(2), r.group(4).strip()
            buffered = pending.pop(num, [])
            if status == "Passed" and not r.group(3):
                b.drop(i, "passed")
                for j in buffered:
                    b.drop(j, "passing output")
                after_failed = False
            else:
                b.keep(i, protect=True, text=f"Test #{num}: {name} ***{status} {r.group(5)}")
                emit(buffered)
                after_failed = True
            continue
        s = SUMMARY_RE.match(line)
        if s:
            output.flush()
            saw = True
            after_failed = False
            b.headline_from(i, line)
            b.facts.update({"failed": int(s.group(2)), "tests": int(s.group(3))})
            continue
        lh = LIST_HEAD_RE.match(line)
        if lh:
            output.flush()
            in_list = lh.group(1)
            after_failed = False
            b.drop(i, "repeated lists")
            continue
        if in_list and LIST_ITEM_RE.match(line):
            b.drop(i, "repeated lists")
            continue
        in_list = None
        if START_RE.match(line) or PREAMBLE_RE.match(line) or TIME_RE.match(line):
            b.drop(i, "progress")
            continue
        p = PREFIXED_RE.match(line)
        if p:
            saw = True
            if PREAMBLE_RE.match(p.group(2)):
                b.drop(i, "progress")
            else:
                pending.setdefault(p.group(1), []).append(i)
            continue
        if not line.strip():
            output.flush()
            b.drop(i, "blank")
            continue
        if after_failed:
            output.add(i)
            continue
        b.keep(i, protect=line.startswith("Errors while running CTest"))
    output.flush()
    for idxs in pending.values():
        emit(idxs)
    if not saw:
        return None
    return b.build(final=True)
