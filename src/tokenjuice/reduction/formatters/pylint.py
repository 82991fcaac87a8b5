"""pylint: every message line and the score kept; module banners and reports dropped.

`************* Module x` banners go (each message names its file). `--reports=y`
tables (statistics by type, raw metrics, duplication, messages by category, …) go; the
counts by category become facts instead, taken from the message lines. A
`duplicate-code` message keeps its `==module:[from:to]` ranges on its line, without the
duplicated source. The same message at many places (`C0116: Missing function or method
docstring`) is listed once with every location.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._lintkit import Findings

# text / parseable / colorized formats: `a.py:3:0: C0114: msg (symbol)`,
# `a.py:3: [C0114(missing-module-docstring), ] msg`
FINDING_RE = re.compile(r"^(?P<loc>[^\s:][^:]*:\d+(?::\d+)?): \[?(?P<cat>[CRWEFI])(?P<num>\d{4})(?::|\(| )")
BANNER_RE = re.compile(r"^\*{5,} Module \S")
SCORE_RE = re.compile(r"^Your code has been rated at ")
RULE_RE = re.compile(r"^[-=]{4,}$")
TABLE_RE = re.compile(r"^\+[-=+]+\+$|^\|")
REPORT_LINE_RE = re.compile(r"^\d+ (?:statements analysed|lines have been analyzed)\.?$")
DUP_RANGE_RE = re.compile(r"^==\S+:\[\d+:\d+\]$")
CATEGORIES = {"F": "fatal", "E": "error", "W": "warning", "R": "refactor", "C": "convention", "I": "info"}


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    n = len(lines)
    out = Findings(lines, fi.weights)
    counts: dict[str, int] = {}
    found = False
    i = 0
    while i < n:
        line = lines[i]
        m = FINDING_RE.match(line)
        if m:
            found = True
            cat = CATEGORIES[m.group("cat")]
            counts[cat] = counts.get(cat, 0) + fi.weights[i]
            loc = m.group("loc")
            if m.group("cat") + m.group("num") == "R0801":
                i = _duplicate_code(out, lines, i, loc)
                continue
            out.finding(i, line, loc=loc, key=line[len(loc) :])
            i += 1
            continue
        nxt = lines[i + 1] if i + 1 < n else ""
        if BANNER_RE.match(line):
            out.drop(i, "module banners")
        elif SCORE_RE.match(line):
            found = True
            # The `-----` rule above the score goes with it (no omission to report).
            rule = (i - 1,) if i > 0 and RULE_RE.match(lines[i - 1]) else ()
            out.keep(i, protect=True, extra=rule)
        elif RULE_RE.match(line) and SCORE_RE.match(nxt):
            pass  # counted with the score line
        elif TABLE_RE.match(line) or REPORT_LINE_RE.match(line) or RULE_RE.match(line):
            out.drop(i, "report tables")
        elif RULE_RE.match(nxt):
            out.drop(i, "report tables")  # a report section title over its underline
        elif not line.strip():
            out.drop(i, "blank lines")
        else:
            out.keep(i)
        i += 1
    if not found:
        return None
    # Most severe first, as pylint's own "Messages by category" table lists them.
    for cat in ("fatal", "error", "warning", "refactor", "convention", "info"):
        if counts.get(cat):
            out.facts[cat] = counts[cat]
    return out.build()


def _duplicate_code(out: Findings, lines: list[str], i: int, loc: str) -> int:
    """R0801 spans several lines: `==module:[a:b]` ranges, then the duplicated source,
    the last line ending in `(duplicate-code)`. Keep the ranges on the message line."""
    text = lines[i]
    ranges: list[int] = []
    code: list[int] = []
    j = i + 1
    while j < len(lines) and not FINDING_RE.match(lines[j]) and not SCORE_RE.match(lines[j]):
        if BANNER_RE.match(lines[j]) or (
            RULE_RE.match(lines[j]) and j + 1 < len(lines) and SCORE_RE.match(lines[j + 1])
        ):
            break
        if DUP_RANGE_RE.match(lines[j]):
            ranges.append(j)
            text += " " + lines[j]
        else:
            code.append(j)
        j += 1
        if code and lines[code[-1]].endswith("(duplicate-code)"):
            break
    out.finding(i, text, loc=loc, key=text[len(loc) :], extra=tuple(ranges))
    for k in code:
        out.drop(k, "duplicated source")
    return j
