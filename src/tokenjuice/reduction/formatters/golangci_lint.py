"""golangci-lint run (text / colored-line-number output): one line per issue.

Each issue is `file.go:line[:col]: message (linter)`, followed (print-issued-lines, the
default) by its source line(s) and a `^` under the column; those go. The stats block
(`N issues:` then `* linter: count`), `0 issues.` and log lines (`level=error msg=…`,
`WARN [runner] …`) stay. The same message at many places is listed once with every
location.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._lintkit import Findings

ISSUE_RE = re.compile(r"^(?P<loc>[^\s:][^:]*\.go:\d+(?::\d+)?): (?P<msg>\S.*)$")
STATS_RE = re.compile(r"^\d+ issues?[.:]$|^\* [\w.-]+: \d+$")
LOG_RE = re.compile(r"^(?:level=\w+ |(?:ERRO|WARN|INFO|DEBU)\b|Error: |Run '|Usage:|The command is terminated)")
CARET_RE = re.compile(r"^\s*\^$")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    out = Findings(lines, fi.weights)
    found = False
    after_issue = False
    for i, line in enumerate(lines):
        m = ISSUE_RE.match(line)
        if m:
            found = True
            after_issue = True
            loc = m.group("loc")
            out.finding(i, line, loc=loc, key=m.group("msg"))
        elif STATS_RE.match(line):
            found = True
            after_issue = False
            out.keep(i, protect=True)
        elif LOG_RE.match(line):
            after_issue = False
            out.keep(i, protect=True)
        elif after_issue or CARET_RE.match(line):
            out.drop(i, "source lines")
        elif not line.strip():
            out.drop(i, "blank lines")
        else:
            out.keep(i)
    if not found:
        return None
    return out.build()
