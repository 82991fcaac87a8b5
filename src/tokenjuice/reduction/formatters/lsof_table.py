"""lsof: open files grouped per process so the interesting ones stand out.

Per process: memory-mapped libraries (`mem`) fold into a count; many files in one
directory keep their first and last rows around a count line; established network
connections group by endpoint (three or more become one count line); listening
sockets, cwd/txt and every other row stay. Short listings pass unchanged.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

HEADER_RE = re.compile(r"^COMMAND\s+PID\s+(?:TID\s+(?:TASKCMD\s+)?)?USER\s+FD\s+TYPE\s+DEVICE\s+SIZE/OFF\s+NODE\s+NAME")
CONN_RE = re.compile(r"^(\S+?):(\S+)->(\S+?):(\S+) \((\w+)\)$")
SMALL = 40
DIR_FOLD = 6
DIR_HEAD = 2
DIR_TAIL = 1
CONN_GROUP = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    header = next((i for i, ln in enumerate(lines) if HEADER_RE.match(ln)), None)
    if header is None:
        return None
    ncols = len(lines[header].split())
    fd_col = lines[header].split().index("FD")
    type_col = fd_col + 1
    parsed: dict[int, list[str]] = {}
    for i in range(header + 1, len(lines)):
        parts = lines[i].split(None, ncols - 1)
        if len(parts) == ncols:
            parsed[i] = parts
        elif len(parts) == ncols - 1:  # SIZE/OFF is empty for some entries
            parsed[i] = [*parts[: ncols - 3], "", *parts[ncols - 3 :]]
    if len(parsed) <= SMALL:
        return None

    listen_ports = set()
    for parts in parsed.values():
        name = parts[-1]
        if name.endswith("(LISTEN)"):
            listen_ports.add(name.split()[-2].rsplit(":", 1)[-1] if " " in name else name.rsplit(":", 1)[-1])

    # Each dropped row belongs to a fold whose count line sits where its first row was.
    fold_lead: dict[int, str] = {}
    folded: set[int] = set()
    kept_in_fold: set[int] = set()
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, parts in parsed.items():
        proc = f"{parts[0]} {parts[1]}"
        fd, typ, name = parts[fd_col], parts[type_col], parts[-1]
        if fd == "mem":
            groups.setdefault((proc, "mem"), []).append(i)
            continue
        m = CONN_RE.match(name.split(" ", 1)[1] if name.startswith(("TCP ", "UDP ")) else name)
        if typ in ("IPv4", "IPv6") and m:
            lhost, lport, rhost, rport, state = m.groups()
            end = f"{lhost}:{lport}" if lport in listen_ports else f"{rhost}:{rport}"
            side = "on" if lport in listen_ports else "to"
            groups.setdefault((proc, "conn", side, end, state), []).append(i)
            continue
        if typ in ("REG", "DIR") and fd[:1].isdigit() and "/" in name:
            groups.setdefault((proc, "dir", name.rsplit("/", 1)[0]), []).append(i)
    for key, members in groups.items():
        kind = key[1]
        if kind == "mem" and len(members) > 3:
            fold_lead[members[0]] = f"  … {len(members):,} memory-mapped files (mem) of {key[0]}"
            folded.update(members)
        elif kind == "conn" and len(members) >= CONN_GROUP:
            side, end, state = key[2], key[3], key[4]
            where = f"{end} ← peers" if side == "on" else f"→ {end}"
            fold_lead[members[0]] = f"{len(members):>5} × {state} {where}  ({key[0]})"
            folded.update(members)
        elif kind == "dir" and len(members) >= DIR_FOLD:
            kept_in_fold.update(members[:DIR_HEAD] + members[-DIR_TAIL:])
            middle = members[DIR_HEAD:-DIR_TAIL]
            fold_lead[middle[0]] = f"  … {len(middle):,} more files in {key[2]}/"
            folded.update(middle)

    b = Builder(lines, fi.weights)
    for i in range(header):
        b.keep(i)
    b.keep(header, protect=True)
    for i in range(header + 1, len(lines)):
        if i in fold_lead:
            b.add(fold_lead[i], protect=True)
        if i in folded:
            b.drop(i, "grouped")
            continue
        name = parsed[i][-1] if i in parsed else ""
        b.keep(i, protect=name.endswith("(LISTEN)") or i in kept_in_fold)
    b.facts["open file"] = len(parsed)
    return b.build(final=True)
