"""ps / top: the header, the top CPU and memory consumers, every distinct command once.

Processes whose command differs only in numbers (`sleep 3600` ×120, `worker --id=7`,
kernel threads) fold into their first row plus a count line; the busiest processes by
%CPU and by %MEM (or RSS) always stay in full. top's summary area (load, tasks, CPU,
memory) is kept as is. Short tables pass unchanged.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

HEADER_RE = re.compile(
    r"^\s*(?:USER|UID|PID)\b.*\bPID\b.*?\b(?:COMMAND|CMD|ARGS)\s*$|^\s*PID\b.*\b(?:COMMAND|CMD|ARGS)\s*$"
)
# The first digit spelled out: `re` scans for it (a leading repeat made it try every position).
DIGITS_RE = re.compile(r"\d\d*")
KTHREAD_RE = re.compile(r"^\[.*\]$")

SMALL = 40  # tables this short pass unchanged
TOP_CPU = 8
TOP_MEM = 5
LEAD = 5  # the tool's own first rows (its sort order) stay
FOLD_AT = 3  # a command shape seen this often folds into one row + a count
MAX_COMMAND = 300


def _num(s: str) -> float:
    try:
        return float(s.replace(",", "."))
    except ValueError:
        return 0.0


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    header = next((i for i, ln in enumerate(lines) if HEADER_RE.match(ln)), None)
    if header is None:
        return None
    cols = lines[header].split()
    ncols = len(cols)
    rows = [i for i in range(header + 1, len(lines)) if lines[i].strip()]
    if len(rows) <= SMALL:
        return None
    cmd_col = ncols - 1
    parsed: dict[int, list[str]] = {}
    for i in rows:
        parts = lines[i].split(None, ncols - 1)
        if len(parts) == ncols:
            parsed[i] = parts
    if len(parsed) < len(rows) * 0.9:
        return None

    keep: set[int] = set(rows[:LEAD])
    for name, n in (("%CPU", TOP_CPU), ("%MEM", TOP_MEM), ("RSS", TOP_MEM), ("RES", TOP_MEM)):
        if name not in cols:
            continue
        k = cols.index(name)
        values = {i: _num(parts[k]) for i, parts in parsed.items()}
        ranked = sorted((i for i in parsed if values[i] > 0), key=values.__getitem__, reverse=True)
        keep.update(ranked[:n])

    # Group the remaining rows by command shape (digits removed; kernel threads together).
    groups: dict[str, list[int]] = {}
    for i, parts in parsed.items():
        cmd = parts[cmd_col]
        shape = "[kernel threads]" if KTHREAD_RE.match(cmd) else DIGITS_RE.sub("#", cmd)
        groups.setdefault(shape, []).append(i)
    first_of: dict[int, list[int]] = {}
    for members in groups.values():
        rest = [i for i in members if i not in keep]
        if len(members) >= FOLD_AT and len(rest) > 1:
            first_of[rest[0]] = rest
        else:
            keep.update(rest)

    b = Builder(lines, fi.weights)
    for i in range(header):
        b.keep(i, protect=True)  # top's summary area
    b.keep(header, protect=True)
    for i in range(header + 1, len(lines)):
        if i not in parsed:
            if lines[i].strip():
                b.keep(i)
            else:
                b.drop(i, "blank")
            continue
        if i in keep:
            b.keep(i, protect=True, text=_trim(lines[i]))
        elif i in first_of:
            members = first_of[i]
            b.keep(i, text=_trim(lines[i]))
            shape_cmd = parsed[i][cmd_col]
            label = "kernel threads" if KTHREAD_RE.match(shape_cmd) else "like it"
            b.add(f"  … {len(members) - 1:,} more {label} ({_pids(members[1:], parsed, cols)})")
            for j in members[1:]:
                b.drop(j, "similar processes")
        # rows folded into a group were dropped above
    b.facts["PID"] = len(parsed)
    return b.build(final=True)


def _trim(line: str) -> str:
    return line if len(line) <= MAX_COMMAND else line[:MAX_COMMAND] + " …"


def _pids(members: list[int], parsed: dict[int, list[str]], cols: list[str]) -> str:
    if "PID" not in cols:
        return f"{len(members)} rows"
    k = cols.index("PID")
    pids = [parsed[i][k] for i in members]
    shown = ", ".join(pids[:6])
    return f"pids {shown}{', …' if len(pids) > 6 else ''}"
