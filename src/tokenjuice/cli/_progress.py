"""A live status line for `wrap` when a person watches (stderr is a terminal).

Agents read stderr as text, so nothing is drawn unless it is a terminal. The line
shows the time so far, lines and bytes of output, appears only after a second (a
quick command shows nothing) and is cleared before the reduced text is printed.
"""

from __future__ import annotations

import os
import time

from tokenjuice._humanize import plural, size

SHOW_AFTER_S = 1.0
REDRAW_EVERY_S = 0.2


class Progress:
    def __init__(self, fd: int = 2) -> None:
        self.fd = fd
        self.t0 = time.monotonic()
        self.bytes = 0
        self.lines = 0
        self.drawn_at = 0.0
        self.shown = False

    def chunk(self, _channel: int, data: bytes) -> None:
        self.bytes += len(data)
        self.lines += data.count(b"\n")

    def tick(self) -> None:
        now = time.monotonic()
        if now - self.t0 < SHOW_AFTER_S or now - self.drawn_at < REDRAW_EVERY_S:
            return
        self.drawn_at = now
        self._write(f"\r\x1b[K⋯ running {now - self.t0:.0f}s · {plural(self.lines, 'line')} · {size(self.bytes)}")
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self._write("\r\x1b[K")
            self.shown = False

    def _write(self, text: str) -> None:
        try:  # noqa: SIM105 - a status line is never worth an error
            os.write(self.fd, text.encode("utf-8", "replace"))
        except OSError:
            pass


def wanted(tee: bool) -> bool:
    """Only for a person: stderr is a terminal, and `--tee` is not writing there."""
    if tee or os.environ.get("TOKENJUICE_PROGRESS", "1") in ("0", "false", "no", "off"):
        return False
    try:
        return os.isatty(2)
    except (OSError, ValueError):
        return False
