"""mvn test / verify / install (surefire and failsafe): failing tests, not the build log.

Kept: each failing class's `Tests run: … <<< FAILURE!` line, each failing test's
`Class.method <<< FAILURE!/ERROR!` line with its exception line, `Caused by:` lines
and up to three project stack frames, the `Results:` section (Failures:/Errors: with
`Class.method:line message`), compiler errors, warnings, and the goal failure.
Dropped: the lifecycle log (scanning, plugin banners, resources, compiling), `Running`
and passing `Tests run:` lines per class, JUnit/JDK/maven frames, `... N more`, the
closing help boilerplate and timing. The final `Tests run:` totals (and BUILD
SUCCESS/FAILURE) become the facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Run, add_counts, is_vendor

LEVEL_RE = re.compile(r"^\[(INFO|WARNING|WARN|ERROR|DEBUG)\] ?(.*)$")
COUNTS_RE = re.compile(r"^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(.*)$")
CASE_RE = re.compile(r"^(\S+?)(?:\(.*?\))?(?:\[\d+\])?\s+(?:--\s+)?Time elapsed: [\d.,]+ s\s+<<< (FAILURE|ERROR)!$")
RUNNING_RE = re.compile(r"^Running \S+$")
AT_RE = re.compile(r"^\s+at \S")
MORE_RE = re.compile(r"^\s+\.\.\. \d+ (?:more|common frames omitted)$")
RESULTS_RE = re.compile(r"^(?:Results|Failures|Errors|Flakes|Tests in error|Failed tests):\s*$")
NOISE_RE = re.compile(
    r"^(?:Scanning for projects|-{3,}|Building \S|-+< |-+\[ \w+ \]-+|--- [\w.:-]+ \([^)]*\) @ |"
    r"skip non existing resourceDirectory|Copying \d+ resources?|Using '|Using auto detected provider|"
    r"Nothing to compile|Changes detected|Recompiling|Compiling \d+ source files?|T E S T S|"
    r"Total time:|Finished at:|Building jar:|Installing |BUILD SUCCESS|BUILD FAILURE|Reactor Summary|"
    r"Loaded from the cache|Download(?:ing|ed) from |Surefire report directory|"
    r"The POM for \S+ is missing, no dependency information available)"
)
HINT_RE = re.compile(
    r"^(?:-> \[Help \d+\]|To see the full stack trace|Re-run Maven using|For more information about the errors|"
    r"\[Help \d+\] http|Please refer to dump files|After correcting the problems)"
)
REACTOR_RE = re.compile(r"^\S.*? \.{2,} ?(SUCCESS|FAILURE|SKIPPED)")
COMPILE_RE = re.compile(r"\.java:\[\d+,\d+\]")

MAX_FRAMES = 3
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    saw = False
    final_counts, build_result = _totals(lines)
    in_case = False  # the exception and frames of a failing test
    first_exc = False
    in_results = False
    frames = 0
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")

    for i, line in enumerate(lines):
        lv = LEVEL_RE.match(line)
        level = lv.group(1) if lv else ""
        body = lv.group(2).rstrip() if lv else line.rstrip()
        stripped = body.strip()
        c = COUNTS_RE.match(stripped)
        if c:
            output.flush()
            saw = True
            in_case = False
            rest = c.group(5)
            if i == final_counts:
                text = f"Tests run: {c.group(1)}, Failures: {c.group(2)}, Errors: {c.group(3)}, Skipped: {c.group(4)}"
                b.headline_from(i, f"{text}; {build_result}" if build_result else text)
                add_counts(
                    b.facts,
                    [(c.group(1), "tests"), (c.group(2), "failures"), (c.group(3), "errors"), (c.group(4), "skipped")],
                )
            elif "FAILURE" in rest or "ERROR" in rest or c.group(2) != "0" or c.group(3) != "0":
                in_results = False
                b.keep(i, protect=True, text=_strip_elapsed(line))
            else:
                b.drop(i, "passed classes" if " in " in rest else "summary")
            continue
        case = CASE_RE.match(stripped)
        if case:
            output.flush()
            saw = True
            in_case = True
            first_exc = True
            frames = 0
            b.keep(i, protect=True, text=f"[{level}] {case.group(1)} <<< {case.group(2)}!")
            continue
        if in_case:
            if AT_RE.match(line):
                if is_vendor(line) or frames >= MAX_FRAMES:
                    b.drop(i, "library frames" if is_vendor(line) else "stack frames")
                else:
                    frames += 1
                    b.keep(i, text=line.replace("\t", "    "))
                continue
            if MORE_RE.match(line):
                b.drop(i, "library frames")
                continue
            if not lv and stripped:
                if first_exc or stripped.startswith("Caused by:"):
                    first_exc = False
                    frames = 0
                    b.keep(i, protect=True)
                else:
                    output.add(i)  # multi-line messages and test output
                continue
            in_case = False
        if RESULTS_RE.match(stripped):
            output.flush()
            in_results = True
            if stripped.startswith("Results"):
                b.drop(i, "section headers")
            else:
                b.keep(i, text=f"[{level}] {stripped}")
            continue
        if in_results and lv and stripped and body.startswith("  "):
            # `[ERROR]   CatalogTest.lateFees:40 expected: <1000> but was: <1500>`
            b.keep(i, protect=level == "ERROR", text=f"[{level}] {stripped}")
            continue
        in_results = in_results and not stripped
        if lv and (NOISE_RE.match(stripped) or RUNNING_RE.match(stripped)):
            output.flush()
            saw = saw or stripped == "T E S T S"
            b.drop(i, "build log")
            continue
        if lv and HINT_RE.match(stripped):
            b.drop(i, "maven hints")
            continue
        if lv and not stripped:
            b.drop(i, "blank")
            continue
        r = REACTOR_RE.match(stripped)
        if lv and r:
            if r.group(1) == "SUCCESS":
                b.drop(i, "build log")
            else:
                b.keep(i, protect=r.group(1) == "FAILURE")
            continue
        if lv and level == "INFO":
            b.drop(i, "build log")
            continue
        if lv:
            output.flush()
            b.keep(
                i,
                protect=level == "ERROR"
                and ("Failed to execute goal" in stripped or COMPILE_RE.search(stripped) is not None),
            )
            continue
        if not stripped:
            b.drop(i, "blank")
            continue
        output.add(i)  # what the tests printed
    output.flush()
    if not saw:
        return None
    return b.build(final=True)


def _totals(lines: list[str]) -> tuple[int, str]:
    """The index of the last per-module `Tests run:` total (-1: none) and the build's
    result line."""
    final_counts = -1
    build_result = ""
    for i, line in enumerate(lines):
        lv = LEVEL_RE.match(line)
        body = lv.group(2).strip() if lv else line.strip()
        c = COUNTS_RE.match(body)
        if c and " in " not in c.group(5) and "Time elapsed" not in c.group(5):
            final_counts = i
        if body in ("BUILD SUCCESS", "BUILD FAILURE"):
            build_result = body
    return final_counts, build_result


def _strip_elapsed(line: str) -> str:
    return re.sub(r", Time elapsed: [\d.,]+ s", "", line).rstrip()
