"""Where dropped output stays recoverable, and what savings were recorded.

* `artifacts`: the full raw output of lossy reductions, content-addressed in one SQLite
  database (WAL) under the XDG state directory, compressed when large, pruned by age
  and total size. `tokenjuice cat ID` reads one back byte for byte.
* `ledger`: one JSON line per reduction (append-only, lock-free), read by
  `tokenjuice stats` and `tokenjuice discover`.
* `report`: savings figures, the re-send model, discover's hints.
"""
