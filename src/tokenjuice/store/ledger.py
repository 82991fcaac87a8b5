"""The savings ledger: one JSON line per reduction, appended without locks.

Each record is written with a single `write()` on a file opened with O_APPEND, which the
kernel performs atomically for local files, so concurrent tokenjuice processes never
interleave or lose records and nobody waits on a lock; a crash can at worst leave one
partial last line, which readers skip. Files are monthly (`ledger/2026-11.jsonl`,
mode 0600). Recording is best effort: it never raises into a reduction. When the state
directory cannot be written (a sandbox), records go to the store's fallback folder in
the temporary directory (`tokenjuice.store.fallback`), and readers read both.

A record holds the time, rule, family, a command signature (program and subcommand,
e.g. `git diff`; the full command line only with `TOKENJUICE_LEDGER_COMMANDS=1`),
raw/reduced chars and tokens with the tokenizer's name, duration, exit code, whether
the reduction was lossy, the artifact id, and the session and turn when known.
"""

from __future__ import annotations

import os
import time

from tokenjuice import _log
from tokenjuice.paths import state_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from tokenjuice.command import CommandInfo
    from tokenjuice.model import Reduction, ToolRun

# Programs whose first positional argument names what they do (git diff, cargo test, …).
MULTI_COMMAND = frozenset(
    {
        "git",
        "cargo",
        "npm",
        "pnpm",
        "yarn",
        "bun",
        "docker",
        "docker-compose",
        "podman",
        "kubectl",
        "helm",
        "go",
        "uv",
        "poetry",
        "pip",
        "pip3",
        "gh",
        "terraform",
        "tofu",
        "aws",
        "gcloud",
        "az",
        "dotnet",
        "mvn",
        "gradle",
        "systemctl",
        "apt",
        "apt-get",
        "brew",
        "dnf",
        "yum",
        "composer",
        "gem",
        "bundle",
        "just",
        "make",
        "conda",
        "pipx",
        "rustup",
        "deno",
        "swift",
        "redis-cli",
    }
)


def ledger_dir() -> str:
    return os.path.join(state_dir(), "ledger")


def signature(cmd: CommandInfo | None) -> str:
    """`git diff`, `pytest`, `npm run build`: what ran, without arguments that may be private."""
    if cmd is None or not cmd.program:
        return "(unknown)"
    prog = cmd.program.lower()
    if prog.startswith("python") and prog.rstrip("0123456789.") in ("python", "pypy"):
        prog = "python"
    sub = cmd.subcommand
    parts = [prog]
    if prog in MULTI_COMMAND and sub and not sub.startswith(("-", "/", ".")) and len(sub) <= 32:
        parts.append(sub)
        if prog in ("npm", "pnpm", "yarn", "bun") and sub in ("run", "run-script") and cmd.script:
            parts.append(cmd.script)
    sig = " ".join(parts)
    return f"{sig} (compound)" if cmd.compound else sig


def _next_run(session: str) -> int | None:
    """This run's number in its session (1, 2, …), safe across concurrent processes.

    Each run appends one byte to the session's counter file opened with O_APPEND; the
    file offset after our own write is our number, whoever else writes at the same time.
    """
    import zlib

    d = os.path.join(ledger_dir(), "sessions")
    try:
        fd = _open_append(d, f"{zlib.crc32(session.encode('utf-8', 'surrogateescape')):08x}")
        try:
            os.write(fd, b".")
            return os.lseek(fd, 0, os.SEEK_CUR)
        finally:
            os.close(fd)
    except OSError:
        return None


def make_record(run: ToolRun, red: Reduction, cmd: CommandInfo | None) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "ts": round(time.time(), 3),
        "tool": run.tool_name,
        "sig": signature(cmd),
        "rule": red.rule_id,
        "family": red.family,
        "mode": red.mode,
        "raw_chars": red.raw_chars,
        "red_chars": red.reduced_chars,
        "raw_tok": red.raw_tokens,
        "red_tok": red.reduced_tokens,
        "tokenizer": red.tokenizer,
        "ms": round(red.duration_ms, 3),
        "exit": run.exit_code,
        "lossy": red.lossy,
    }
    if red.artifact:
        rec["artifact"] = red.artifact
    if red.redactions:
        rec["redacted"] = sum(red.redactions.values())
    session = run.session_id or os.environ.get("TOKENJUICE_SESSION")
    if session:
        rec["session"] = session
        n = _next_run(session)
        if n:
            rec["run"] = n
    turn = run.metadata.get("turn")
    if isinstance(turn, int):
        rec["turn"] = turn
    if os.environ.get("TOKENJUICE_LEDGER_COMMANDS") == "1":
        rec["cmd"] = run.command_text()
    return rec


def _dumps(record: dict[str, Any]) -> str:
    """Compact JSON for a record. Runs on every reduction, where importing the json
    package (and `re` with it) costs more than the rest of recording."""
    from tokenjuice import _jsonc

    return _jsonc.dumps(record, compact=True)


def _fallback_dir() -> str | None:
    """The ledger in the store's fallback folder (None: no temporary directory)."""
    from tokenjuice.store.fallback import fallback_root

    root = fallback_root(state_dir())
    return None if root is None else os.path.join(root, "ledger")


def append(record: dict[str, Any], directory: str | None = None) -> bool:
    """Append one record; False (and a debug log) when it could not be written."""
    line = (_dumps(record) + "\n").encode("utf-8", "surrogateescape")
    name = time.strftime("%Y-%m", time.gmtime(record.get("ts", time.time()))) + ".jsonl"
    try:
        _append(directory or ledger_dir(), name, line)
    except OSError as exc:
        fallback = None if directory else _fallback_dir()
        if fallback is None:
            _log.debug(f"ledger record not written: {exc}")
            return False
        try:
            from tokenjuice.store.fallback import make_private

            make_private(os.path.dirname(fallback))
            _append(fallback, name, line)
        except OSError as again:
            _log.debug(f"ledger record not written: {exc}; nor in {fallback}: {again}")
            return False
    return True


def _open_append(d: str, name: str) -> int:
    """File `name` in folder `d` opened for appending, both created private when missing."""
    path = os.path.join(d, name)
    try:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except FileNotFoundError:
        os.makedirs(d, mode=0o700, exist_ok=True)
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)


def _append(d: str, name: str, line: bytes) -> None:
    fd = _open_append(d, name)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def iter_records(
    directory: str | None = None, *, since: float | None = None, session: str | None = None
) -> Iterator[dict[str, Any]]:
    """All records, oldest file first; malformed lines (a crash mid-write) are skipped."""
    import json

    from tokenjuice.store.fallback import is_private

    dirs = [directory or ledger_dir()]
    fallback = None if directory else _fallback_dir()
    if fallback is not None and is_private(os.path.dirname(fallback)):
        dirs.append(fallback)
    files = []
    for d in dirs:
        try:
            files += [(n, os.path.join(d, n)) for n in os.listdir(d) if n.endswith(".jsonl")]
        except OSError:
            continue
    for name, path in sorted(files):
        try:
            with open(path, "rb") as f:
                for raw in f:
                    try:
                        rec = json.loads(raw)
                    except ValueError:
                        continue
                    if not isinstance(rec, dict):
                        continue
                    if since is not None and rec.get("ts", 0) < since:
                        continue
                    if session is not None and rec.get("session") != session:
                        continue
                    yield rec
        except OSError as exc:
            _log.warn(f"cannot read ledger file {name}: {exc}")


def prune(older_than_days: float, directory: str | None = None) -> int:
    """Delete monthly files whose last record is older than the cut-off; return files removed."""
    d = directory or ledger_dir()
    cutoff = time.time() - older_than_days * 86400
    removed = 0
    try:
        names = [n for n in os.listdir(d) if n.endswith(".jsonl")]
    except OSError:
        return 0
    sessions = os.path.join(d, "sessions")
    import contextlib  # here, not at the top: recording runs on every reduction

    with contextlib.suppress(OSError):
        # Run counters of sessions that have been quiet as long.
        names += [os.path.join("sessions", n) for n in os.listdir(sessions)]
    for name in names:
        p = os.path.join(d, name)
        try:
            if os.stat(p).st_mtime < cutoff:
                os.unlink(p)
                removed += 1
        except OSError:
            continue
    return removed
