"""Biome (`biome check`, `lint`, `format`, `ci`): one line per diagnostic.

A diagnostic is a header (`src/a.js:1:5 lint/style/useConst  FIXABLE  ━━━━`), its
message (`  ! This let declares a variable that is only assigned once.`), then code
frames, advice and suggested-fix diffs. Header and message fold into
`src/a.js:1:5 warning lint/style/useConst (FIXABLE): This let declares …`; frames and
advice go. The summary (`Checked N files…`, `Found N errors.`, the diagnostics-limit
notice) and the closing `× Some errors were emitted…` stay. The same message at many
places is listed once with every location.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._lintkit import Findings

HEADER_RE = re.compile(
    r"^(?P<where>\S+?(?::\d+:\d+)?) (?P<cat>[a-zA-Z][\w/.-]*)(?: {2}(?P<tags>[A-Z][A-Z ]*?))? +━{3,}$"
)
COMMAND_HEADER_RE = re.compile(r"^[a-z]+(?: [a-z]+)? ━{3,}$")  # `check ━━━`: the closing block
MESSAGE_RE = re.compile(r"^ {2}(?P<mark>[×✖!⚠iℹ‼]) (?P<msg>\S.*)$")
SEVERITY = {"×": "error", "✖": "error", "!": "warning", "⚠": "warning", "‼": "warning", "i": "info", "ℹ": "info"}


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    n = len(lines)
    out = Findings(lines, fi.weights)
    found = False
    in_diag = False
    i = 0
    while i < n:
        line = lines[i]
        ruled = line.endswith("━")  # headers end in a rule: skip the regexes elsewhere
        h = HEADER_RE.match(line) if ruled else None
        if h and not COMMAND_HEADER_RE.match(line):
            found = True
            in_diag = True
            j = i + 1
            while j < n and not lines[j].strip():
                j += 1
            m = MESSAGE_RE.match(lines[j]) if j < n else None
            where, cat, tags = h.group("where"), h.group("cat"), h.group("tags")
            tag = f" ({tags.strip()})" if tags else ""
            if m:
                sev = SEVERITY[m.group("mark")]
                body = f"{sev} {cat}{tag}: {m.group('msg')}"
                out.finding(i, f"{where} {body}", loc=where, key=body, extra=tuple(range(i + 1, j + 1)))
                i = j + 1
            else:
                out.finding(i, f"{where} {cat}{tag}")
                i += 1
            continue
        if ruled and COMMAND_HEADER_RE.match(line):
            found = True
            in_diag = False
            out.drop(i, "headings")
            i += 1
            continue
        if in_diag and (line.startswith(" ") or not line.strip()):
            out.drop(i, "code frames and advice")
        elif not line.strip():
            out.drop(i, "blank lines")
        else:
            in_diag = False
            m = MESSAGE_RE.match(line)
            out.keep(i, protect=True, text=f"{SEVERITY[m.group('mark')]}: {m.group('msg')}" if m else None)
        i += 1
    if not found:
        return None
    return out.build()
