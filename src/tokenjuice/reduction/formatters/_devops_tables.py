"""Column tables printed by docker, kubectl and helm (Go tabwriter layout).

Headers are upper-case names separated by two or more spaces (a name may hold one
space: `CONTAINER ID`, `NOMINATED NODE`); every cell starts at its header's column, so
rows are sliced by the header offsets. Shared by the docker-table and kubectl-table
formatters.
"""

from __future__ import annotations

from tokenjuice import _re as re

_HEADER_RE = re.compile(
    r"^[A-Z][A-Z0-9_/-]*(?: [A-Z][A-Z0-9_/-]*)*(?: {2,}[A-Z][A-Z0-9_/()-]*(?: [A-Z][A-Z0-9_/-]*)*)+$"
)
_NAME_RE = re.compile(r"\S+(?: \S+)*")


class Table:
    """One table: the header line index, column names and offsets, the row indices."""

    __slots__ = ("header", "names", "rows", "starts")

    def __init__(self, header: int, names: list[str], starts: list[int]) -> None:
        self.header = header
        self.names = names
        self.starts = starts
        self.rows: list[int] = []

    def col(self, name: str) -> int | None:
        try:
            return self.names.index(name)
        except ValueError:
            return None

    def cell(self, line: str, k: int) -> str:
        start = self.starts[k]
        end = self.starts[k + 1] if k + 1 < len(self.starts) else len(line)
        return line[start:end].strip()

    def fits(self, line: str) -> bool:
        """A row has text at the first column and a gap before every later column it reaches."""
        if not line or line[0] == " ":
            return False
        for s in self.starts[1:]:
            if s >= len(line):
                break
            if line[s - 1] != " ":
                return False
        return True


def header_columns(line: str) -> tuple[list[str], list[int]] | None:
    if _HEADER_RE.match(line) is None:
        return None
    names: list[str] = []
    starts: list[int] = []
    for m in _NAME_RE.finditer(line):
        # Names inside one header are split where the gap is two spaces or more.
        parts = re.split(r"( {2,})", m.group(0))
        pos = m.start()
        for part in parts:
            if part.strip():
                names.append(part)
                starts.append(pos)
            pos += len(part)
    return names, starts


def find_tables(lines: list[str], min_cols: int = 2) -> list[Table]:
    """Every header-led block of rows, in order."""
    tables: list[Table] = []
    cur: Table | None = None
    for i, line in enumerate(lines):
        if cur is not None:
            if cur.fits(line):
                cur.rows.append(i)
                continue
            tables.append(cur)
            cur = None
        cols = header_columns(line)
        if cols is not None and len(cols[0]) >= min_cols:
            cur = Table(i, cols[0], cols[1])
    if cur is not None:
        tables.append(cur)
    return [t for t in tables if t.rows]


def name_list(names: list[str], limit: int) -> str:
    """`a, b, c` or `a, b, … and 12 more`."""
    if len(names) <= limit:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f", … and {len(names) - limit:,} more"


def realign(t: Table, lines: list[str], keep: list[int], gap: int = 2) -> dict[int, str]:
    """Header and kept rows re-laid out with widths fitted to what is kept.

    The printed widths fit every row, including the ones folded away; fitting them to
    the rows that stay (with a two-space gap) keeps the columns aligned for less text.
    """
    idx = [t.header, *keep]
    cells = {i: [t.cell(lines[i], k) for k in range(len(t.starts))] for i in idx}
    widths = [max(len(cells[i][k]) for i in idx) for k in range(len(t.starts))]
    out: dict[int, str] = {}
    for i in idx:
        row = cells[i]
        parts = [row[k].ljust(widths[k] + gap) for k in range(len(row) - 1)]
        out[i] = ("".join(parts) + row[-1]).rstrip()
    return out
