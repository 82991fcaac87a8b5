"""Binary output (an image, an archive, random bytes printed to a terminal) is not text
for a model: it is summarised by its size and kind, and kept whole in the store."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

SAMPLE_CHARS = 8192
# Share of undecodable or control characters in the sample above which output is binary.
BINARY_RATIO = 0.3

# Leading bytes of common formats (as decoded with errors="replace").
_MAGIC = (
    ("\x89PNG", "PNG image"),
    ("\ufffdPNG", "PNG image"),
    ("GIF8", "GIF image"),
    ("\ufffd\ufffd\ufffd", "binary data"),
    ("%PDF", "PDF document"),
    ("PK\x03\x04", "zip archive"),
    ("\x1f\ufffd\x08", "gzip data"),
    ("\x7fELF", "ELF executable"),
    ("SQLite format 3", "SQLite database"),
)


_BAD: re.Pattern[str] | None = None


def is_binary(text: str) -> bool:
    global _BAD
    sample = text[:SAMPLE_CHARS]
    if len(sample) < 32:
        return False
    if _BAD is None:
        from tokenjuice import _re as re

        _BAD = re.compile("[\x00-\x06\x0e-\x1a\x1c-\x1f\x7f\ufffd]")
    bad = _BAD.subn("", sample)[1]
    return bad / len(sample) > BINARY_RATIO


def describe(text: str, raw_bytes: bytes | None) -> str:
    """`PNG image, 20,412 bytes` and the like."""
    from tokenjuice.tokens import utf8_len

    size = len(raw_bytes) if raw_bytes is not None else utf8_len(text)
    kind = "binary data"
    head = raw_bytes[:16].decode("latin-1") if raw_bytes is not None else text[:16]
    for magic, name in _MAGIC:
        if head.startswith(magic) or text.startswith(magic):
            kind = name
            break
    return f"{kind}, {size:,} bytes"
