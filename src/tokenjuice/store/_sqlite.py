"""SQLite through `_sqlite3`, the C module the `sqlite3` package re-exports.

The same `connect`, connections, rows and errors (the very classes `sqlite3` exposes),
without the package's import: it registers date and time adapters, which imports
`datetime`, and in a one-shot CLI call that costs as much as storing a 100 KB output.
The store never hands dates to SQLite. Where the C module is not exposed under that
name, the package itself.
"""

from __future__ import annotations

try:
    import _sqlite3 as sqlite3
except ImportError:  # pragma: no cover - CPython builds it whenever sqlite3 works
    import sqlite3  # type: ignore[no-redef]

__all__ = ["sqlite3"]
