"""Small filesystem helpers for the hot path: atomic writes, bounded reads, finding a program.

Writing a small file so that readers see the old content or the new, never half;
reading a file someone else controls (project rules, config) without hanging on a FIFO
or reading `/dev/zero` forever; finding a program on PATH as `shutil.which` does,
without `shutil`'s import.
"""

from __future__ import annotations

import itertools
import os

# Temporary names are this process's id and a counter, created exclusively: `tempfile`
# would do the same, but its import (random, shutil) would cost every call that writes.
_seq = itertools.count()


def write_atomic(path: str, data: bytes, mode: int | None = None) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`.

    `mode` defaults to the existing file's permission bits (0o644 for a new file).
    Raises OSError; the temporary file never stays behind.
    """
    directory = os.path.dirname(os.path.abspath(path))
    if mode is None:
        try:
            mode = os.stat(path).st_mode & 0o777
        except FileNotFoundError:
            mode = 0o644
    os.makedirs(directory, exist_ok=True)
    fd, tmp = _create_temp(directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:  # noqa: SIM105 - contextlib is an import the per-call paths do without
            os.unlink(tmp)
        except OSError:
            pass
        raise


class NotRegularFile(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket, a directory),
    or a regular file larger than the reader accepts; `reason` says which, without
    the path."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.reason = reason


def read_regular(path: str, limit: int) -> bytes:
    """The bytes of the regular file `path` (symlinks followed), at most `limit` of them.

    Opening does not block (a FIFO without a writer would), and anything but a regular
    file, or a file over `limit` bytes, raises `NotRegularFile` before a byte is read.
    Raises OSError as `open` does.
    """
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(path, "not a regular file")
        if st.st_size > limit:
            raise NotRegularFile(path, f"larger than {limit:,} bytes")
        chunks = []
        size = 0
        while True:
            # The file may grow while it is read: never past the limit.
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise NotRegularFile(path, f"larger than {limit:,} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _create_temp(directory: str) -> tuple[int, str]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(1000):
        # A name left by a crashed process with the same id is skipped, never reused.
        tmp = os.path.join(directory, f".tokenjuice-{os.getpid()}-{next(_seq)}.tmp")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {directory}")


def which(name: str, path: str | None = None) -> str | None:
    """`shutil.which(name, path=path)` on POSIX: the first executable file `name` in the
    PATH directories (or `name` itself when it has a directory part). `shutil` imports
    the bz2 and lzma modules, the largest import of a hook call, for this one lookup."""
    if os.path.dirname(name):
        return name if _runnable(name) else None
    if path is None:
        path = os.environ.get("PATH")
    if path is None:
        try:
            path = os.confstr("CS_PATH")
        except (AttributeError, ValueError):
            path = os.defpath
    if not path:
        return None
    seen: set[str] = set()
    for directory in os.fsdecode(path).split(os.pathsep):
        if directory in seen:
            continue
        seen.add(directory)
        candidate = os.path.join(directory, name)
        if _runnable(candidate):
            return candidate
    return None


def _runnable(path: str) -> bool:
    return os.path.exists(path) and os.access(path, os.X_OK) and not os.path.isdir(path)
