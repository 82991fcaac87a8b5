"""Spool files: where `wrap` writes an output too large to hold, until it is stored.

A spool file is `wrap-<pid>-<random>.out` in `<state dir>/spool` (or, when that cannot
be created, `tokenjuice-wrap-<pid>-<random>.out` in the temporary directory). Its
writer holds an exclusive `flock` on it while it writes; the kernel drops the lock
with the process, however it ends (SIGKILL included). So a spool file is an orphan
when its lock can be taken and its writer's pid is gone (or the file is older than a
day: the pid was reused). `tokenjuice doctor` reports orphans; `tokenjuice prune`
removes them.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

SUFFIX = ".out"
_PREFIX = "wrap-"
_TMP_PREFIX = "tokenjuice-wrap-"
# A lockable spool file whose pid is alive again after this long belongs to a new process.
PID_REUSE_AGE_S = 86400.0


def spool_dir() -> str:
    from tokenjuice.paths import state_dir

    return os.path.join(state_dir(), "spool")


def _places() -> list[tuple[str, str]]:
    import tempfile

    return [(spool_dir(), _PREFIX), (tempfile.gettempdir(), _TMP_PREFIX)]


def create() -> tuple[BinaryIO, str]:
    """A new spool file, open for writing and locked by this process; its path.

    Raises OSError when neither place can hold one.
    """
    import tempfile

    first, fallback = _places()
    try:
        # The state directory too is ours alone (makedirs gives only the leaf the mode).
        os.makedirs(os.path.dirname(first[0]), mode=0o700, exist_ok=True)
        os.makedirs(first[0], mode=0o700, exist_ok=True)
        place = first
    except OSError:
        place = fallback
    try:
        fd, path = tempfile.mkstemp(prefix=f"{place[1]}{os.getpid()}-", suffix=SUFFIX, dir=place[0])
    except OSError:
        if place is fallback:
            raise
        place = fallback
        fd, path = tempfile.mkstemp(prefix=f"{place[1]}{os.getpid()}-", suffix=SUFFIX, dir=place[0])
    _lock(fd, wait=True)
    return os.fdopen(fd, "wb"), path


def _lock(fd: int, *, wait: bool) -> bool:
    """Take the exclusive lock on `fd`; False when another process holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: orphans are told by pid alone
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return True  # a filesystem without locks: the pid decides
    return True


class Orphan:
    __slots__ = ("path", "size")

    def __init__(self, path: str, size: int) -> None:
        self.path = path
        self.size = size


def orphans() -> list[Orphan]:
    """Spool files of ours whose writer is gone, oldest place first, by name."""
    found: list[Orphan] = []
    for directory, prefix in _places():
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        for name in names:
            if not (name.startswith(prefix) and name.endswith(SUFFIX)):
                continue
            pid = name[len(prefix) :].split("-", 1)[0]
            path = os.path.join(directory, name)
            size = _orphan_size(path, int(pid) if pid.isdigit() else None)
            if size is not None:
                found.append(Orphan(path, size))
    return found


def _orphan_size(path: str, pid: int | None) -> int | None:
    """The size of the spool file at `path` when it is an orphan, else None."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        # Only our own regular files: the temporary directory is shared.
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
            return None
        if not _lock(fd, wait=False):
            return None  # its writer is still at work
        if pid is not None and _alive(pid) and time.time() - st.st_mtime < PID_REUSE_AGE_S:
            return None  # created a moment ago, not locked yet
        return int(st.st_size)
    finally:
        os.close(fd)  # releases the lock


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process
    try:  # a killed writer its parent has not reaped yet is a zombie, as good as gone
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rpartition(b")")[2].split()[:1] != [b"Z"]
    except OSError:
        return True


def remove_orphans() -> tuple[int, int]:
    """Delete the orphans; (how many, bytes freed)."""
    count = freed = 0
    for orphan in orphans():
        try:
            os.unlink(orphan.path)
        except OSError:
            continue
        count += 1
        freed += orphan.size
    return count, freed
