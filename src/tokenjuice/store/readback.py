"""Reading a stored output back: line ranges, capped slices, and grep with a time bound.

The one implementation behind `tokenjuice cat`, `tokenjuice grep` and the MCP tool
`read_output`. Lines are split on b"\\n" and keep their line endings, so a byte
selection is an exact excerpt of the stored output; the text forms decode it as UTF-8
with replacement characters.
"""

from __future__ import annotations

from collections import deque

from tokenjuice import _re as re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

# A line one reply shows in full at most; a longer one is cut with this mark.
LINE_CUT = "…[line cut]"
# One grep record: (line number, ":" for a match or "-" for context, text);
# (0, "--", "") divides groups of context, as in grep(1).
Record = tuple[int, str, str]
DIVIDER: Record = (0, "--", "")


class RangeSyntaxError(ValueError):
    """A line range that is not "A-B", "A-", "-B" or "A"."""


class EmptyRangeError(ValueError):
    """A line range that selects nothing or starts before line 1."""


class PatternError(ValueError):
    """A search pattern that does not compile; the message is the compiler's."""


class SearchTimeout(Exception):
    """The pattern used up the search's time limit."""


# ------------------------------------------------------------------ line ranges


def parse_range(spec: str) -> tuple[int, int | None]:
    """`"A-B"` → (A, B); `"A-"` → (A, None); `"-B"` → (1, B); `"A"` → (A, A)."""
    m = re.fullmatch(r"\s*(\d*)\s*(-?)\s*(\d*)\s*", spec)
    if m is None or not (m.group(1) or m.group(3)):
        raise RangeSyntaxError(spec)
    a, dash, b = m.groups()
    start = int(a) if a else 1
    end = int(b) if b else (None if dash else start)
    if start < 1 or (end is not None and end < start):
        raise EmptyRangeError(spec)
    return start, end


# ---------------------------------------------------------------- byte lines


def iter_lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    rest = b""
    for chunk in chunks:
        data = rest + chunk
        parts = data.split(b"\n")
        rest = parts.pop()
        for p in parts:
            yield p + b"\n"
    if rest:
        yield rest


def select_lines(
    chunks: Iterable[bytes], *, start: int = 1, end: int | None = None, head: int | None = None, tail: int | None = None
) -> Iterator[bytes]:
    if tail is not None:
        yield from deque(iter_lines(chunks), maxlen=tail) if tail else ()
        return
    if head is not None:
        end = head
        start = 1
    for n, line in enumerate(iter_lines(chunks), start=1):
        if end is not None and n > end:
            return
        if n >= start:
            yield line


def numbered(chunks: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    yield from enumerate(iter_lines(chunks), start=1)


def decoded(chunks: Iterable[bytes]) -> Iterator[tuple[int, str]]:
    """(line number, text with its line ending) of each line."""
    for n, raw in numbered(chunks):
        yield n, raw.decode("utf-8", "replace")


class Cursor:
    """`decoded` lines that remember the number of the last one handed out: the line
    a search stopped at, or, once drained, the total."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._lines = decoded(chunks)
        self.at = 0

    def __iter__(self) -> Cursor:
        return self

    def __next__(self) -> tuple[int, str]:
        n, line = next(self._lines)
        self.at = n
        return n, line

    def drain(self) -> int:
        """Read the rest; the total number of lines."""
        for _ in self:
            pass
        return self.at


# ---------------------------------------------------------------- text slices


class _Taker:
    """Collects lines until the character cap; remembers what it left out."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.first: int | None = None
        self.last: int | None = None
        self.full = False

    def take(self, n: int, text: str) -> bool:
        """Add line `n`; False (and `full`) once it does not fit."""
        if self.full:
            return False
        if self.size + len(text) > self.cap:
            self.full = True
            if self.parts:
                return False
            # A single line longer than the cap: its start is better than nothing.
            text = text[: self.cap] + LINE_CUT + "\n"
        self.parts.append(text)
        self.size += len(text)
        if self.first is None:
            self.first = n
        self.last = n
        return not self.full

    def text(self) -> str:
        return "".join(self.parts)


def read_slice(
    chunks: Iterable[bytes], *, start: int = 1, end: int | None = None, tail: int | None = None, cap: int
) -> tuple[str, int | None, int | None, int, bool]:
    """(text, first shown, last shown, total lines, truncated) of lines start..end, or the last `tail`."""
    total = 0
    if tail is not None:
        window: deque[tuple[int, str]] = deque()
        size = 0
        for n, line in decoded(chunks):
            total = n
            window.append((n, line))
            size += len(line)
            # Keep only what could still be returned: the last `tail` lines within the cap.
            while window and (len(window) > tail or (size > cap and len(window) > 1)):
                size -= len(window.popleft()[1])
        if not window or tail == 0:
            return "", None, None, total, False
        if size > cap:  # one line longer than the cap
            n, line = window[0]
            return line[:cap] + LINE_CUT + "\n", n, n, total, True
        first = window[0][0]
        return "".join(line for _, line in window), first, window[-1][0], total, first > max(1, total - tail + 1)
    taker = _Taker(cap)
    cut = False
    for n, line in decoded(chunks):
        total = n
        if n < start or (end is not None and n > end):
            continue
        if not taker.take(n, line):
            cut = True
    return taker.text(), taker.first, taker.last, total, cut or taker.full


# ------------------------------------------------------------------------ grep


def searcher(pattern: str, *, ignore_case: bool, limit_s: float, bound_all: bool = False) -> Callable[[str], bool]:
    """`line -> matched`, sharing one deadline of `limit_s` across the whole search and
    raising `SearchTimeout` past it. Only a pattern that could backtrack catastrophically
    is bounded, unless `bound_all`; a pattern that does not compile raises `PatternError`."""
    import time

    if not bound_all:
        from tokenjuice.backtrack import risk

        flags = re.IGNORECASE if ignore_case else 0
        if risk(pattern, flags) is None:
            try:
                search = re.compile(pattern, flags).search
            except re.error as exc:
                raise PatternError(str(exc)) from None
            return lambda line: search(line) is not None
    import regex

    try:
        rx = regex.compile(pattern, (regex.IGNORECASE if ignore_case else 0) | regex.VERSION0)
    except regex.error as exc:
        raise PatternError(str(exc)) from None
    deadline = time.monotonic() + limit_s

    def bounded(line: str) -> bool:
        left = deadline - time.monotonic()
        try:
            if left > 0:
                return rx.search(line, timeout=left) is not None
        except TimeoutError:
            pass
        raise SearchTimeout

    return bounded


def grep_groups(lines: Iterable[tuple[int, str]], hit: Callable[[str], bool], context: int) -> Iterator[list[Record]]:
    """The output of a search over numbered lines (with or without line endings), one
    group at a time: a match with the context before it (and a divider when the group
    does not follow the last line shown), or one line of context after a match."""
    before: deque[tuple[int, str]] = deque(maxlen=context or None)
    after = 0
    last_shown = 0
    for n, raw in lines:
        line = raw[:-1] if raw.endswith("\n") else raw
        if hit(line):
            group: list[Record] = [(bn, "-", bl) for bn, bl in before]
            before.clear()
            group.append((n, ":", line))
            if context and last_shown and group[0][0] > last_shown + 1:
                group.insert(0, DIVIDER)
            yield group
            last_shown = n
            after = context
        elif after > 0:
            yield [(n, "-", line)]
            last_shown = n
            after -= 1
        elif context:
            before.append((n, line))


def format_record(record: Record) -> str:
    n, sep, text = record
    return "--\n" if record == DIVIDER else f"{n}{sep}{text}\n"
