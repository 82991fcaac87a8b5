"""Line selection over a stream of byte chunks (for `cat --lines/--head/--tail`).

Lines are split on b"\\n" and returned with their line endings, so a selection is a
byte-exact excerpt of the stored output.
"""

from __future__ import annotations

from collections import deque

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator


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
