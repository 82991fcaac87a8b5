"""Long service logs (app logs, journalctl): problems in full, routine lines counted.

A record starts with a timestamp (ISO `2026-01-01 12:00:00`, `[2026-01-01T…]`, or the
syslog/journal `Jan 01 12:00:00 host unit[pid]:`); lines without one continue the
previous record (tracebacks, stack traces). Records at WARN level or worse — or,
without a level, records whose text reads as an error or warning — stay with their
continuation lines (caret markers go). INFO/DEBUG records are counted per level and
component (`[name]`, or the syslog identifier) in a summary; the first and last few
records stay for context.
"""

from __future__ import annotations

from collections import deque

from tokenjuice import _re as re
from tokenjuice.reduction import signals
from tokenjuice.reduction.formatters import FormatContext, FormatInput, FormatOutput, read_at_once
from tokenjuice.reduction.formatters._common import Builder, matches_by_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

ISO_RE = re.compile(r"^\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d")
SYSLOG_RE = re.compile(
    r"^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}) (\S+) ([^\s:\[]+)(?:\[\d+\])?: "
)
LEVEL_RE = re.compile(
    r"\b(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|SEVERE|CRITICAL|CRIT|FATAL|PANIC|ALERT|EMERG)\b"
    r"|\blevel=(trace|debug|info|notice|warn|warning|error|fatal|panic)\b",
    re.IGNORECASE,
)
# LEVEL_RE for upper-cased ASCII text: the same matches, without a case-insensitive
# alternation, which `re` tries letter by letter at every position.
_LEVEL_UPPER_RE = re.compile(
    r"\b(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|SEVERE|CRITICAL|CRIT|FATAL|PANIC|ALERT|EMERG)\b"
    r"|\bLEVEL=(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|PANIC)\b"
)
COMPONENT_RE = re.compile(r"\[([A-Za-z][\w.\-/]*)\]")
MARK_RE = re.compile(r"^\s*[\^~]+\s*$")
SEVERE = {"WARN", "WARNING", "ERROR", "ERR", "SEVERE", "CRITICAL", "CRIT", "FATAL", "PANIC", "ALERT", "EMERG"}
ERRORS = SEVERE - {"WARN", "WARNING"}
CONTEXT = 3
MIN_RECORDS = 40
SUMMARY_GROUPS = 12


# The common record shape, matched in bulk: `2026-03-01 12:00:00.123 INFO  [http] …`.
# What LEVEL_RE and COMPONENT_RE would find in such a line is exactly its level and
# component (nothing before the level can hold a level word, the component ends well
# within the first 160 characters), so a run of routine records with the same level
# and component is counted with one regex step and no Python per line.
_TS = r"\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]?[ \t]{1,4}\[?"
_RUN_RE = re.compile(
    rf"\n{_TS}(?P<lvl>(?i:TRACE|DEBUG|INFO|NOTICE))\b\]?[ \t]{{1,4}}\[(?P<comp>[A-Za-z][\w.\-/]{{0,89}})\][^\n]*"
    # Possessive: nothing follows, and `re` then keeps no state per repeat to give back.
    rf"(?:\n{_TS}(?P=lvl)\b\]?[ \t]{{1,4}}\[(?P=comp)\][^\n]*)*+"
)
ROUTINE = "routine records (counted)"


class _Record:
    """One record: its first line, the lines continuing it, and what it is."""

    __slots__ = ("label", "lines", "severe")

    def __init__(self, lines: list[tuple[str, int]], label: tuple[str, str], severe: bool) -> None:
        self.lines = lines  # (text, weight)
        self.label = label  # (level, component)
        self.severe = severe


class BatchReader:
    """Records are decided as they complete: the first CONTEXT are kept, the last
    CONTEXT wait in `pending` until the end, and the rest are kept when severe and
    counted otherwise; routine runs in the common shape are counted in bulk."""

    def __init__(self, ctx: FormatContext) -> None:
        self.syslog = ctx.options.get("style") == "syslog"
        self.b = Builder((), ())
        self.records = 0
        self.errors = 0
        self.warnings = 0
        self.counts: dict[tuple[str, str], int] = {}
        self.open: list[tuple[str, int]] | None = None  # the record being read
        self.open_k = -1  # where `open` starts in the batch being read (-1: an earlier one)
        self.batch: list[str] = []  # the lines being read
        self.worded: set[int] | None = None  # `signals.worded(batch)`, once asked for
        self.pending: deque[_Record] = deque()

    @property
    def accepted(self) -> bool:
        return self.records >= MIN_RECORDS

    def feed(self, lines: list[str], weights: list[int]) -> None:
        self.batch = lines
        try:
            self._feed(lines, weights)
        finally:
            self.batch, self.worded, self.open_k = [], None, -1

    def _feed(self, lines: list[str], weights: list[int]) -> None:
        done = 0
        if not self.syslog:
            for at, m in matches_by_line(_RUN_RE, lines):
                n = m.group(0).count("\n")
                # The last record may go on in continuation lines: read it line by line.
                if at + n >= len(lines) or not _starts(lines[at + n], False):
                    n -= 1
                # The first CONTEXT records are kept: those are read line by line.
                need = CONTEXT - self.records - (self.open is not None)
                skip = max(0, need - _records_in(lines, done, at)) if need > 0 else 0
                if n - skip <= 0:
                    continue
                self._lines(lines, weights, done, at + skip)
                self._run(lines, weights, at + skip, n - skip, (m.group("lvl").upper(), m.group("comp")))
                done = at + n
        self._lines(lines, weights, done, len(lines))

    def _lines(self, lines: list[str], weights: list[int], start: int, stop: int) -> None:
        syslog = self.syslog
        for k in range(start, stop):
            line = lines[k]
            if _starts(line, syslog):
                if self.open is not None:
                    self._close(self.open, self.open_k)
                self.open = [(line, weights[k])]
                self.open_k = k
            elif self.open is not None:
                self.open.append((line, weights[k]))
            else:
                self.b.keep_line(line, weights[k])  # before the first record

    def _run(self, lines: list[str], weights: list[int], at: int, n: int, label: tuple[str, str]) -> None:
        """Records at..at+n-1: routine, one line each, all with `label`."""
        if self.open is not None:
            self._close(self.open, self.open_k)
            self.open = None
        tail = min(n, CONTEXT)
        bulk = n - tail
        for _ in range(max(0, len(self.pending) + tail - CONTEXT)):
            self._decide(self.pending.popleft())
        if bulk:
            w = sum(weights[at : at + bulk])
            self.counts[label] = self.counts.get(label, 0) + w
            self.b.drop_weight(ROUTINE, w)
        for k in range(at + bulk, at + n):
            self.pending.append(_Record([(lines[k], weights[k])], label, False))
        self.records += n

    def _close(self, rec_lines: list[tuple[str, int]], k: int = -1) -> None:
        """The record `rec_lines` is complete (its first line is line k of the batch,
        if it started in this one)."""
        # Asked only for a record without a level; not known (True: read in full) for
        # one that started in an earlier batch.
        rec = _classify(rec_lines, self.syslog, (lambda: self._worded(k)) if k >= 0 else _yes)
        if rec.severe:
            if rec.label[0] in ERRORS:
                self.errors += 1
            else:
                self.warnings += 1
        self.records += 1
        if self.records <= CONTEXT:
            self._emit(rec)
            return
        self.pending.append(rec)
        if len(self.pending) > CONTEXT:
            self._decide(self.pending.popleft())

    def _worded(self, k: int) -> bool:
        """Does line k of the batch hold an error or warning word (`signals.worded`)?"""
        if self.worded is None:
            self.worded = signals.worded(self.batch)
        return k in self.worded

    def _decide(self, rec: _Record) -> None:
        """A record in the middle: shown when severe, counted otherwise."""
        if rec.severe:
            self._emit(rec)
            return
        self.counts[rec.label] = self.counts.get(rec.label, 0) + rec.lines[0][1]
        b = self.b
        for _, w in rec.lines:
            b.drop_weight(ROUTINE, w)

    def _emit(self, rec: _Record) -> None:
        b = self.b
        (first, w), *rest = rec.lines
        b.keep_line(first, w, protect=rec.severe)
        for line, w in rest:
            if MARK_RE.match(line):
                b.drop_weight("markers", w)
            else:
                b.keep_line(line, w, protect=rec.severe)

    def finish(self) -> FormatOutput | None:
        if self.open is not None:
            self._close(self.open)
            self.open = None
        if self.records < MIN_RECORDS:
            return None
        while self.pending:
            self._emit(self.pending.popleft())
        b = self.b
        if self.counts:
            ranked = sorted(self.counts.items(), key=lambda kv: -kv[1])
            parts = [f"{lvl} {comp} ×{n:,}" for (lvl, comp), n in ranked[:SUMMARY_GROUPS]]
            rest = sum(n for _, n in ranked[SUMMARY_GROUPS:])
            if rest:
                parts.append(f"other ×{rest:,}")
            b.add(f"routine records not shown: {'; '.join(parts)}")
        b.facts["record"] = self.records
        if self.errors:
            b.facts["error"] = self.errors
        if self.warnings:
            b.facts["warning"] = self.warnings
        return b.build(final=True)


def _records_in(lines: list[str], start: int, stop: int) -> int:
    """How many records start on lines start..stop (only asked while under CONTEXT)."""
    return sum(1 for k in range(start, stop) if ISO_RE.match(lines[k]))


def _starts(line: str, syslog: bool) -> bool:
    """Does a record start on this line (a timestamp first)?"""
    return bool((SYSLOG_RE.match(line) if syslog else ISO_RE.match(line)) or (syslog and ISO_RE.match(line)))


def _level(text: str) -> tuple[str, int]:
    """The first level word in `text` (upper-cased; "" for none) and where it ends."""
    m = _LEVEL_UPPER_RE.search(text.upper()) if text.isascii() else LEVEL_RE.search(text)
    return ((m.group(1) or m.group(2)).upper(), m.end()) if m else ("", 0)


def _yes() -> bool:
    return True


def _classify(rec_lines: list[tuple[str, int]], syslog: bool, worded: Callable[[], bool] = _yes) -> _Record:
    """Level and component of a record, and whether it is a problem. When `worded()`
    is False, its first line holds no error or warning word (see `signals.worded`)."""
    ln = rec_lines[0][0]
    level = ""
    if syslog:
        m = SYSLOG_RE.match(ln)
        comp = m.group(2) if m else "?"
        body = ln[m.end() :] if m else ln
        level, _ = _level(body[:80])
    else:
        head = ln[:160]
        level, end = _level(head)
        cm = COMPONENT_RE.search(head, end)
        comp = cm.group(1) if cm else "-"
        body = ln
    if level:
        bad = level in SEVERE
    elif body[:1] != "E" and len(body) <= signals.SCAN_HEAD + signals.SCAN_TAIL and not worded():
        # What `is_error_or_warning` would say, without asking: no word, no `E` line.
        bad, level = False, "INFO"
    else:
        bad = signals.is_error_or_warning(body)
        level = "ERROR" if bad and signals.is_error(body) else ("WARN" if bad else "INFO")
    bad = bad or any(line.strip().startswith("Traceback") for line, _ in rec_lines[1:])
    return _Record(rec_lines, (level, comp), bad)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    return read_at_once(BatchReader, fi)
