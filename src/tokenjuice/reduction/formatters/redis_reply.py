"""redis-cli replies: INFO reduced to its vital fields, long key lists grouped by prefix.

INFO keeps every `# Section` header, the fields an operator checks first (version,
role, clients, memory, persistence status, hit/miss, keyspace) and any error/reject
counter that is not zero. A list of keys (KEYS, --scan, SCAN) becomes one line per
prefix (the text before the first `:`) with its count and two examples. Server errors
(`ERR …`, `WRONGTYPE …`, `(error) …`) and connection failures are kept: redis-cli
exits 0 on them.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

SECTION_RE = re.compile(r"^# \w+$")
FIELD_RE = re.compile(r"^([a-z_][a-z0-9_]*):(.*)$")
DB_RE = re.compile(r"^db\d+:keys=")
ERRORISH_RE = re.compile(
    r"^(?:\(error\) )?(?:ERR|WRONGTYPE|NOAUTH|NOPERM|MOVED|ASK|LOADING|BUSY|READONLY|OOM|EXECABORT|NOSCRIPT)\b"
    r"|^Could not connect|^Error: "
)
VITAL = frozenset(
    {
        "redis_version",
        "redis_mode",
        "os",
        "uptime_in_days",
        "tcp_port",
        "connected_clients",
        "blocked_clients",
        "maxclients",
        "used_memory_human",
        "used_memory_peak_human",
        "maxmemory_human",
        "maxmemory_policy",
        "mem_fragmentation_ratio",
        "loading",
        "rdb_changes_since_last_save",
        "rdb_last_bgsave_status",
        "aof_enabled",
        "aof_last_bgrewrite_status",
        "aof_last_write_status",
        "total_connections_received",
        "total_commands_processed",
        "instantaneous_ops_per_sec",
        "rejected_connections",
        "expired_keys",
        "evicted_keys",
        "keyspace_hits",
        "keyspace_misses",
        "role",
        "connected_slaves",
        "master_host",
        "master_port",
        "master_link_status",
        "cluster_enabled",
    }
)
BAD_COUNTER_RE = re.compile(r"rejected|error|fail|denied")
KEY_RE = re.compile(r"^\S+$")
KEY_COMMANDS = frozenset({"KEYS", "SCAN", "--SCAN"})
MIN_KEYS = 40
EXAMPLES = 2


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if any(SECTION_RE.match(ln) for ln in lines[:3]) and sum(1 for ln in lines if FIELD_RE.match(ln)) > 30:
        return _info(fi)
    # Only key listings group by prefix: list/set members (LRANGE, SMEMBERS) stay as they are.
    if not any(a.upper() in KEY_COMMANDS for a in fi.cmd.argv[1:]):
        return None
    keys = [i for i, ln in enumerate(lines) if KEY_RE.match(ln) and not ERRORISH_RE.match(ln)]
    if len(keys) >= MIN_KEYS and len(keys) >= 0.9 * len([ln for ln in lines if ln.strip()]):
        return _keys(fi, set(keys))
    return None


def _info(fi: FormatInput) -> FormatOutput:
    b = Builder(fi.lines, fi.weights)
    for i, ln in enumerate(fi.lines):
        if not ln.strip():
            b.drop(i, "blank")
            continue
        if SECTION_RE.match(ln) or DB_RE.match(ln) or ERRORISH_RE.match(ln):
            b.keep(i, protect=True)
            continue
        m = FIELD_RE.match(ln)
        if m is None:
            b.keep(i)
            continue
        key, value = m.group(1), m.group(2).strip()
        bad = BAD_COUNTER_RE.search(key) is not None and value not in ("0", "ok", "0.00", "")
        if key in VITAL or key.startswith("errorstat_") or bad:
            b.keep(i, protect=True)
        else:
            b.drop(i, "other INFO fields")
    return b.build(final=True)


def _keys(fi: FormatInput, keys: set[int]) -> FormatOutput:
    lines = fi.lines
    groups: dict[str, list[int]] = {}
    for i in sorted(keys):
        k = lines[i]
        prefix = k.split(":", 1)[0] + ":" if ":" in k else "(no prefix)"
        groups.setdefault(prefix, []).append(i)
    b = Builder(lines, fi.weights)
    first_line = {members[0]: prefix for prefix, members in groups.items()}
    for i, ln in enumerate(lines):
        if i in first_line:
            prefix = first_line[i]
            members = groups[prefix]
            count = sum(fi.weights[j] for j in members)
            examples = ", ".join(lines[j] for j in members[:EXAMPLES])
            # The first key of a prefix carries its group's line (a line of weight 0 alone
            # would read as an empty output to the engine).
            b.keep(i, protect=True, text=f"{prefix}* ×{count:,}  e.g. {examples}")
            b.weights[-1] = fi.weights[i]
            continue
        if i in keys:
            b.drop(i, "keys (grouped by prefix)")
        elif ln.strip():
            b.keep(i, protect=ERRORISH_RE.match(ln) is not None)
        else:
            b.drop(i, "blank")
    b.facts["key"] = sum(fi.weights[i] for i in keys)
    b.facts["prefix"] = len(groups)
    return b.build(final=True)
