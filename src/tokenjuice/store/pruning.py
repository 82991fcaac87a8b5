"""Retention of stored outputs: by age since last use, then by total stored size.

Defaults: 7 days and 256 MiB (`TOKENJUICE_RETENTION_DAYS`, `TOKENJUICE_STORE_MAX_MB`),
pruned automatically at most once an hour and by `tokenjuice prune`.
"""

from __future__ import annotations

import os
import time

from tokenjuice import _log

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

DEFAULT_RETENTION_DAYS = 7.0
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
AUTO_PRUNE_EVERY_S = 3600.0


def retention_days() -> float:
    return _env_float("TOKENJUICE_RETENTION_DAYS", DEFAULT_RETENTION_DAYS)


def max_bytes() -> int:
    return int(_env_float("TOKENJUICE_STORE_MAX_MB", DEFAULT_MAX_BYTES / 1048576) * 1048576)


def due(conn: sqlite3.Connection, now: float) -> bool:
    """Whether the last automatic prune is older than `AUTO_PRUNE_EVERY_S`."""
    row = conn.execute("SELECT value FROM meta WHERE key='last_prune'").fetchone()
    return row is None or now - float(row[0]) >= AUTO_PRUNE_EVERY_S


def prune(conn: sqlite3.Connection, *, days: float, cap: int, everything: bool = False) -> tuple[int, int]:
    """Delete artifacts unused for `days`, then the least recently used beyond `cap`
    stored bytes (or all of them). Returns (artifacts removed, stored bytes freed)."""
    removed = freed = 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        if everything:
            row = conn.execute("SELECT count(*), coalesce(sum(stored),0) FROM artifacts").fetchone()
            conn.execute("DELETE FROM artifacts")
            removed, freed = int(row[0]), int(row[1])
        else:
            cutoff = time.time() - days * 86400
            row = conn.execute(
                "SELECT count(*), coalesce(sum(stored),0) FROM artifacts WHERE last_used < ?", (cutoff,)
            ).fetchone()
            conn.execute("DELETE FROM artifacts WHERE last_used < ?", (cutoff,))
            removed, freed = int(row[0]), int(row[1])
            total = int(conn.execute("SELECT coalesce(sum(stored),0) FROM artifacts").fetchone()[0])
            if total > cap:
                for r in conn.execute("SELECT id, stored FROM artifacts ORDER BY last_used, id").fetchall():
                    if total <= cap:
                        break
                    conn.execute("DELETE FROM artifacts WHERE id=?", (r["id"],))
                    total -= int(r["stored"])
                    removed += 1
                    freed += int(r["stored"])
        conn.execute("DELETE FROM uses WHERE id NOT IN (SELECT id FROM artifacts)")
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('last_prune', ?)", (str(time.time()),))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    if removed:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return removed, freed


def _env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    if not value:
        return default
    try:
        got = float(value)
    except ValueError:
        got = -1.0
    # nan would make every comparison false (nothing pruned) and int(nan) raises.
    if not 0 <= got < float("inf"):
        _log.warn(f"{name}={value!r} is not a non-negative number; using {default:g}")
        return default
    return got
