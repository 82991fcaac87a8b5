"""esbuild: each `✘ [ERROR]` / `▲ [WARNING]` folded with its location to one line.

    ✘ [ERROR] Could not resolve "./missing"          src/index.js:1:14: ✘ [ERROR] Could not resolve "./missing"
                                                →     You can mark the path "./missing" as external …
        src/index.js:1:14:
          1 │ import x from "./missing";
            ╵               ~~~~~~~~~~~

Errors keep their notes (the indented explanation lines), warnings only their header;
identical warnings are listed once with all their locations. Source excerpts go.
`N errors` / `N warnings`, the output files and `⚡ Done in …` stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._compiler_diag import Collector, Diag, emit, is_error

HEADER_RE = re.compile(r"^(?:[✘▲X] )?\[(ERROR|WARNING)\] (.+)$")
LOCATION_RE = re.compile(r"^ {4}(\S[^:]*:\d+:\d+):$")
SNIPPET_RE = re.compile(r"^\s+(?:\d+ )?[│╵|]")
NOTE_RE = re.compile(r"^ {2}\S")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    col = Collector(lines, fi.weights)
    cur: Diag | None = None
    for i, line in enumerate(lines):
        m = HEADER_RE.match(line)
        if m:
            sev = "error" if m.group(1) == "ERROR" else "warning"
            mark = "✘" if sev == "error" else "▲"
            cur = col.diag(col.new(i, sev, f"{mark} [{m.group(1)}] {m.group(2)}"))
            continue
        if cur is None:
            if line.strip():
                col.keep(i)
            else:
                col.drop(i, "blank")
            continue
        if not line.strip():
            col.drop(i, "blank")
            continue
        loc = LOCATION_RE.match(line)
        if loc:
            if cur.loc is None:
                cur.loc = loc.group(1)
                cur.fold(i)
            elif cur.children and cur.children[-1][1].endswith(":"):
                # A note's own location ("The name "a" was originally exported here:").
                j, text = cur.children[-1]
                cur.set_child(len(cur.children) - 1, f"{text} {loc.group(1)}")
                cur.merge(j, i)
            else:
                cur.drop(i, "snippets")
            continue
        if SNIPPET_RE.match(line):
            cur.drop(i, "snippets")
            continue
        if NOTE_RE.match(line):
            if is_error(cur.severity):
                cur.child(i, line.rstrip())
            else:
                cur.drop(i, "notes")
            continue
        cur = None
        col.keep(i)
    if not col.diags:
        return None
    b = Builder(lines, fi.weights)
    emit(b, col.items)
    return b.build(final=True)
