"""Huge outputs: spool the raw bytes to disk and keep only a sample in memory.

`wrap` captures everything in memory up to `SPOOL_THRESHOLD` bytes. Past that it
switches to spooling: every byte goes (secrets already replaced) to a spool file,
which becomes the stored artifact, while memory holds only the head, the tail and
the diagnostic lines (errors, failures, `file:line` locations) met in between, plus
line counts. The reducer then reduces that sample and accounts for the rest, so a
command that prints a gigabyte runs in bounded memory with the tail and the exit
code right. When the spool file cannot be written (disk full, a file-size limit),
it is given up and the sample goes on: the text then says the full output was not
kept, and why.
"""

from __future__ import annotations

import codecs
import os
from collections import deque

from tokenjuice.model import ToolRun
from tokenjuice.process import Sink

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

SPOOL_THRESHOLD = 8 << 20
HEAD_CHARS = 64 * 1024
TAIL_CHARS = 64 * 1024
MAX_DIAG_LINES = 1500
MAX_DIAG_CHARS = 256 * 1024
MAX_LINE_CHARS = 4096
# A private-key block must reach the redactor whole: hold back an unterminated one.
_PEM_HOLD_BYTES = 64 * 1024


def threshold() -> int:
    value = os.environ.get("TOKENJUICE_SPOOL_THRESHOLD")
    if value and value.isdigit():
        return int(value)
    return SPOOL_THRESHOLD


def _line_cut(data: bytes) -> int:
    """Where to cut a line too long to hold: after its last carriage return, `,` or `;`
    (a progress bar's frame, a JSON or CSV field), else after a blank, in its last
    64 KB; so the redactor never sees a secret, or a `name=value` pair, cut in two."""
    lo = max(0, len(data) - (64 << 10))
    cut = max(data.rfind(b"\r", lo), data.rfind(b",", lo), data.rfind(b";", lo))
    if cut < 0:
        cut = max(data.rfind(b" ", lo), data.rfind(b"\t", lo))
    return cut + 1 if cut >= 0 else len(data)


class Spooled:
    """What the sample stands for: the spool file and the counts of the whole output."""

    __slots__ = ("diag_kept", "diag_seen", "lost", "missing_lines", "numbers", "path", "total_bytes", "total_lines")

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.lost: str | None = None  # why the spool file was given up (then `path` is None)
        self.total_bytes = 0
        self.total_lines = 0  # lines as `tokenjuice cat` numbers them (blank ones too)
        self.missing_lines = 0  # lines not in the sample
        self.numbers: list[int] = []  # each sample line's number in the whole output
        self.diag_seen = 0
        self.diag_kept = 0


class SpoolSink(Sink):
    """A `Sink` that starts spooling to disk once the output passes `limit` bytes."""

    def __init__(self, *, limit: int | None = None, redact: Callable[[bytes], bytes] | None = None) -> None:
        super().__init__()
        self.limit = threshold() if limit is None else limit
        self.redact = redact
        self.size = 0
        self.spooled: Spooled | None = None
        self._file: object = None
        self._pending = b""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._head: list[str] = []
        self._head_numbers: list[int] = []
        self._head_chars = 0
        self._head_done = False
        self._tail: deque[tuple[int, str]] = deque()
        self._tail_chars = 0
        self._diag: list[tuple[int, str]] = []
        self._diag_chars = 0
        self._sample_nonblank = 0
        self._midline = False

    # ------------------------------------------------------------------ input

    def feed_bytes(self, channel: int, data: bytes) -> None:
        self.size += len(data)
        if self.spooled is None:
            super().feed_bytes(channel, data)
            if self.size > self.limit:
                self._start_spool()
            return
        self._pending += data
        self._drain(final=False)

    def feed(self, channel: int, text: str) -> None:
        if self.spooled is None:
            super().feed(channel, text)

    # ---------------------------------------------------------------- spooling

    def _start_spool(self) -> None:
        from tokenjuice.store import spool

        try:
            self._file, path = spool.create()
            self.spooled = Spooled(path)
        except OSError as exc:
            self.spooled = Spooled(None)
            self._give_up(exc)
        self._pending = b"".join(self.raw)
        # What was kept in memory so far is replaced by the sample.
        self.raw = []
        self.parts = []
        self.out = []
        self.err = []
        self.interleave = []
        self._drain(final=False)

    def _drain(self, *, final: bool) -> None:
        data = self._pending
        if final:
            cut = len(data)
        else:
            cut = data.rfind(b"\n") + 1
            if cut <= 0:
                if len(data) < (1 << 20):
                    return
                cut = _line_cut(data)  # a 1 MB line: cut it anyway, between fields
            begin = data.rfind(b"-----BEGIN", 0, cut)
            if begin >= 0 and data.find(b"-----END", begin) < 0 and cut - begin < _PEM_HOLD_BYTES:
                cut = data.rfind(b"\n", 0, begin) + 1
                if cut <= 0:
                    return
        chunk, self._pending = data[:cut], data[cut:]
        if not chunk:
            return
        if self.redact is not None:
            chunk = self.redact(chunk)
        assert self.spooled is not None
        if self._file is not None:
            try:
                self._file.write(chunk)  # type: ignore[attr-defined]
            except OSError as exc:
                self._give_up(exc)
        self.spooled.total_bytes += len(chunk)
        self._observe(self._decoder.decode(chunk, final=final))

    def _observe(self, text: str) -> None:
        """Count lines; keep the head, the tail and diagnostic lines from the middle."""
        if not text:
            return
        assert self.spooled is not None
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        # A line longer than a chunk arrives in pieces: count it once.
        continued = self._midline and bool(lines)
        self._midline = not text.endswith("\n")
        # The number of the first line here (a continued line keeps its number).
        first = self.spooled.total_lines + (0 if continued else 1)
        self.spooled.total_lines += len(lines) - (1 if continued else 0)
        if not self._head_done:
            take = 0
            for ln in lines:
                if self._head_chars >= HEAD_CHARS:
                    self._head_done = True
                    break
                self._head.append(ln[:MAX_LINE_CHARS])
                self._head_numbers.append(first + take)
                self._head_chars += len(ln) + 1
                take += 1
            lines = lines[take:]
            first += take
            if not lines:
                return
        from tokenjuice.reduction import signals

        # Lines leaving the tail window are the middle: keep their diagnostic lines.
        # The tail is the last lines within TAIL_CHARS (at least one); only those are
        # held with their numbers, the lines that pass through go straight to `leaving`.
        cut, used = len(lines), 0
        while cut > 0 and used + len(lines[cut - 1]) + 1 <= TAIL_CHARS:
            cut -= 1
            used += len(lines[cut]) + 1
        cut = min(cut, len(lines) - 1)
        numbers: list[int] = []
        leaving: list[str] = []
        while self._tail and (cut > 0 or self._tail_chars + used > TAIL_CHARS):
            n, old = self._tail.popleft()
            self._tail_chars -= len(old) + 1
            numbers.append(n)
            leaving.append(old)
        pushed = len(leaving)
        leaving += lines[:cut]
        for k in range(cut, len(lines)):
            self._tail.append((first + k, lines[k][:MAX_LINE_CHARS]))
            self._tail_chars += len(lines[k]) + 1
        if leaving:
            hits = signals.find(leaving, locations=True)
            for i in sorted(hits):
                self.spooled.diag_seen += 1
                if len(self._diag) < MAX_DIAG_LINES and self._diag_chars < MAX_DIAG_CHARS:
                    n = numbers[i] if i < pushed else first + i - pushed
                    self._diag.append((n, leaving[i][:MAX_LINE_CHARS]))
                    self._diag_chars += len(leaving[i]) + 1

    def _give_up(self, exc: OSError) -> None:
        """The spool file cannot be written: drop it and keep only the sample."""
        from tokenjuice import _log

        assert self.spooled is not None
        self.spooled.lost = exc.strerror or str(exc)
        _log.warn(f"the full output cannot be kept ({self.spooled.lost}); reducing it from a sample only")
        self._close_file()
        self.discard()
        self.spooled.path = None

    def _close_file(self) -> None:
        f, self._file = self._file, None
        if f is not None:
            try:
                f.close()  # type: ignore[attr-defined]
            except OSError as exc:  # the last buffered bytes did not fit either
                if self.spooled is not None and self.spooled.lost is None:
                    self._give_up(exc)

    # ------------------------------------------------------------------ output

    def to_run(self, **kw: object) -> ToolRun:
        if self.spooled is None:
            return super().to_run(**kw)
        self._drain(final=True)
        self._close_file()
        rest = [*self._diag, *self._tail]
        sample = [*self._head, *(ln for _, ln in rest)]
        st = self.spooled
        st.numbers = [*self._head_numbers, *(n for n, _ in rest)]
        st.diag_kept = len(self._diag)
        st.missing_lines = max(0, st.total_lines - len(sample))
        text = "\n".join(sample) + "\n"
        run = ToolRun(combined=text, stdout=text, stderr="", **kw)  # type: ignore[arg-type]
        run.metadata["spooled"] = st
        return run

    def discard(self) -> None:
        """Remove the spool file (after it was stored, or when storing failed)."""
        if self.spooled is not None and self.spooled.path is not None:
            self._close_file()
            try:  # noqa: SIM105 - contextlib is an import this path does without
                os.unlink(self.spooled.path)
            except OSError:
                pass
