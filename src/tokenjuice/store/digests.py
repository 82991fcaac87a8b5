"""Artifact ids, hashing and compression: what a stored output's bytes become.

An artifact's id is the first `ID_LEN` hex digits of the SHA-256 of its bytes; the
full digest is kept to check every read. Bodies above `COMPRESS_ABOVE` bytes are
zlib-compressed at the fastest level.
"""

from __future__ import annotations

import zlib

from tokenjuice.store.errors import DamagedArtifact

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

ID_LEN = 12
COMPRESS_ABOVE = 4096
# zlib's fastest level: a fifth larger than level 6 on tool output, three times faster.
LEVEL = 1
# Below this size, a 16 KB window and a quarter of the default hash memory: the
# compressor takes 0.13 MB instead of 0.3 (most of what storing a 100 KB output
# allocated), and its output is 2-3% larger on tool output, sometimes smaller.
SMALL_COMPRESS = 1 << 20


def compressor(size: int) -> Any:
    if size < SMALL_COMPRESS:
        return zlib.compressobj(LEVEL, zlib.DEFLATED, 14, 4)
    return zlib.compressobj(LEVEL)


# `utf8_slices` encodes this many characters at a time (at most four times that in bytes).
TEXT_SLICE = 64 * 1024


def sha256(data: bytes = b"") -> Any:
    """A SHA-256 hasher fed `data` (see `hasher`)."""
    h = hasher(len(data))
    h.update(data)
    return h


def hasher(size: int) -> Any:
    """A SHA-256 hasher for about `size` bytes. `hashlib` loads OpenSSL, which costs more
    than hashing a typical output; CPython's own implementation does below a megabyte
    (OpenSSL is faster above)."""
    if size < (1 << 20):
        from tokenjuice import _compat

        return _compat.sha256()
    import hashlib

    return hashlib.sha256()


def utf8_slices(text: str) -> Iterator[bytes]:
    """`text` encoded as UTF-8 (lone surrogates kept), TEXT_SLICE characters at a time."""
    for i in range(0, len(text), TEXT_SLICE):
        yield text[i : i + TEXT_SLICE].encode("utf-8", "surrogatepass")


def artifact_id(data: bytes) -> str:
    return str(sha256(data).hexdigest()[:ID_LEN])


def check(aid: str, digest: str, size: int, got_digest: str, got_size: int) -> None:
    """Raise `DamagedArtifact` unless the bytes read are the bytes stored."""
    if got_size != size:
        raise DamagedArtifact(aid, f"{got_size:,} bytes where {size:,} were stored")
    if got_digest != digest:
        raise DamagedArtifact(aid)
