"""ss / netstat socket tables: every listening socket, connections grouped.

Listening (LISTEN, UNCONN) rows stay in full. Connections (ESTAB, TIME-WAIT, …) are
grouped by state, the service end (the local address when its port is a listening
port here, else the peer) and the owning process; a group of three or more becomes
one count line. Lines that are not socket rows (headers, unix sockets, notes) stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

SS_HEADER_RE = re.compile(r"^(?:Netid\s+)?State\s+Recv-Q\s+Send-Q\s+Local Address:Port")
NETSTAT_HEADER_RE = re.compile(r"^Proto\s+Recv-Q\s+Send-Q\s+Local Address\s+Foreign Address")
LISTENING = {"LISTEN", "UNCONN"}
FD_RE = re.compile(r",fd=\d+")
PORT_RE = re.compile(r":(\d+|\*)$")
GROUP_AT = 3
SMALL = 30


class _Row:
    __slots__ = ("local", "peer", "proc", "state")

    def __init__(self, state: str, local: str, peer: str, proc: str) -> None:
        self.state = state
        self.local = local
        self.peer = peer
        self.proc = proc


def _parse_ss(line: str, netid: bool) -> _Row | None:
    parts = line.split()
    off = 1 if netid else 0
    if len(parts) < 5 + off:
        return None
    state = parts[off]
    if not parts[off + 1].isdigit() or not parts[off + 2].isdigit():
        return None
    proc = " ".join(parts[off + 5 :])
    return _Row(state, parts[off + 3], parts[off + 4], FD_RE.sub("", proc))


def _parse_netstat(line: str) -> _Row | None:
    parts = line.split()
    if len(parts) < 5 or not parts[0].startswith(("tcp", "udp", "raw")):
        return None
    if not parts[1].isdigit() or not parts[2].isdigit():
        return None
    rest = parts[5:]
    state = (
        rest[0] if rest and not ("/" in rest[0] or rest[0] == "-") else ("UNCONN" if parts[0].startswith("udp") else "")
    )
    proc = " ".join(rest[1:] if state and rest and rest[0] == state else rest)
    if state in ("", "LISTEN") and parts[0].startswith("udp"):
        state = "UNCONN"
    return _Row(state, parts[3], parts[4], proc)


def _port(addr: str) -> str:
    m = PORT_RE.search(addr)
    return m.group(1) if m else ""


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    rows: dict[int, _Row] = {}
    netid = False
    kind = ""
    for i, ln in enumerate(lines):
        if SS_HEADER_RE.match(ln):
            kind, netid = "ss", ln.startswith("Netid")
            continue
        if NETSTAT_HEADER_RE.match(ln):
            kind = "netstat"
            continue
        if not kind:
            continue
        row = _parse_ss(ln, netid) if kind == "ss" else _parse_netstat(ln)
        if row is not None:
            rows[i] = row
    if len(rows) <= SMALL:
        return None
    listen_ports = {_port(r.local) for r in rows.values() if r.state in LISTENING}
    groups: dict[tuple[str, str, str, str], list[int]] = {}
    for i, r in rows.items():
        if r.state in LISTENING:
            continue
        if _port(r.local) in listen_ports:
            key = (r.state, "on", r.local, r.proc)
        else:
            key = (r.state, "to", r.peer, r.proc)
        groups.setdefault(key, []).append(i)
    lead: dict[int, tuple[tuple[str, str, str, str], list[int]]] = {}
    folded: set[int] = set()
    for key, members in groups.items():
        if len(members) >= GROUP_AT:
            lead[members[0]] = (key, members)
            folded.update(members)

    b = Builder(lines, fi.weights)
    counts: dict[str, int] = {}
    for r in rows.values():
        counts[r.state or "other"] = counts.get(r.state or "other", 0) + 1
    for i in range(len(lines)):
        if i in lead:
            (state, where, addr, proc), members = lead[i]
            arrow = f"{addr} ← peers" if where == "on" else f"peer {addr}"
            b.add(f"{len(members):>5} × {state} {arrow}  {proc}".rstrip(), protect=True)
            for j in members:
                b.drop(j, "grouped connections")
            continue
        if i in folded:
            continue
        row = rows.get(i)
        b.keep(i, protect=row is not None and row.state in LISTENING)
    for state, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        b.facts[f"{state} socket"] = n
    return b.build(final=True)
