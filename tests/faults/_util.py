"""Fault injection for the tokenjuice CLI: small filesystems, file-size limits, damaged
files, each run bounded by a timeout and checked for what must never happen."""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import sys
from pathlib import Path

TJ = [sys.executable, "-m", "tokenjuice"]
# Every fault case finishes well within this; a hang fails the test instead of the run.
TIMEOUT_S = 120.0
EXIT_INTERNAL = 70


def tj(
    *args: str,
    home: Path,
    env: dict[str, str] | None = None,
    stdin: bytes | None = None,
    cwd: Path | None = None,
    fsize: int | None = None,
    timeout: float = TIMEOUT_S,
) -> subprocess.CompletedProcess[bytes]:
    """Run `tokenjuice ARGS` with its state under `home` (stderr not a terminal, as under
    an agent); `fsize`: the largest file it may write, in bytes (RLIMIT_FSIZE)."""

    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    # Its own temporary directory too (where spool files go when the state one fails).
    tmp = home.parent / f"{home.name}-tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    e = dict(os.environ, TOKENJUICE_HOME=str(home), TMPDIR=str(tmp), **(env or {}))
    return subprocess.run(
        [*TJ, *args],
        input=stdin if stdin is not None else b"",
        capture_output=True,
        env=e,
        cwd=cwd,
        timeout=timeout,
        preexec_fn=limit if fsize is not None else None,
    )


def assert_failed_open(p: subprocess.CompletedProcess[bytes], code: int) -> str:
    """The command's exit code came back, no internal error, no traceback; the text."""
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == code, (p.returncode, err[-2000:])
    assert p.returncode != EXIT_INTERNAL
    assert "internal error" not in err and "Traceback" not in err, err[-2000:]
    return p.stdout.decode("utf-8", "replace")


def assert_one_line_error(p: subprocess.CompletedProcess[bytes], code: int = 2) -> str:
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == code, (p.returncode, err)
    assert err.startswith("tokenjuice: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def leftovers(home: Path) -> list[str]:
    """Files a finished run must not leave: spool files (in the state directory or the
    temporary one), temporaries of atomic writes."""
    out = []
    tmp = home.parent / f"{home.name}-tmp"
    if tmp.is_dir():
        out += [str(p) for p in tmp.iterdir() if p.name.startswith("tokenjuice-wrap-")]
    for root, _dirs, files in os.walk(home):
        spool = os.path.basename(root) == "spool"
        out += [
            os.path.join(root, name)
            for name in files
            if (spool and name.endswith(".out")) or (name.startswith(".tokenjuice-") and name.endswith(".tmp"))
        ]
    return out


def mount_tmpfs(path: Path, size: str) -> bool:
    """Mount a tmpfs of `size` at `path`; False when this machine refuses (not root)."""
    path.mkdir(parents=True, exist_ok=True)
    try:
        p = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path)],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0


def umount(path: Path) -> None:
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        subprocess.run(["umount", "-l", str(path)], capture_output=True, timeout=30)


def remount_ro(path: Path) -> bool:
    try:
        p = subprocess.run(["mount", "-o", "remount,ro", str(path)], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0


EMIT = """
import os, sys
size, code = int(sys.argv[1]), int(sys.argv[2])
line = (sys.argv[3] if len(sys.argv) > 3 else "progress: step done, nothing to see here") + "\\n"
out = sys.stdout.buffer
n = 0
chunk = line.encode() * 4096
while n < size:
    out.write(chunk)
    n += len(chunk)
out.write(b"src/app/main.c:42:7: error: boom\\n")
out.flush()
sys.stderr.write("fatal: the build failed\\n")
sys.exit(code)
"""


def emitter(tmp: Path) -> Path:
    """A script printing ARGV1 bytes of noise, then an error, exiting with ARGV2."""
    script = tmp / "emit.py"
    script.write_text(EMIT)
    return script
