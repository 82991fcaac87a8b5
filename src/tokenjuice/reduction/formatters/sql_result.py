"""SQL client results (psql, mysql/mariadb, sqlite3): table headers, a few rows, the count.

Recognises psql's aligned tables (`a | b` over `---+---`, closed by `(N rows)`),
boxed tables (`+---+` from mysql -t, `┌─┬─┐` from sqlite3 -box/-table), sqlite3's
`-column` layout, mysql's tab-separated batch output, sqlite3's `a|b|c` list mode,
and vertical records (psql -x `-[ RECORD n ]-`, mysql `\\G`). A long result keeps its
header, its first and last rows and the row count; everything else (ERROR/LINE/DETAIL
lines, the caret under the error position, command tags) stays and is protected.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

PSQL_SEP_RE = re.compile(r"^-+(?:\+-+)+-*$|^-{3,}$")
PSQL_FOOTER_RE = re.compile(r"^\((\d+) rows?\)$")
BORDER_RE = re.compile(r"^(?:\+-[-+]*\+|[┌├└╭╰][─┬┼┴]+[┐┤┘╮╯])$")
COLUMN_SEP_RE = re.compile(r"^-+(?:  +-+)+$")
RECORD_RE = re.compile(r"^(?:-\[ RECORD (\d+) \]-*\+?-*|\*{5,} (\d+)\. row \*{5,})$")
ERROR_RE = re.compile(
    r"^(?:\S+:\d+: )?(?:ERROR|FATAL|WARNING|PANIC)(?: \d+ \(\w+\))?:?|^(?:LINE \d+:|DETAIL:|HINT:|CONTEXT:|QUERY:)"
    r"|^\s*\^(?:--- error here)?$|^(?:Error|Parse error|Runtime error)\b|^psql: |^\S+: error: |^ERROR \d+"
)

HEAD = 8
TAIL = 3
REC_HEAD = 3
REC_TAIL = 1
MIN_ROWS = HEAD + TAIL + 4  # shorter tables pass unchanged


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    n = len(lines)
    # plan[i]: "keep" | "drop" | ("marker", text) placed before line i
    drop: set[int] = set()
    markers: dict[int, str] = {}
    total_rows = 0
    i = 0
    while i < n:
        ln = lines[i]
        # psql aligned: header, separator, rows, (N rows)
        if i + 1 < n and " | " in ln and PSQL_SEP_RE.match(lines[i + 1]):
            j = i + 2
            while j < n and not PSQL_FOOTER_RE.match(lines[j]) and lines[j].strip():
                j += 1
            total_rows += _fold(range(i + 2, j), fi.weights, drop, markers, HEAD, TAIL)
            i = j + 1
            continue
        # sqlite3 -column: header, dashes separated by two spaces, rows
        if i + 1 < n and COLUMN_SEP_RE.match(lines[i + 1]) and len(lines[i + 1]) >= len(ln.rstrip()) - 2:
            j = i + 2
            while j < n and lines[j].strip() and not ERROR_RE.match(lines[j]):
                j += 1
            total_rows += _fold(range(i + 2, j), fi.weights, drop, markers, HEAD, TAIL)
            i = j
            continue
        # boxed tables: border, header, border, rows, border
        if BORDER_RE.match(ln) and i + 2 < n and BORDER_RE.match(lines[i + 2]):
            j = i + 3
            while j < n and not BORDER_RE.match(lines[j]):
                j += 1
            total_rows += _fold(range(i + 3, j), fi.weights, drop, markers, HEAD, TAIL)
            i = j + 1
            continue
        # vertical records
        if RECORD_RE.match(ln):
            starts = []
            j = i
            while j < n and (RECORD_RE.match(lines[j]) or (lines[j].strip() and not ERROR_RE.match(lines[j]))):
                if RECORD_RE.match(lines[j]):
                    starts.append(j)
                j += 1
            if len(starts) > REC_HEAD + REC_TAIL + 1:
                cut_from, cut_to = starts[REC_HEAD], starts[-REC_TAIL]
                markers[cut_from] = f"… {len(starts) - REC_HEAD - REC_TAIL:,} more records …"
                drop.update(range(cut_from, cut_to))
            total_rows += len(starts)
            i = j
            continue
        # delimiter-separated rows (mysql batch TSV, sqlite3 list mode): a run of lines
        # with the same number of separators
        sep = "\t" if "\t" in ln else ("|" if "|" in ln and not ln.startswith(("|", "│")) else "")
        if sep and not ERROR_RE.match(ln):
            count = ln.count(sep)
            j = i + 1
            while j < n and lines[j].count(sep) == count and not ERROR_RE.match(lines[j]):
                j += 1
            if j - i >= MIN_ROWS:
                first = i + 1 if sep == "\t" else i  # mysql batch prints a header row
                total_rows += _fold(range(first, j), fi.weights, drop, markers, HEAD, TAIL)
                i = j
                continue
        i += 1
    if not drop:
        return None
    b = Builder(lines, fi.weights)
    for k in range(n):
        if k in markers:
            b.add(markers[k])
        if k in drop:
            b.drop(k, "rows")
        else:
            b.keep(k, protect=ERROR_RE.match(lines[k]) is not None)
    b.facts["row"] = total_rows
    return b.build(final=False)


def _fold(rows: range, weights: list[int], drop: set[int], markers: dict[int, str], head: int, tail: int) -> int:
    """Drop the middle of a table's rows; return how many raw rows the table has."""
    idx = list(rows)
    total = sum(weights[k] for k in idx)
    if len(idx) >= max(MIN_ROWS, head + tail + 1):
        middle = idx[head:-tail]
        markers[middle[0]] = f"… {sum(weights[k] for k in middle):,} more rows …"
        drop.update(middle)
    return total
