"""`tokenjuice prune`: delete stored outputs past their retention (age, total size),
and the spool files a killed `wrap` left behind."""

from __future__ import annotations

import argparse
import math
import sys

from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import flag, value

OPTIONS = (
    value("--older-than", convert=float, metavar="DAYS", help="remove outputs unused for DAYS (default 7)"),
    value("--max-size", convert=float, metavar="MB", help="then keep at most MB megabytes (default 256)"),
    flag("--all", help="remove every stored output"),
    value("--ledger-older-than", convert=float, metavar="DAYS", help="also delete ledger months older than DAYS"),
)


def run(args: argparse.Namespace) -> int:
    from tokenjuice.store import ledger
    from tokenjuice.store.artifacts import Store, StoreError

    for name in ("older_than", "max_size", "ledger_older_than"):
        v = getattr(args, name)
        if v is None:
            continue
        if not math.isfinite(v):  # nan: no comparison would ever act on it
            raise UserError(f"--{name.replace('_', '-')} must be a finite number, not {v:g}")
        if v < 0:
            raise UserError(f"--{name.replace('_', '-')} must not be negative")
    try:
        store = Store()
        removed, freed = store.prune(
            older_than_days=args.older_than,
            max_bytes=int(args.max_size * 1048576) if args.max_size is not None else None,
            everything=args.all,
        )
        count, _raw, stored = store.totals()
    except StoreError as exc:
        raise UserError(str(exc)) from None
    sys.stdout.write(
        f"removed {removed} stored outputs ({freed / 1048576:.1f} MB); {count} remain ({stored / 1048576:.1f} MB)\n"
    )
    from tokenjuice.store import spool

    orphans, orphan_bytes = spool.remove_orphans()
    if orphans:
        sys.stdout.write(
            f"removed {orphans} orphaned spool file{'s' if orphans != 1 else ''} ({orphan_bytes / 1048576:.1f} MB)\n"
        )
    if args.ledger_older_than is not None:
        n = ledger.prune(args.ledger_older_than)
        sys.stdout.write(f"removed {n} ledger files\n")
    return 0
