"""phpunit (progress and --testdox output): the numbered defects and the counts.

Each `N) Class::testMethod` defect keeps its message, the diff body (not its `---
Expected`/`+++ Actual`/`@@ @@` headers) and its project `file.php:line` locations; a
location repeated by a data provider's sets is shown once, frames inside PHPUnit go.
Testdox output keeps `✘` tests with the same details (without the `│` gutter) and
drops `✔`/`↩` lines. The banner, progress dots, `Time:` and `--` separators go;
`Tests: N, Assertions: …` with OK/FAILURES!/ERRORS! becomes the facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Failure, Run, add_counts, is_vendor

BANNER_RE = re.compile(
    r"^(?:PHPUnit \d[\w.-]* by Sebastian Bergmann|Runtime:\s|Configuration:\s|Random Seed:\s|"
    r"Warning:\s+No code coverage)"
)
PROGRESS_RE = re.compile(r"^[.FEWIRSDN]+(?=\s|$)")
PROGRESS_TAIL_RE = re.compile(r"\s+\d+ / \d+ \(\s*\d+%\)$")
TIME_RE = re.compile(r"^Time: [\d:.]+(?: ms| seconds?)?, Memory: ")
HEADING_RE = re.compile(r"^There (?:was|were) \d+ (\w[\w ]*):$")
DEFECT_RE = re.compile(r"^(\d+)\) (\S+::\S.*)$")
LOCATION_RE = re.compile(r"^(\S+\.php):(\d+)$")
DIFF_HEADER_RE = re.compile(r"^(?:--- Expected|\+\+\+ Actual|@@ @@)$")
VERDICT_RE = re.compile(
    r"^(OK|FAILURES!|ERRORS!|WARNINGS!|OK, but incomplete, skipped, or risky tests!|No tests executed!)$"
)
OK_RE = re.compile(r"^OK \((\d+) tests?, (\d+) assertions?\)$")
COUNTS_RE = re.compile(r"^Tests: (\d+), Assertions: (\d+)(.*)\.$")
COUNT_RE = re.compile(r"(Errors|Failures|Warnings|Skipped|Incomplete|Risky|Deprecations|Notices): (\d+)")
DOX_PASS_RE = re.compile(r"^\s[✔↩∅]\s")
DOX_FAIL_RE = re.compile(r"^\s([✘☢])\s(.*)$")
GUTTER_RE = re.compile(r"^\s+│\s?(.*)$")

MESSAGE_HEAD = 12
MESSAGE_TAIL = 3
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    saw = False
    seen_locations: set[str] = set()
    verdict = ""
    in_recap = False  # testdox's "Summary of non-successful tests" repeats every defect
    dup = False
    shown: set[str] = set()
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "test output")
    fail = Failure(b, Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message"), output)
    flush = fail.flush

    for i, line in enumerate(lines):
        if BANNER_RE.match(line):
            saw = True
            b.drop(i, "banner")
            continue
        if TIME_RE.match(line):
            flush()
            b.drop(i, "timing")
            continue
        v = VERDICT_RE.match(line)
        if v:
            fail.close()
            verdict = v.group(1)
            b.headline_from(i, verdict)
            continue
        ok = OK_RE.match(line)
        if ok:
            flush()
            saw = True
            b.headline_from(i, line)
            add_counts(b.facts, [(ok.group(1), "tests"), (ok.group(2), "assertions")])
            continue
        c = COUNTS_RE.match(line)
        if c:
            flush()
            saw = True
            b.headline_from(i, line.rstrip("."))
            add_counts(b.facts, [(c.group(1), "tests"), (c.group(2), "assertions")])
            add_counts(b.facts, [(n, k) for k, n in COUNT_RE.findall(c.group(3))])
            continue
        h = HEADING_RE.match(line)
        if h:
            fail.close()
            saw = True
            b.keep(i, text=line)
            continue
        d = DEFECT_RE.match(line)
        if d:
            fail.start(i)
            continue
        if line.startswith("Summary of non-successful tests"):
            fail.close()
            in_recap = True
            b.drop(i, "repeated failures")
            continue
        dox_fail = DOX_FAIL_RE.match(line)
        if dox_fail:
            flush()
            saw = True
            name = f"{dox_fail.group(1)} {dox_fail.group(2)}"
            dup = in_recap and name in shown
            if dup:
                b.drop(i, "repeated failures")
                fail.close()
                continue
            shown.add(name)
            fail.start(i, name)
            continue
        if DOX_PASS_RE.match(line):
            fail.close()
            saw = True
            dup = False
            b.drop(i, "passed" if "✔" in line else "skipped")
            continue
        if dup and (GUTTER_RE.match(line) or not line.strip()):
            b.drop(i, "repeated failures")
            continue
        if fail.open:
            _defect_line(b, fail, i, line, seen_locations)
            continue
        if line == "--":
            b.drop(i, "separators")
            continue
        p = PROGRESS_RE.match(line)
        if p and (PROGRESS_TAIL_RE.search(line) or p.end() == len(line)):
            saw = True
            b.drop(i, "progress")
            continue
        if p and line[p.end() :].strip():
            # Output a test printed, glued to the progress dots.
            saw = True
            b.keep(i, text=line[p.end() :])
            continue
        if not line.strip():
            output.flush()
            b.drop(i, "blank")
            continue
        if GUTTER_RE.match(line):
            b.drop(i, "blank")
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if DOX_PASS_RE.match(nxt) or DOX_FAIL_RE.match(nxt):
            b.drop(i, "class headers")  # testdox: the class name above its tests
            continue
        output.add(i)
    flush()
    if not saw:
        return None
    del verdict
    return b.build(final=True)


def _defect_line(b: Builder, fail: Failure, i: int, line: str, seen_locations: set[str]) -> None:
    """A line of a defect's body (behind testdox's `│` gutter, or not): its message,
    its project locations once each, its diff."""
    g = GUTTER_RE.match(line)
    text = g.group(1) if g else line
    if not text.strip() or text.strip() in ("--", "."):
        fail.message.flush()
        b.drop(i, "blank")
        return
    loc = LOCATION_RE.match(text.strip())
    if loc:
        fail.message.flush()
        if is_vendor(text):
            b.drop(i, "library frames")
        elif text.strip() in seen_locations:
            b.drop(i, "repeated locations")
        else:
            seen_locations.add(text.strip())
            b.keep(i, protect=True, text=text.strip())
        return
    if DIFF_HEADER_RE.match(text.strip()):
        fail.message.flush()
        b.drop(i, "diff headers")
        return
    if g and not fail.first:
        fail.message.flush()
        b.keep(i, text=text)  # testdox: keep the diff body lines as they are
        return
    fail.message_line(i, text=text)
