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


def use_stderr(*, verbose: bool = False) -> None:
    """CLI mode: warnings go to stderr as `tokenjuice: warning: …` lines."""
    _stderr["on"] = True
    _stderr["verbose"] = verbose


def _logger() -> logging.Logger:
    import logging

    log = logging.getLogger("tokenjuice")
    if _stderr["on"] and not _stderr["configured"]:
        _stderr["configured"] = True
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
