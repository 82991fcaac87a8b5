"""tsc: one line per diagnostic, in whichever layout tsc printed.

    src/a.ts(3,9): error TS2322: Type 'string' is not assignable to type 'number'.   (plain)
    src/a.ts:3:9 - error TS2322: Type 'string' is not assignable to type 'number'.   (--pretty)

Errors keep the first lines of their message chain (`Types of property 'x' are
incompatible.`) and related information folded to `file:line:col: message` ("The
expected type comes from property 'id' …"); `--pretty` source excerpts and `~~~`
markers go; identical messages are listed once with all their locations. The
`Found N errors …` line stays; the `Errors  Files` table after it goes.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._compiler_diag import Collector, Diag, emit, is_error

PLAIN_RE = re.compile(r"^(?P<loc>[^\s(][^(]*\(\d+,\d+\)): (?P<sev>error|warning|message) (?P<code>TS\d+): (?P<msg>.*)$")
PRETTY_RE = re.compile(r"^(?P<loc>[^\s:][^:]*:\d+:\d+) - (?P<sev>error|warning|message) (?P<code>TS\d+): (?P<msg>.*)$")
GLOBAL_RE = re.compile(r"^(?P<sev>error|warning|message) (?P<code>TS\d+): (?P<msg>.*)$")
CODE_RE = re.compile(r"^\s*\d+ ")
MARKER_RE = re.compile(r"^\s*~+\s*$")
RELATED_LOC_RE = re.compile(r"^\s{2,}(\S+:\d+:\d+)$")
FOUND_RE = re.compile(r"^Found \d+ errors?\b")
TABLE_HEAD_RE = re.compile(r"^Errors\s+Files$")
TABLE_ROW_RE = re.compile(r"^\s+\d+\s+\S.*:\d+$")
MAX_CHAIN = 3  # message-chain lines kept per error


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    col = Collector(lines, fi.weights)
    cur: Diag | None = None
    chain = 0
    related: str | None = None  # location of a related-information block being read
    in_table = False
    for i, line in enumerate(lines):
        m = PLAIN_RE.match(line) or PRETTY_RE.match(line)
        if m:
            d = col.new(i, m.group("sev"), f"{m.group('sev')} {m.group('code')}: {m.group('msg')}", m.group("loc"))
            d.sep = ": " if m.re is PLAIN_RE else " - "
            cur = col.diag(d)
            chain, related, in_table = 0, None, False
            continue
        g = GLOBAL_RE.match(line)
        if g:
            cur = col.diag(col.new(i, g.group("sev"), line))
            chain, related = 0, None
            continue
        if FOUND_RE.match(line):
            cur = None
            col.keep(i, protect=True)
            continue
        if TABLE_HEAD_RE.match(line):
            in_table = True
            col.drop(i, "summary table")
            continue
        if in_table and TABLE_ROW_RE.match(line):
            col.drop(i, "summary table")
            continue
        in_table = False
        if cur is None:
            if line.strip():
                col.keep(i)
            else:
                col.drop(i, "blank")
            continue
        if not line.strip():
            col.drop(i, "blank")
            continue
        r = RELATED_LOC_RE.match(line)
        if r:
            related = r.group(1)
            cur.drop(i, "related locations")
            continue
        if MARKER_RE.match(line) or CODE_RE.match(line):
            cur.drop(i, "snippets")
            continue
        if line.startswith("  "):
            text = line.strip()
            if related is not None:
                # The message of a related-information block, under its location.
                if is_error(cur.severity):
                    cur.child(i, f"  {related}: {text}")
                else:
                    cur.drop(i, "related")
                related = None
            elif is_error(cur.severity) and chain < MAX_CHAIN:
                chain += 1
                cur.child(i, line.rstrip())
            else:
                cur.drop(i, "message chain")
            continue
        cur = None
        col.keep(i)
    if not col.diags:
        return None
    b = Builder(lines, fi.weights)
    emit(b, col.items)
    return b.build(final=True)
