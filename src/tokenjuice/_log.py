"""Warnings that go to logging (and so to stderr), never into the model's text.

`logging` is imported only when there is something to say: most runs have nothing
to warn about and the CLI must start fast.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import logging
    from collections.abc import Callable

_seen: set[str] = set()
_stderr = {"on": False, "verbose": False, "configured": False}
# Tests and long-lived hosts can observe warnings without parsing stderr.
_listeners: list[Callable[[str], None]] = []


def warn(message: str, *, key: str | None = None) -> None:
    """Report a warning to listeners; log it once per process per key (default: the message)."""
    for listener in list(_listeners):
        listener(message)
    k = message if key is None else key
    if k in _seen:
        return
    _seen.add(k)
    _logger().warning("%s", message)


def debug(message: str) -> None:
    if _stderr["on"] and not _stderr["verbose"]:
        return
    _logger().debug("%s", message)


def use_stderr(*, verbose: bool = False, file: str | None = None) -> None:
    """CLI mode: warnings go to stderr as `tokenjuice: warning: …` lines.

    With `file`, they are appended there instead (with a timestamp): `wrap` under an
    agent has no terminal, and its stderr is part of what the model reads.
    """
    _stderr["on"] = True
    _stderr["verbose"] = verbose
    _file["path"] = file


_file: dict[str, str | None] = {"path": None}
# The warnings log is cut back to its second half when it passes this size.
MAX_LOG_BYTES = 1 << 20


def _logger() -> logging.Logger:
    import logging

    log = logging.getLogger("tokenjuice")
    if _stderr["on"] and not _stderr["configured"]:
        _stderr["configured"] = True
        path = _file["path"]
        if path:
            handler: logging.Handler = _file_handler(path)
            handler.setFormatter(logging.Formatter("%(asctime)s tokenjuice: %(levelname)s: %(message)s"))
        else:
            handler = logging.StreamHandler()
            handler.setFormatter(logging.Formatter("tokenjuice: %(levelname)s: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.DEBUG if _stderr["verbose"] else logging.WARNING)
        log.propagate = False
    return log


def add_listener(fn: Callable[[str], None]) -> None:
    _listeners.append(fn)


def remove_listener(fn: Callable[[str], None]) -> None:
    if fn in _listeners:
        _listeners.remove(fn)


def reset() -> None:
    """Forget which warnings were already emitted (tests)."""
    _seen.clear()


def _make_file_handler_class() -> type:
    import logging

    class FileHandler(logging.Handler):
        """Appends to the warnings log; never fails the caller, never grows past 1 MiB."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

        def emit(self, record: logging.LogRecord) -> None:
            try:  # noqa: SIM105 - contextlib is an import this path does without
                _append(self.path, (_masked(self.format(record)) + "\n").encode("utf-8", "replace"))
            except OSError:
                pass  # nowhere to log to: the warning is dropped, the tool call goes on

    return FileHandler


_masking = [False]


def _masked(line: str) -> str:
    """A warning for the state directory with any secret it quotes masked (an error
    message can hold a piece of the output)."""
    if _masking[0]:
        return line
    _masking[0] = True
    try:
        from tokenjuice.redact import default_redactor

        redactor = default_redactor()
        return redactor.redact(line)[0] if redactor is not None else line
    except Exception:  # noqa: BLE001 - logging never fails the caller
        return line
    finally:
        _masking[0] = False


def _append(path: str, line: bytes) -> None:
    """Append `line` to the log at `path`, cutting it to its second half past
    `MAX_LOG_BYTES`. Only a regular file of ours with one link is written, never
    through a symlink, and it is kept 0600: the state directory may be shared, and a
    link planted there must not make us write elsewhere. Raises OSError otherwise."""
    import os
    import stat

    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK
    fd = os.open(path, flags, 0o600)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_nlink != 1:
            raise PermissionError(f"{path} is not a file of ours")
        if st.st_mode & 0o077:
            os.fchmod(fd, 0o600)
        os.write(fd, line)
        size = os.fstat(fd).st_size
        if size > MAX_LOG_BYTES:
            tail = os.pread(fd, size - size // 2, size // 2)
            os.ftruncate(fd, 0)
            os.write(fd, tail[tail.find(b"\n") + 1 :])
    finally:
        os.close(fd)


def _file_handler(path: str) -> logging.Handler:
    handler: logging.Handler = _make_file_handler_class()(path)
    return handler


def log_path() -> str:
    """Where `wrap` and `hook` write warnings when they have no terminal."""
    import os

    from tokenjuice.paths import state_dir

    return os.path.join(state_dir(), "warnings.log")
