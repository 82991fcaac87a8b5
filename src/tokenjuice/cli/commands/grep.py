"""`tokenjuice grep ID PATTERN [-C N]`: search a stored output, with line numbers."""

from __future__ import annotations

import argparse
import sys

from tokenjuice import _re as re
from tokenjuice.cli.main import UserError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help="artifact id (or a unique prefix)")
    p.add_argument("pattern", metavar="PATTERN", help="regular expression (Python syntax)")
    p.add_argument("-C", "--context", type=int, default=0, metavar="N", help="N lines of context around matches")
    p.add_argument("-i", "--ignore-case", action="store_true")
    p.add_argument("-m", "--max-count", type=int, default=500, metavar="N", help="stop after N matches (default 500)")


def run(args: argparse.Namespace) -> int:
    from collections import deque

    from tokenjuice.cli.commands.cat import open_artifact
    from tokenjuice.store.artifacts import Store
    from tokenjuice.store.slicing import numbered

    try:
        rx = re.compile(args.pattern, re.IGNORECASE if args.ignore_case else 0)
    except re.error as exc:
        raise UserError(f"invalid pattern {args.pattern!r}: {exc}") from None
    if args.context < 0:
        raise UserError("-C takes a non-negative number")
    store, aid = open_artifact(args.id)
    assert isinstance(store, Store)
    out = sys.stdout
    ctx = args.context
    before: deque[tuple[int, str]] = deque(maxlen=ctx)
    after = 0
    last_printed = 0
    matches = 0
    for n, raw in numbered(store.iter_bytes(aid)):
        line = raw.decode("utf-8", "replace").rstrip("\n")
        if rx.search(line):
            matches += 1
            if last_printed and n - len(before) > last_printed + 1:
                out.write("--\n")
            for bn, bl in before:
                out.write(f"{bn}-{bl}\n")
            before.clear()
            out.write(f"{n}:{line}\n")
            last_printed = n
            after = ctx
            if matches >= args.max_count:
                out.write(f"[stopped after {matches} matches; use -m to see more]\n")
                break
        elif after > 0:
            out.write(f"{n}-{line}\n")
            last_printed = n
            after -= 1
        elif ctx:
            before.append((n, line))
    return 0 if matches else 1
