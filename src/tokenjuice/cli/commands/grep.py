"""`tokenjuice grep ID PATTERN [-C N]`: search a stored output, with line numbers.

A pattern the backtracking check (`tokenjuice.backtrack`) proves safe runs in `re`;
any other runs in the `regex` module under `--time-limit` seconds for the whole
search, and a search cut short says so on stderr and exits 2 (as grep does on trouble).
"""

from __future__ import annotations

import argparse
import sys

from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import flag, positional, value

DEFAULT_TIME_LIMIT_S = 10.0


OPTIONS = (
    positional("id", metavar="ID", help="artifact id (or a unique prefix)"),
    positional("pattern", metavar="PATTERN", help="regular expression (Python syntax)"),
    value("-C", "--context", convert=int, default=0, metavar="N", help="N lines of context around matches"),
    flag("-i", "--ignore-case"),
    value("-m", "--max-count", convert=int, default=500, metavar="N", help="stop after N matches (default 500)"),
    value(
        "--time-limit",
        convert=float,
        default=DEFAULT_TIME_LIMIT_S,
        metavar="S",
        help=f"give up a pattern that could backtrack after S seconds (default {DEFAULT_TIME_LIMIT_S:g})",
    ),
)


def run(args: argparse.Namespace) -> int:
    from tokenjuice.cli.commands.cat import open_artifact
    from tokenjuice.store.artifacts import Store, StoreError
    from tokenjuice.store.readback import (
        Cursor,
        PatternError,
        SearchTimeout,
        format_record,
        grep_groups,
        searcher,
    )

    if args.context < 0:
        raise UserError("-C takes a non-negative number")
    if not 0 < args.time_limit < float("inf"):
        raise UserError(f"--time-limit must be a positive number of seconds, not {args.time_limit:g}")
    try:
        hit = searcher(args.pattern, ignore_case=args.ignore_case, limit_s=args.time_limit)
    except PatternError as exc:
        raise UserError(f"invalid pattern {args.pattern!r}: {exc}") from None
    store, aid = open_artifact(args.id)
    assert isinstance(store, Store)
    out = sys.stdout
    matches = 0
    lines = Cursor(store.iter_bytes(aid))
    try:
        for group in grep_groups(lines, hit, args.context):
            out.write("".join(map(format_record, group)))
            if group[-1][1] == ":":
                matches += 1
                if matches >= args.max_count:
                    out.write(f"[stopped after {matches} matches; use -m to see more]\n")
                    break
    except StoreError as exc:
        raise UserError(str(exc)) from None
    except SearchTimeout:
        out.flush()
        raise UserError(
            f"search stopped at line {lines.at} after {args.time_limit:g}s: the pattern backtracks too much on this"
            f" output ({matches} matching line{'s' if matches != 1 else ''} shown); simplify it or raise --time-limit"
        ) from None
    return 0 if matches else 1
