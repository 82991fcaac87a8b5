"""du: entries sorted largest first; a long listing keeps the largest ones.

`du -sh *` with a few entries is re-ordered by size (largest first) and kept whole; a
long `du -a`/`du -h` listing keeps the `total` line and the TOP largest entries, and
the rest become one line with their count and combined size. `cannot read directory`
and other du errors are kept verbatim, first.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

ROW_RE = re.compile(r"^(\d+(?:[.,]\d+)?)([KMGTPEZY]i?B?|B)?\t(.+)$")
ERROR_RE = re.compile(r"^du: ")
UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "P": 1 << 50, "E": 1 << 60}
SMALL = 30
TOP = 25


def size_value(number: str, unit: str | None) -> float:
    """A du size in its own unit system (comparable within one listing)."""
    u = (unit or "").rstrip("B").rstrip("i")
    return float(number.replace(",", ".")) * UNITS.get(u[:1], 1)


def human(value: float, has_units: bool) -> str:
    if not has_units:
        return f"{int(value):,}"
    for unit in ("", "K", "M", "G", "T", "P"):
        if value < 1024 or unit == "P":
            return f"{value:.0f}{unit}" if unit == "" else f"{value:.1f}{unit}"
        value /= 1024
    return f"{value:.1f}P"


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    rows: list[tuple[float, int]] = []
    errors: list[int] = []
    totals: list[int] = []
    other: list[int] = []
    has_units = False
    for i, line in enumerate(lines):
        m = ROW_RE.match(line)
        if m:
            if m.group(3) == "total":
                totals.append(i)
                continue
            has_units = has_units or bool(m.group(2))
            rows.append((size_value(m.group(1), m.group(2)), i))
        elif ERROR_RE.match(line):
            errors.append(i)
        else:
            other.append(i)
    if not rows:
        return None
    b = Builder(lines, fi.weights)
    for i in errors:
        b.keep(i, protect=True)
    for i in totals:
        b.keep(i, protect=True)
    rows.sort(key=lambda r: -r[0])
    top = fi.options.get("top", TOP)
    keep_n = len(rows) if len(rows) <= fi.options.get("small", SMALL) else top
    if keep_n < len(rows):
        b.add(f"{len(rows):,} entries, the {keep_n} largest first:")
    for _, i in rows[:keep_n]:
        b.keep(i)
    rest = rows[keep_n:]
    if rest:
        combined = sum(v for v, _ in rest)
        largest = rest[0][0]
        b.add(
            f"… {len(rest):,} smaller entries (each ≤ {human(largest, has_units)}, "
            f"{human(combined, has_units)} together, nested entries counted twice)"
        )
        b.weights[-1] = sum(fi.weights[i] for _, i in rest)
    for i in other:
        if lines[i].strip():
            b.keep(i, protect=True)
        else:
            b.drop(i, "blank")
    return b.build(final=True)
