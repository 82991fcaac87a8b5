"""javac: one line per diagnostic; errors keep their symbol/location/required/found.

    src/demo/App.java:6: error: cannot find symbol      kept
        int x = foo();                                  (dropped: snippet)
                ^                                       (dropped: snippet)
      symbol:   method foo()                            kept (errors): `  symbol: method foo()`
      location: class App                               kept (errors)

Warnings keep only their header (`[rawtypes] found raw type: List`), and identical
ones are listed once with all their locations; their `where E is a type-variable`
explanations go. `Note:` lines and the `N errors` / `N warnings` counts stay.
`JavacParser` is shared with the gradle formatter.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._compiler_diag import Collector, Diag, emit, is_error

DIAG_RE = re.compile(r"^(?P<loc>[^\s:][^:]*\.java:\d+): (?P<sev>error|warning): (?P<msg>.*)$")
CARET_RE = re.compile(r"^\s*\^\s*$")
DETAIL_RE = re.compile(r"^ {2}(?P<key>symbol|location|required|found|reason|where|missing|actual and formal|  )")
_SPACES = re.compile(r" {2,}")


class JavacParser:
    """Feeds lines (optionally with their text rewritten); True when a line was consumed."""

    __slots__ = ("col", "cur", "lines", "source_line")

    def __init__(self, lines: list[str], col: Collector) -> None:
        self.lines = lines
        self.col = col
        self.cur: Diag | None = None
        self.source_line = -1

    def feed(self, i: int, line: str) -> bool:
        m = DIAG_RE.match(line)
        if m:
            self.cur = self.col.diag(
                self.col.new(i, m.group("sev"), f"{m.group('sev')}: {m.group('msg')}", m.group("loc"))
            )
            # The source line comes next, then a caret line.
            if i + 2 < len(self.lines) and CARET_RE.match(self.lines[i + 2]):
                self.source_line = i + 1
            return True
        cur = self.cur
        if cur is None:
            return False
        if i == self.source_line or CARET_RE.match(line):
            cur.drop(i, "snippets")
            return True
        if line.startswith("  ") and line.strip():
            if is_error(cur.severity) and DETAIL_RE.match(line):
                indent = "    " if line.startswith("    ") else "  "
                cur.child(i, indent + _SPACES.sub(" ", line.strip()))
            else:
                cur.drop(i, "details")
            return True
        self.cur = None
        return False


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    col = Collector(lines, fi.weights)
    parser = JavacParser(lines, col)
    for i, line in enumerate(lines):
        if not parser.feed(i, line):
            col.keep(i)
    if not col.diags:
        return None
    b = Builder(lines, fi.weights)
    emit(b, col.items)
    return b.build(final=True)
