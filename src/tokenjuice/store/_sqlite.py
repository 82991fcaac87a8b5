"""SQLite for the store: `sqlite3`'s `connect`, connections, rows and errors, through
`tokenjuice._compat` (without the package's date adapters where it can)."""

from __future__ import annotations

from tokenjuice._compat import sqlite3_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
else:
    sqlite3 = sqlite3_module()

__all__ = ["sqlite3"]
