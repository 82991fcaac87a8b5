"""ruff check / ruff format: one `path:line:col: CODE message` line per finding.

The default (full) format prints each finding as a header (`F401 [*] msg`), an arrow
line (` --> app.py:1:8`), a source excerpt with carets, and often a `help:` fix diff
and `note:` lines. Header and arrow fold into the concise form
(`app.py:1:8: F401 [*] msg`); excerpts, fix diffs and help/note lines go. The older
full format (`app.py:1:8: F401 msg` followed by a `|` excerpt and `= help:`) loses its
excerpt the same way. Concise, grouped and `--statistics` output stay as they are.
A message reported at many places is listed once with all its locations.

`ruff format --check` findings (`unformatted: File would be reformatted`) fold the same
way without their diff; `ruff format --diff` keeps every changed line, no context.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._lintkit import DiffFolder, Findings, looks_like_diff

# `F401 [*] msg`, `invalid-syntax: msg`, `unformatted: File would be reformatted`
HEADER_RE = re.compile(r"^(?P<code>[A-Z]{1,6}\d{2,4}|[a-z][a-z-]*:)(?P<fix> \[\*\])? (?P<msg>\S.*)$")
ARROW_RE = re.compile(r"^ *--> (?P<loc>\S.*:\d+:\d+)$")
# Concise / old full format: `app.py:1:8: F401 [*] msg`, `bad.py:1:7: invalid-syntax: msg`
CONCISE_RE = re.compile(
    r"^(?P<loc>[^\s:][^:]*:\d+:\d+): (?P<code>[A-Z]{1,6}\d{2,4}|[a-z][a-z-]*:)(?P<fix> \[\*\])? (?P<msg>\S.*)$"
)
# grouped: `app.py:` then `  1:8  F401 [*] msg`
GROUPED_FILE_RE = re.compile(r"^(?P<path>\S.*\.(?:py|pyi|ipynb|toml)):$")
GROUPED_ITEM_RE = re.compile(r"^ +\d+:\d+ +(?:[A-Z]{1,6}\d{2,4}|[a-z][a-z-]*:) ")
# --statistics: `2\tF401  \t[*] unused-import`
STAT_RE = re.compile(r"^ *\d+\t\S+\s*\t")
# excerpt gutter (`  |`, `12 | code`), fix-diff lines (`  - old`, `3 + new`), `...`
EXCERPT_RE = re.compile(r"^ *\d* *(?:\||[-+](?: |$)|:::|\.\.\.$)|^ *= (?:help|note|info): |^-{8,}$")
EXCERPT_START = frozenset(" |0123456789-+.")
HELP_RE = re.compile(r"^(?:help|note|info|suggestion): | *--> \S")
SUB_CODES = frozenset({"help:", "note:", "info:", "suggestion:"})
SUMMARY_RE = re.compile(
    r"^(?:Found \d+ errors?|\[\*\] \d+ fixable|No errors? found|All checks passed!|\d+ (?:hidden )?fix"
    r"|\d+ unsafe fixes? available|\d+ files? (?:would be |left |already |reformatted)"
    r"|Would reformat: |\d+ files? would be reformatted|Fixed \d+ errors?:|No fixes available)"
)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    out = Findings(lines, fi.weights)
    diff = DiffFolder(out, lines) if looks_like_diff(lines) else None
    n = len(lines)
    in_block = False  # inside a finding's excerpt / help section
    recognised = False
    i = 0
    while i < n:
        line = lines[i]
        # Most lines of the full format are excerpt lines: settle them first (cheaply).
        if in_block and (not line or (line[0] in EXCERPT_START and EXCERPT_RE.match(line))):
            out.drop(i, "source excerpts")
            i += 1
            continue
        nxt = lines[i + 1] if i + 1 < n else ""
        h = HEADER_RE.match(line)
        a = ARROW_RE.match(nxt) if h else None
        if h and a and h.group("code") not in SUB_CODES:
            loc = a.group("loc")
            code = h.group("code")
            text = f"{loc}: {code}{h.group('fix') or ''} {h.group('msg')}"
            out.finding(i, text, loc=loc, key=f"{code}{h.group('fix') or ''} {h.group('msg')}", extra=(i + 1,))
            in_block = recognised = True
            i += 2
            continue
        c = CONCISE_RE.match(line)
        if c:
            out.finding(i, line, loc=c.group("loc"), key=line[len(c.group("loc")) :])
            in_block = recognised = True
            i += 1
            continue
        if SUMMARY_RE.match(line):
            out.keep(i, protect=True)
            in_block = False
            recognised = True
            i += 1
            continue
        if diff is not None and diff.feed(i):
            recognised = True
            i += 1
            continue
        if in_block:
            if HELP_RE.match(line):
                out.drop(i, "fix suggestions")
                i += 1
                continue
            in_block = False
        if STAT_RE.match(line):
            out.keep(i, protect=True, text=" ".join(line.split()))  # the table's tab/space padding
            recognised = True
        elif GROUPED_ITEM_RE.match(line):
            out.keep(i, protect=True)
            recognised = True
        elif GROUPED_FILE_RE.match(line):
            out.keep(i, protect=True)
        elif not line.strip():
            out.drop(i, "blank lines")
        else:
            out.keep(i, protect=line.startswith(("error", "warning", "ruff failed", "Cause:")))
        i += 1
    if not recognised:
        return None
    return out.build()
