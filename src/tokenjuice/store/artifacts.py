"""Artifact store: the raw output of lossy reductions, kept locally.

One SQLite database in WAL mode (`store.sqlite3` under the state directory, mode 0600
in a 0700 directory). An artifact's id is the first 12 hex digits of the SHA-256 of
its bytes, so storing the same output again stores nothing new and the pointer in the
reduced text is deterministic. Bodies above 4 KiB are zlib-compressed; very large
bodies are written and read in chunks through SQLite's incremental blob I/O, so memory
stays bounded. Retention: by age (default 7 days since last use) and by total stored
size (default 256 MiB), pruned automatically at most once an hour and by
`tokenjuice prune`. Reading needs no write access (a read-only connection, so `cat`
works on a store whose filesystem became read-only), and every read is checked
against the artifact's SHA-256 first: damaged bytes are an error, never an output.
When the state directory cannot be written (a sandbox), the default store writes to
a private folder in the temporary directory instead and reads both (see `fallback`).
Ids, hashing and compression are in `digests`, the database in `database`, retention
in `pruning`.
"""

from __future__ import annotations

import os
import time
import zlib

from tokenjuice import _log
from tokenjuice.paths import state_dir
from tokenjuice.store import database, pruning
from tokenjuice.store.digests import (
    COMPRESS_ABOVE,
    ID_LEN,
    LEVEL,
    artifact_id,
    check,
    compressor,
    hasher,
    sha256,
    utf8_slices,
)
from tokenjuice.store.errors import DamagedArtifact, StoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Iterator
    from typing import Any

# The public face of the store; ids and errors live in their own modules.
__all__ = ["ArtifactInfo", "DamagedArtifact", "Store", "StoreError", "artifact_id"]

# Bytes written to, and read from, a large artifact's blob at a time.
CHUNK = 1 << 20


class ArtifactInfo:
    __slots__ = (
        "codec",
        "command",
        "created",
        "exit_code",
        "id",
        "last_used",
        "lines",
        "rule",
        "session",
        "size",
        "stored",
        "uses",
    )

    def __init__(self, row: sqlite3.Row) -> None:
        self.id: str = row["id"]
        self.size: int = row["size"]
        self.stored: int = row["stored"]
        self.codec: str = row["codec"]
        self.created: float = row["created"]
        self.last_used: float = row["last_used"]
        self.session: str | None = row["session"]
        self.command: str | None = row["command"]
        self.rule: str | None = row["rule"]
        self.exit_code: int | None = row["exit_code"]
        self.lines: int | None = row["lines"]
        # Every run that produced these bytes, oldest first (filled by `Store.info`).
        self.uses: list[dict[str, Any]] = []

    def to_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__slots__}
        out["created"], out["last_used"] = _iso(self.created), _iso(self.last_used)
        out["uses"] = [{**u, "ts": _iso(u["ts"])} for u in self.uses]
        return out


class Store:
    """The artifact store at `root` (default: the XDG state directory). `fallback`: the
    folder written when `root` cannot be, and read after it (default: for the default
    store, one in the temporary directory; for a given `root`, none)."""

    def __init__(
        self,
        root: str | None = None,
        *,
        retention_days: float | None = None,
        max_bytes: int | None = None,
        fallback: str | None = None,
    ) -> None:
        self.root = root or state_dir()
        self.path = os.path.join(self.root, "store.sqlite3")
        if fallback is None and root is None:
            from tokenjuice.store.fallback import fallback_root

            fallback = fallback_root(self.root)
        self.fallback = fallback if fallback and os.path.abspath(fallback) != os.path.abspath(self.root) else None
        self.retention_days = retention_days if retention_days is not None else pruning.retention_days()
        self.max_bytes = max_bytes if max_bytes is not None else pruning.max_bytes()
        # One connection per thread: sqlite3 connections may not cross threads, and
        # agents run tools from thread pools (LangGraph's ToolNode, MCP workers).
        import threading

        self._local = threading.local()

    # ------------------------------------------------------------------ db

    @property
    def _conn(self) -> sqlite3.Connection | None:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        return conn

    @_conn.setter
    def _conn(self, conn: sqlite3.Connection | None) -> None:
        self._local.conn = conn

    def connect(self) -> sqlite3.Connection:
        """The connection this thread writes with: the store at `root`, else at `fallback`."""
        if self._conn is not None:
            return self._conn
        root = self.root
        try:
            conn = database.open_writer(root)
        except StoreError as first:
            if self.fallback is None:
                raise
            root = self.fallback
            try:
                from tokenjuice.store.fallback import make_private

                make_private(root)
                conn = database.open_writer(root)
            except (StoreError, OSError) as exc:
                raise StoreError(f"{first}; nor at {root}: {exc}") from None
            _log.debug(f"{first}; outputs kept in {root}")
        self._conn = conn
        self._local.root = root  # where this thread writes (temporary files too)
        return conn

    def _readers(self) -> list[tuple[str, sqlite3.Connection]]:
        """(path, connection) of each store this one reads: `root`'s, then `fallback`'s
        (only a private folder of this user)."""
        from tokenjuice.store.fallback import is_private

        out = []
        for root in (self.root, self.fallback):
            if root is None or (root == self.fallback and not is_private(root)):
                continue
            path = os.path.join(root, "store.sqlite3")
            conn = self._reader(path)
            if conn is not None:
                out.append((path, conn))
        return out

    def _reader(self, path: str) -> sqlite3.Connection | None:
        """A connection for reading the store at `path`: the writer's when this thread
        writes there, else a read-only one (None when there is no store yet)."""
        writer = self._conn
        if writer is not None and database.file_of(writer) == os.path.abspath(path):
            return writer
        opened: dict[str, sqlite3.Connection] = getattr(self._local, "ro", None) or {}
        self._local.ro = opened
        conn: sqlite3.Connection | None = opened.get(path)
        if conn is not None:
            return conn
        conn = database.open_reader(path)
        if conn is not None:
            opened[path] = conn
        return conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        opened: dict[str, sqlite3.Connection] = getattr(self._local, "ro", None) or {}
        for conn in opened.values():
            conn.close()
        self._local.ro = {}

    # ---------------------------------------------------------------- write

    def put(
        self,
        data: bytes,
        *,
        session: str | None = None,
        command: str | None = None,
        rule: str | None = None,
        exit_code: int | None = None,
        lines: int | None = None,
    ) -> str:
        """Store `data` (or refresh it when already stored); return its id."""
        digest = str(sha256(data).hexdigest())

        def body() -> tuple[str, bytes]:
            if len(data) > COMPRESS_ABOVE:
                comp = compressor(len(data))
                codec, out = "zlib", comp.compress(data) + comp.flush()
            else:
                codec, out = "raw", data
            return ("raw", data) if codec == "zlib" and len(out) >= len(data) else (codec, out)

        meta = (session, command, rule, exit_code, lines)
        return self._put(digest, len(data), body, meta)

    def put_text(
        self,
        text: str,
        *,
        session: str | None = None,
        command: str | None = None,
        rule: str | None = None,
        exit_code: int | None = None,
        lines: int | None = None,
    ) -> str:
        """`put(text.encode("utf-8", "surrogatepass"))`, encoding, hashing and compressing
        a slice at a time: a large output is not held a second time as bytes."""
        h = hasher(len(text))
        size = 0
        for piece in utf8_slices(text):
            h.update(piece)
            size += len(piece)

        def body() -> tuple[str, bytes]:
            # Only for a new artifact (a repeated output is only refreshed): encoded again.
            if size > COMPRESS_ABOVE:
                comp = compressor(size)
                out = b"".join([*map(comp.compress, utf8_slices(text)), comp.flush()])
                if len(out) < size:
                    return "zlib", out
            return "raw", text.encode("utf-8", "surrogatepass")  # small, or does not compress

        meta = (session, command, rule, exit_code, lines)
        return self._put(str(h.hexdigest()), size, body, meta)

    def _put(
        self,
        digest: str,
        size: int,
        body: Callable[[], tuple[str, bytes]],
        meta: _Meta,
    ) -> str:
        """Refresh artifact `digest`, or insert it with `body()` (codec, stored bytes)."""
        from tokenjuice.store._sqlite import sqlite3

        aid = digest[:ID_LEN]
        session, command, rule, exit_code, lines = meta
        now = time.time()
        conn = self.connect()
        try:
            cur = conn.execute(
                "UPDATE artifacts SET last_used=?, session=coalesce(?, session), command=coalesce(command, ?),"
                " rule=coalesce(?, rule), exit_code=?, lines=coalesce(?, lines) WHERE id=?",
                (now, session, command, rule, exit_code, lines, aid),
            )
            if cur.rowcount == 0:
                codec, stored = body()
                conn.execute(
                    "INSERT OR IGNORE INTO artifacts (id, sha256, size, stored, codec, created, last_used, session,"
                    " command, rule, exit_code, lines, data) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (aid, digest, size, len(stored), codec, now, now, session, command, rule, exit_code, lines, stored),
                )
            _record_use(conn, aid, now, meta)
            self._maybe_prune(now)
        except sqlite3.Error as exc:
            raise StoreError(f"could not store the raw output: {exc}") from None
        return aid

    def put_file(
        self,
        path: str,
        *,
        session: str | None = None,
        command: str | None = None,
        rule: str | None = None,
        exit_code: int | None = None,
        lines: int | None = None,
    ) -> str:
        """Store a (large) file's bytes with bounded memory: hash, compress, then write in chunks."""
        import hashlib  # a spooled file is large: OpenSSL's hasher is the fast one
        import tempfile

        from tokenjuice.store._sqlite import sqlite3

        h = hashlib.sha256()
        size = 0
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(CHUNK), b""):
                h.update(chunk)
                size += len(chunk)
        full = h.hexdigest()
        aid = full[:ID_LEN]
        now = time.time()
        conn = self.connect()
        try:
            cur = conn.execute("UPDATE artifacts SET last_used=? WHERE id=?", (now, aid))
            if cur.rowcount:
                _record_use(conn, aid, now, (session, command, rule, exit_code, lines))
                return aid
            comp = zlib.compressobj(LEVEL)
            with open(path, "rb") as src, tempfile.TemporaryFile(dir=self._local.root) as tmp:
                for chunk in iter(lambda: src.read(CHUNK), b""):
                    tmp.write(comp.compress(chunk))
                tmp.write(comp.flush())
                stored = tmp.tell()
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.execute(
                        "INSERT OR IGNORE INTO artifacts (id, sha256, size, stored, codec, created, last_used,"
                        " session, command, rule, exit_code, lines, data) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,"
                        " zeroblob(?))",
                        (aid, full, size, stored, "zlib", now, now, session, command, rule, exit_code, lines, stored),
                    )
                    tmp.seek(0)
                    with conn.blobopen("artifacts", "data", database.rowid(conn, aid)) as blob:
                        for chunk in iter(lambda: tmp.read(CHUNK), b""):
                            blob.write(chunk)
                    _record_use(conn, aid, now, (session, command, rule, exit_code, lines))
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            self._maybe_prune(now)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"could not store the raw output: {exc}") from None
        return aid

    # ----------------------------------------------------------------- read

    def resolve(self, prefix: str) -> str:
        """The full id for a unique id prefix (at least 4 hex digits)."""
        p = prefix.strip().lower()
        if len(p) < 4 or any(c not in "0123456789abcdef" for c in p):
            raise KeyError(f"not an artifact id: {prefix!r}")
        rows = self._query("SELECT id FROM artifacts WHERE id >= ? AND id < ? LIMIT 2", (p, p + "g"))
        found = sorted({str(r["id"]) for r in rows})
        if not found:
            raise KeyError(f"no artifact {prefix!r} (it may have been pruned)")
        if len(found) > 1:
            raise KeyError(f"artifact id {prefix!r} is ambiguous; give more digits")
        return found[0]

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """Rows of a read-only query over every store read ([] when there is none yet)."""
        rows: list[sqlite3.Row] = []
        for path, conn in self._readers():
            rows += database.rows(path, conn, sql, args)
        return rows

    def _holder(self, aid: str) -> tuple[str, sqlite3.Connection]:
        """The store that holds artifact `aid`; KeyError when none does."""
        for path, conn in self._readers():
            if database.rows(path, conn, "SELECT 1 FROM artifacts WHERE id=?", (aid,)):
                return path, conn
        raise KeyError(f"no artifact {aid!r}")

    def ids(self) -> list[str]:
        """Every artifact's id, in id order."""
        return sorted({str(r["id"]) for r in self._query("SELECT id FROM artifacts")})

    def info(self, aid: str) -> ArtifactInfo:
        path, conn = self._holder(aid)
        info = ArtifactInfo(database.rows(path, conn, f"SELECT {_INFO_COLUMNS} FROM artifacts WHERE id=?", (aid,))[0])
        info.uses = self.uses(aid)
        return info

    def uses(self, aid: str) -> list[dict[str, Any]]:
        """Every run recorded for an output, oldest first (the same bytes from several
        commands are stored once and used by each)."""
        try:
            path, conn = self._holder(aid)
        except KeyError:
            return []
        if database.rows(path, conn, "SELECT name FROM sqlite_master WHERE type='table' AND name='uses'", ()):
            sql = "SELECT ts, session, command, rule, exit_code FROM uses WHERE id=? ORDER BY ts, rowid"
        else:  # a store of the first layout, not migrated yet (readers never write)
            sql = "SELECT last_used AS ts, session, command, rule, exit_code FROM artifacts WHERE id=?"
        return [dict(r) for r in database.rows(path, conn, sql, (aid,))]

    def iter_bytes(self, aid: str) -> Iterator[bytes]:
        """The artifact's bytes, decompressed in chunks.

        They are checked against the stored SHA-256 before the first chunk is
        returned (a large artifact is read twice): damaged bytes raise
        `DamagedArtifact` instead of coming out.
        """
        info = self.info(aid)
        digest = self._digest(aid)
        if info.size <= CHUNK:
            data = b"".join(self._chunks(aid, info))
            check(aid, digest, info.size, sha256(data).hexdigest(), len(data))
            yield data
            return
        self.verify(aid, info, digest)
        yield from self._chunks(aid, info)

    def verify(self, aid: str, info: ArtifactInfo | None = None, digest: str | None = None) -> None:
        """Raise `DamagedArtifact` unless the artifact's bytes match their digest."""
        info = info or self.info(aid)
        if digest is None:
            digest = self._digest(aid)
        h = hasher(info.size)
        size = 0
        for chunk in self._chunks(aid, info):
            h.update(chunk)
            size += len(chunk)
        check(aid, digest, info.size, h.hexdigest(), size)

    def _digest(self, aid: str) -> str:
        path, conn = self._holder(aid)
        rows = database.rows(path, conn, "SELECT sha256 FROM artifacts WHERE id=?", (aid,))
        return str(rows[0]["sha256"]) if rows else ""

    def _chunks(self, aid: str, info: ArtifactInfo) -> Iterator[bytes]:
        """The stored bytes, decompressed, unchecked."""
        from tokenjuice.store._sqlite import sqlite3

        if info.codec not in ("zlib", "raw"):
            raise DamagedArtifact(aid, f"unknown codec {info.codec!r}")
        path, conn = self._holder(aid)
        decomp = zlib.decompressobj() if info.codec == "zlib" else None
        try:
            rowid = database.rowid(conn, aid)
            with conn.blobopen("artifacts", "data", rowid, readonly=True) as blob:
                while True:
                    chunk = blob.read(CHUNK)
                    if not chunk:
                        break
                    yield decomp.decompress(chunk) if decomp is not None else chunk
            if decomp is not None:
                tail = decomp.flush()
                if tail:
                    yield tail
                if not decomp.eof:
                    raise DamagedArtifact(aid, "its compressed bytes end early")
        except zlib.error as exc:
            raise DamagedArtifact(aid, f"its compressed bytes do not decompress: {exc}") from None
        except sqlite3.Error as exc:
            raise StoreError(f"artifact store unreadable at {path}: {exc}") from None

    def read(self, aid: str) -> bytes:
        return b"".join(self.iter_bytes(aid))

    def list(self, session: str | None = None, limit: int = 50) -> list[ArtifactInfo]:
        sql = f"SELECT {_INFO_COLUMNS} FROM artifacts"
        args: tuple[Any, ...] = ()
        if session:
            sql += " WHERE session=?"
            args = (session,)
        sql += " ORDER BY last_used DESC, id LIMIT ?"
        found = {r["id"]: ArtifactInfo(r) for r in self._query(sql, (*args, limit))}
        return sorted(found.values(), key=lambda a: (-a.last_used, a.id))[:limit]

    def totals(self) -> tuple[int, int, int]:
        """(artifacts, raw bytes, stored bytes)."""
        rows = self._query("SELECT count(*), coalesce(sum(size), 0), coalesce(sum(stored), 0) FROM artifacts")
        return sum(int(r[0]) for r in rows), sum(int(r[1]) for r in rows), sum(int(r[2]) for r in rows)

    def check(self) -> str:
        """`ok`, or what SQLite's quick check says is wrong with a store read."""
        for row in self._query("PRAGMA quick_check"):
            if str(row[0]) != "ok":
                return str(row[0])
        return "ok"

    # ---------------------------------------------------------------- prune

    def prune(
        self, *, older_than_days: float | None = None, max_bytes: int | None = None, everything: bool = False
    ) -> tuple[int, int]:
        """Delete expired artifacts, then the least recently used beyond the size cap.

        Returns (artifacts removed, stored bytes freed).
        """
        days = self.retention_days if older_than_days is None else older_than_days
        cap = self.max_bytes if max_bytes is None else max_bytes
        return pruning.prune(self.connect(), days=days, cap=cap, everything=everything)

    def _maybe_prune(self, now: float) -> None:
        if not pruning.due(self.connect(), now):
            return
        try:
            self.prune()
        except Exception as exc:  # noqa: BLE001 - pruning is housekeeping, never fatal
            _log.debug(f"auto-prune skipped: {exc}")


# (session, command, rule, exit_code, lines) of one run that stored or reused an output.
_Meta = tuple[str | None, str | None, str | None, int | None, int | None]
_INFO_COLUMNS = "id, size, stored, codec, created, last_used, session, command, rule, exit_code, lines"


def _record_use(
    conn: sqlite3.Connection,
    aid: str,
    now: float,
    meta: tuple[str | None, str | None, str | None, int | None, int | None],
) -> None:
    session, command, rule, exit_code, _ = meta
    conn.execute(
        "INSERT INTO uses (id, ts, session, command, rule, exit_code) VALUES (?,?,?,?,?,?)",
        (aid, now, session, command, rule, exit_code),
    )


def _iso(ts: float) -> str:
    """Local time with its offset, to the second (`2026-12-02T09:14:03+00:00`)."""
    import datetime

    return datetime.datetime.fromtimestamp(ts).astimezone().isoformat(timespec="seconds")
