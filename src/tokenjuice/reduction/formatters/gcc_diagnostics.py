"""gcc / clang (and swiftc-style) diagnostics under make: one line per diagnostic.

    src/vec.c: In function ‘vec_sum’:                           (dropped: context)
    src/vec.c:4:23: warning: comparison of … [-Wsign-compare]    kept
        4 |     for (int i = 0; i < v->len; i++) s += v->data[i];   (dropped: snippet)
          |                       ^                                 (dropped: snippet)

Errors keep their notes (`note: ‘true’ is defined in header ‘<stdbool.h>’`); warnings
keep only their header, and identical warnings are listed once with all locations.
Source excerpts (gcc's `N |` gutter, clang's bare source + caret lines), `In function`
/ `In file included from` context and echoed compiler command lines go; on a successful
run the last command (usually the link) stays. Linker errors, `N errors generated.` and
make's own `***` lines are kept. `GccParser` is shared with other build formatters.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._compiler_diag import Collector, Diag, emit, is_error

DIAG_RE = re.compile(
    r"^(?P<loc>[^\s:][^:]*:\d+(?::\d+)?): (?P<sev>fatal error|error|warning|note|remark): (?P<msg>.*)$"
)
CONTEXT_RE = re.compile(
    r"^[^\s:][^:]*: (?:In (?:function|member function|static member function|constructor|destructor|"
    r"lambda function|instantiation of|substitution of|copy constructor)\b|At (?:top level|global scope):)"
    r"|^In file included from \S|^\s+from \S+:\d+[:,]$"
)
GUTTER_RE = re.compile(r"^\s*(?:\d+\s*)?\|(?:\s|$)|^\s*\+\+\+ \|")
CARET_RE = re.compile(r"^[ \t]*[~^][~^ \t]*$")  # `^`, `~~~^~~`, `~~~~ ^~~~~`
FIXIT_RE = re.compile(r"^[ \t]+\S+$")  # clang/swiftc fix-it text under a caret line
COMMAND_RE = re.compile(
    r"^(?:ccache |libtool: \w+: )?(?:\S*/)?(?:[\w.]+-)?(?:cc|gcc|g\+\+|c\+\+|clang|clang\+\+)(?:-[\d.]+)? "
)


class GccParser:
    """Feeds lines; `feed` returns True when the line belonged to a diagnostic."""

    __slots__ = ("after_caret", "col", "cur", "lines", "source_line")

    def __init__(self, lines: list[str], col: Collector) -> None:
        self.lines = lines
        self.col = col
        self.cur: Diag | None = None
        self.source_line = -1  # clang/swiftc: the bare source line before a caret line
        self.after_caret = False

    def feed(self, i: int, line: str) -> bool:
        m = DIAG_RE.match(line)
        if m:
            sev, loc, msg = m.group("sev"), m.group("loc"), m.group("msg")
            if sev == "note" and self.cur is not None:
                if is_error(self.cur.severity):
                    self.cur.child(i, f"  {loc}: note: {msg}")
                else:
                    self.cur.drop(i, "notes")
            else:
                self.cur = self.col.diag(self.col.new(i, sev, f"{sev}: {msg}", loc))
            nxt = i + 1
            if (
                nxt + 1 < len(self.lines)
                and CARET_RE.match(self.lines[nxt + 1])
                and not GUTTER_RE.match(self.lines[nxt])
            ):
                self.source_line = nxt
            return True
        if self.cur is None:
            return False
        was_caret, self.after_caret = self.after_caret, False
        if i == self.source_line or GUTTER_RE.match(line):
            self.cur.drop(i, "snippets")
            return True
        if CARET_RE.match(line):
            self.after_caret = True
            self.cur.drop(i, "snippets")
            return True
        if was_caret and FIXIT_RE.match(line):
            self.cur.drop(i, "snippets")
            return True
        if CONTEXT_RE.match(line):
            self.cur.drop(i, "context")
            return True
        self.cur = None
        return False


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    col = Collector(lines, fi.weights)
    parser = GccParser(lines, col)
    commands: list[int] = []
    for i, line in enumerate(lines):
        if parser.feed(i, line):
            continue
        if CONTEXT_RE.match(line):
            col.drop(i, "context")
        elif not line.strip():
            col.drop(i, "blank")
        elif COMMAND_RE.match(line):
            commands.append(len(col.items))
            col.keep(i)
        else:
            col.keep(i)
    if not col.diags and not commands:
        return None
    # Echoed compiler commands are progress; a successful run keeps its last one.
    last = commands[-1] if commands and not fi.failed else None
    for k in commands:
        if k != last:
            col.redrop(k, "compiler commands")
    b = Builder(lines, fi.weights)
    emit(b, col.items)
    return b.build(final=True)
