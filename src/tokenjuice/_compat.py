"""CPython's private C modules, where the public module costs a per-call path more.

Each is used only on CPython (`PRIVATE`) and falls back to the public module when
absent or elsewhere, so the package runs on any implementation; tests run both paths.

- `_json`: the json package imports `re`, which a hook call otherwise never needs;
- `_sha2` (`_sha256` before 3.12): `hashlib` loads OpenSSL, which costs more than
  hashing a typical output;
- `_sqlite3`: the `sqlite3` package registers date adapters, importing `datetime`.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

PRIVATE = sys.implementation.name == "cpython"


def json_c(private: bool = PRIVATE) -> Any:
    """json's C accelerator (`make_scanner`, `make_encoder`, `encode_basestring`), or
    None: then callers use the json package."""
    if not private:
        return None
    try:
        import _json  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return _json


def sha256(private: bool = PRIVATE) -> Any:
    """A new SHA-256 hasher (`update`, `hexdigest`) for data under about a megabyte;
    OpenSSL's (hashlib) is faster on more, once loaded."""
    if private:
        name = "_sha2" if sys.version_info >= (3, 12) else "_sha256"
        try:
            module = __import__(name)
        except ImportError:
            pass
        else:
            return module.sha256()
    import hashlib

    return hashlib.sha256()


def sqlite3_module(private: bool = PRIVATE) -> ModuleType:
    """What `import sqlite3` gives for `connect`, connections, rows and errors (the
    store never hands dates to SQLite)."""
    if private:
        try:
            import _sqlite3
        except ImportError:
            pass
        else:
            return _sqlite3
    import sqlite3

    return sqlite3
