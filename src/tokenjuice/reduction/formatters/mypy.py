"""mypy (and dmypy): every error/note line kept, the summary kept, excerpts dropped.

`--pretty` output loses its source excerpts and caret lines, and wrapped message lines
are joined back to their `path:line: error:` line. The same message at many places
(`Function is missing a type annotation  [no-untyped-def]` under `--strict`) is listed
once with every location; a `--show-error-context` heading (`a.py: note: In function
"f":`) stays only in front of a finding that is still shown.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._lintkit import Findings

# `a.py:12: error: msg  [code]`, with optional columns (`a.py:12:5:` / `a.py:12:5:12:9:`)
# or no line at all (`a.py: error: Duplicate module named "x"`).
FINDING_RE = re.compile(r"^(?P<loc>[^\s:][^:]*+(?::\d+){0,4}): (?P<sev>error|note|warning): (?P<msg>.*)$")
SUMMARY_RE = re.compile(
    r"^(?:Found \d+ errors? in \d+ files?|Success: no issues found|Daemon (?:started|stopped)|Restarting: )"
)
CARET_RE = re.compile(r"^ +\^~*$")
CONTEXT_RE = re.compile(r"^(?:In (?:function|member|class) |At top level:)")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    argv = getattr(fi.cmd, "argv", None) or ()
    pretty = "--pretty" in argv or any(map(CARET_RE.match, lines))
    # First pass: which finding each wrapped continuation line (pretty mode) belongs to.
    joined: dict[int, str] = {}
    found: dict[int, re.Match[str]] = {}
    cont: dict[int, int] = {}
    last: int | None = None
    for i, (line, m) in enumerate(zip(lines, map(FINDING_RE.match, lines), strict=True)):
        if m:
            joined[i] = line
            found[i] = m
            last = i
        elif pretty and last is not None and line and not line.startswith(" ") and not SUMMARY_RE.match(line):
            joined[last] += " " + line.strip()
            cont[i] = last
        else:
            last = None
    if not joined:
        return None
    out = Findings(lines, fi.weights)
    for i, line in enumerate(lines):
        text = joined.get(i)
        if text is not None:
            m = found[i]
            loc = m.group("loc")
            if CONTEXT_RE.match(m.group("msg")) and ":" not in loc:
                out.context(i)  # `a.py: note: In function "f":` introduces what follows
            else:
                out.finding(i, text, loc=loc, key=text[len(loc) :])
        elif i in cont:
            out.last_finding_extra(i)
        elif SUMMARY_RE.match(line):
            out.keep(i, protect=True)
        elif pretty and (line.startswith(" ") or not line):
            out.drop(i, "source excerpts")
        else:
            out.keep(i)
    return out.build()
