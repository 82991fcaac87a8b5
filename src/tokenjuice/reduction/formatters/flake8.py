"""flake8 (also pycodestyle, pyflakes): every `path:line:col: CODE message` kept.

`--show-source` excerpts (the source line and its caret) go; `--statistics` and
`--count` lines stay. The same message at many places (`E302 expected 2 blank lines,
found 1`) is listed once with every location.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._lintkit import Findings

FINDING_RE = re.compile(r"^(?P<loc>[^\s:][^:]*:\d+(?::\d+)?):? (?P<code>[A-Z]{1,6}\d{2,4}) (?P<msg>\S.*)$")
CARET_RE = re.compile(r"^\s*\^$")
STAT_RE = re.compile(r"^\d+\s+[A-Z]{1,6}\d{2,4} ")
COUNT_RE = re.compile(r"^\d+$")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    n = len(lines)
    out = Findings(lines, fi.weights)
    found = False
    i = 0
    while i < n:
        line = lines[i]
        m = FINDING_RE.match(line)
        if m:
            found = True
            loc = m.group("loc")
            out.finding(i, line, loc=loc, key=line[len(loc) :])
            # --show-source: the physical line, then a caret line under the column.
            if i + 2 < n and CARET_RE.match(lines[i + 2]) and not FINDING_RE.match(lines[i + 1]):
                out.drop(i + 1, "source excerpts")
                out.drop(i + 2, "source excerpts")
                i += 3
                continue
            i += 1
            continue
        if STAT_RE.match(line) or COUNT_RE.match(line):
            out.keep(i, protect=True)
        else:
            out.keep(i)
        i += 1
    if not found:
        return None
    return out.build()
