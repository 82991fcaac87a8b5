"""The SQLite database of the artifact store: schema, connections, reads.

One database in WAL mode (`store.sqlite3`, mode 0600 in a 0700 directory). Writers
open it read-write and create the schema, whoever gets there first; readers open it
read-only (immutable when read-only needs files they cannot create), so reading back
works on a store whose filesystem became read-only.
"""

from __future__ import annotations

import os
import time

from tokenjuice.store.errors import StoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable
    from typing import Any

BUSY_TIMEOUT_MS = 5000
SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS artifacts (
    id TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    stored INTEGER NOT NULL,
    codec TEXT NOT NULL,
    created REAL NOT NULL,
    last_used REAL NOT NULL,
    session TEXT,
    command TEXT,
    rule TEXT,
    exit_code INTEGER,
    lines INTEGER,
    data BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS artifacts_last_used ON artifacts(last_used);
CREATE INDEX IF NOT EXISTS artifacts_session ON artifacts(session);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS uses (
    id TEXT NOT NULL,
    ts REAL NOT NULL,
    session TEXT,
    command TEXT,
    rule TEXT,
    exit_code INTEGER
);
CREATE INDEX IF NOT EXISTS uses_id ON uses(id);
"""
# Version 1 stores kept one command per output, overwritten by the last: it becomes
# the output's first recorded use.
_MIGRATE_1 = (
    "INSERT INTO uses (id, ts, session, command, rule, exit_code)"
    " SELECT id, last_used, session, command, rule, exit_code FROM artifacts"
)


def init(conn: sqlite3.Connection) -> None:
    """WAL mode and the schema, once, whoever gets there first (processes and threads)."""
    if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    if conn.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version < SCHEMA_VERSION:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            if version == 1:
                conn.execute(_MIGRATE_1)
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def retry_locked(fn: Callable[[], None]) -> None:
    """Run `fn`, retrying while SQLite reports a lock it would not wait for itself
    (changing the journal mode, or creating the schema, while another writer works)."""
    from tokenjuice.store._sqlite import sqlite3

    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            fn()
            return
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def open_writer(root: str) -> sqlite3.Connection:
    """A read-write connection to the store in `root`, created private when missing."""
    from tokenjuice.store._sqlite import sqlite3

    path = os.path.join(root, "store.sqlite3")
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
        os.chmod(root, 0o700)
        fresh = not os.path.exists(path)
        if fresh:
            # Create the file ourselves so it is never world-readable, even briefly.
            fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        retry_locked(lambda: init(conn))
        for suffix in ("", "-wal", "-shm"):
            p = path + suffix
            if os.path.exists(p):
                os.chmod(p, 0o600)
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"artifact store unavailable at {path}: {exc}") from None
    return conn


def open_reader(path: str) -> sqlite3.Connection | None:
    """A read-only connection to the store at `path` (None when there is no store yet).
    Falls back to an immutable open when read-only needs files it cannot create (a WAL
    store on a read-only filesystem)."""
    try:
        if os.path.getsize(path) == 0:
            return None  # created, never initialised (the disk was full, say): empty
    except OSError:
        return None
    from tokenjuice.store._sqlite import sqlite3

    # The characters a URI path must escape (urllib's import is not worth it).
    escaped = os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    uri = "file:" + escaped
    error: Exception | None = None
    for params in ("?mode=ro", "?mode=ro&immutable=1"):
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(uri + params, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            conn.row_factory = sqlite3.Row
            conn.execute("SELECT count(*) FROM artifacts WHERE 0").fetchone()
        except sqlite3.Error as exc:
            error = exc
            if conn is not None:
                conn.close()
            continue
        return conn
    raise StoreError(f"artifact store unreadable at {path}: {error}")


def rows(path: str, conn: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> list[sqlite3.Row]:
    """The rows of a query on the store at `path`; a failure is a `StoreError`."""
    from tokenjuice.store._sqlite import sqlite3

    try:
        return conn.execute(sql, args).fetchall()
    except sqlite3.Error as exc:
        raise StoreError(f"artifact store unreadable at {path}: {exc}") from None


def file_of(conn: sqlite3.Connection) -> str | None:
    """The database file a connection has open."""
    for row in conn.execute("PRAGMA database_list").fetchall():
        if row[1] == "main":
            return os.path.abspath(str(row[2])) if row[2] else None
    return None


def rowid(conn: sqlite3.Connection, aid: str) -> int:
    """The row holding artifact `aid` (its blob is opened by row id); KeyError when none does."""
    row = conn.execute("SELECT rowid FROM artifacts WHERE id=?", (aid,)).fetchone()
    if row is None:
        raise KeyError(f"no artifact {aid!r}")
    return int(row[0])
