"""pytest: failing test ids, their error lines and locations, and the summary counts.

Handles the default, `-q`, `-v` and `-rA` layouts. Progress dots and PASSED lines go;
each failure keeps its header, the failing source lines (`>`), its `E` lines and its
locations (the test's own frame `tests/test_x.py:29:` as well as the innermost
`path:line: Error`); captured output keeps its head and tail; the short test summary
keeps FAILED/ERROR/XPASS lines (not the message details `-vv` repeats there), and such a
test-id line is kept wherever it appears; the final counts become the facts line.
Decorations (`===== X =====`) shrink to `== X ==`.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

SECTION_RE = re.compile(r"^={3,} (.+?) ={3,}$")
_OUTCOMES = r"failed|passed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun|subtests? (?:passed|failed)"
SUMMARY_RE = re.compile(
    rf"^(?:=+ )?((?:\d+ (?:{_OUTCOMES})(?:, )?)+(?: in [\d.]+s(?: \([\d:.]+\))?)?"
    r"|no tests ran(?: in [\d.]+s)?)(?: =+)?$"
)
COUNT_RE = re.compile(r"(\d+) (failed|passed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)")
PROGRESS_RE = re.compile(r"^(?:\S+\.py )?[.FEsxXRfep]+(?:\s+\[\s*\d+%\])?$")
STATUS_RE = re.compile(r"^(\S+::\S.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN)\b(?:.*?)(?:\s+\[\s*\d+%\])?$")
HEADER_PREFIXES = (
    "platform ",
    "rootdir:",
    "configfile:",
    "plugins:",
    "cachedir:",
    "testpaths:",
    "collected ",
    "collecting ",
    "cachedir ",
    "hypothesis profile",
    "Using --randomly-seed",
    "asyncio: mode",
    "django: ",
    "benchmark: ",
    "sensitiveurl:",
    "metadata:",
    "Test order",
)
TEST_HEADER_RE = re.compile(r"^_{3,} (.+?) _{3,}$")
# `path:line: Error`, and a frame's own `tests/test_x.py:29:` (its trailing space trimmed).
LOCATION_RE = re.compile(r"^[^\s:][^:]*:\d+:(?: |$)")
CAPTURED_RE = re.compile(r"^-{3,} (.+?) -{3,}$")
BANG_RE = re.compile(r"^!{3,} (.+?) !{3,}$")
WARNING_KEEP_RE = re.compile(r":\d+: \w*Warning\b|^\S+::\S")
# `FAILED tests/x.py::test_y - msg`: the failing test's id, kept in any section (a wrapper
# such as `uv run` or `-p no:terminal` may print it without the short-summary header).
RESULT_ID_RE = re.compile(r"^(?:FAILED|ERROR|XPASS) [^\s:]+(?:::|\.py\b)")

CAPTURED_HEAD = 4
CAPTURED_TAIL = 8


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    has_short_summary = any(SECTION_RE.match(ln) and "short test summary" in ln for ln in lines)
    section: str | None = None
    captured: list[int] = []
    saw_pytest = False
    saw_failures = False

    def flush_captured() -> None:
        if len(captured) <= CAPTURED_HEAD + CAPTURED_TAIL:
            for j in captured:
                b.keep(j)
        else:
            for j in captured[:CAPTURED_HEAD]:
                b.keep(j)
            cut = captured[CAPTURED_HEAD:-CAPTURED_TAIL]
            b.add(f"… {sum(fi.weights[j] for j in cut):,} captured lines omitted …")
            for j in cut:
                b.drop(j, "captured output")
            for j in captured[-CAPTURED_TAIL:]:
                b.keep(j)
        captured.clear()

    for i, line in enumerate(lines):
        m = SECTION_RE.match(line)
        if m:
            flush_captured()
            title = m.group(1)
            saw_pytest = True
            s = SUMMARY_RE.match(title)
            if s:
                _summary(b, i, s.group(1))
                section = None
                continue
            low = title.lower()
            if low in ("failures", "errors"):
                section = "failures"
                saw_failures = True
            elif low == "short test summary info":
                section = "short"
            elif low == "warnings summary":
                section = "warnings"
            elif low.startswith("test session starts"):
                section = "header"
                b.drop(i, "header")
                continue
            elif low == "passes":
                section = "passes"
                b.drop(i, "passing output")
                continue
            else:
                section = "other"
            b.keep(i, text=f"== {title} ==")
            continue
        s = SUMMARY_RE.match(line)
        if s and section != "failures":
            flush_captured()
            _summary(b, i, s.group(1))
            saw_pytest = True
            continue
        bang = BANG_RE.match(line)
        if bang:
            flush_captured()
            b.keep(i, protect=True, text=f"!! {bang.group(1)} !!")
            continue
        if RESULT_ID_RE.match(line) and section != "short":
            flush_captured()
            b.keep(i, protect=True)
            continue

        if section in (None, "header"):
            saw_pytest = _header_line(b, i, line, has_short_summary) or saw_pytest
            continue

        if section in ("failures", "captured"):
            head = TEST_HEADER_RE.match(line)
            cap = CAPTURED_RE.match(line) if head is None else None
            if head:
                flush_captured()
                b.keep(i, protect=True, text=f"__ {head.group(1)} __")
                section = "failures"
            elif cap:
                flush_captured()
                b.keep(i, text=f"-- {cap.group(1)} --")
                section = "captured"
            elif section == "captured":
                captured.append(i)
            else:
                _traceback_line(b, i, line)
            continue

        if section == "short":
            if line.startswith(("PASSED ", "SKIPPED ", "XFAIL ")):
                b.drop(i, "passed")
            elif saw_failures and (not line.strip() or line[:1].isspace()):
                # -vv repeats each failure's message (an assertion diff) here: kept once, above.
                b.drop(i, "summary details (shown above)")
            else:
                b.keep(i, protect=line.startswith(("FAILED", "ERROR", "XPASS")))
            continue
        if section == "warnings":
            if WARNING_KEEP_RE.search(line):
                b.keep(i, text=line.strip())
            else:
                b.drop(i, "warning details")
            continue
        if section == "passes":
            b.drop(i, "passing output")
            continue
        b.keep(i)
    flush_captured()
    if not saw_pytest:
        return None
    return b.build(final=False)


def _summary(b: Builder, i: int, text: str) -> None:
    """The final counts become the facts line at the top of the text."""
    b.headline_from(i, text)
    for n, what in COUNT_RE.findall(text):
        key = {"error": "errors", "warning": "warnings"}.get(what, what)
        b.facts[key] = b.facts.get(key, 0) + int(n)


def _header_line(b: Builder, i: int, line: str, has_short_summary: bool) -> bool:
    """A line before the first section: the session header, progress, `-v` status
    lines. True for a line that shows the output is a pytest run."""
    if not line.strip():
        b.drop(i, "header")
        return False
    if line.startswith(HEADER_PREFIXES):
        b.drop(i, "header")
        return True
    if PROGRESS_RE.match(line):
        b.drop(i, "progress")
        return True
    st = STATUS_RE.match(line)
    if st is None:
        b.keep(i)
        return False
    if st.group(2) in ("PASSED", "SKIPPED", "XFAIL") or has_short_summary:
        b.drop(i, "passed" if st.group(2) != "FAILED" and st.group(2) != "ERROR" else "status lines (see summary)")
    else:
        b.keep(i, protect=True, text=f"{st.group(1)} {st.group(2)}")
    return True


def _traceback_line(b: Builder, i: int, line: str) -> None:
    """A line of a failure's traceback: `E` lines, locations and the failing source
    line (`>`) stay; the rest of the traceback goes."""
    if line.startswith("E ") or line == "E":
        if line.strip() == "E":
            b.drop(i, "traceback")
        else:
            b.keep(i, protect=True)
    elif LOCATION_RE.match(line):
        b.keep(i, protect=True)
    elif line.startswith(">"):
        b.keep(i)
    else:
        b.drop(i, "traceback")
