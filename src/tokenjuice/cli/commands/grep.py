"""`tokenjuice grep ID PATTERN [-C N]`: search a stored output, with line numbers.

A pattern the backtracking check (`tokenjuice.backtrack`) proves safe runs in `re`;
any other runs in the `regex` module under `--time-limit` seconds for the whole
search, and a search cut short says so on stderr and exits 2 (as grep does on trouble).
"""

from __future__ import annotations

import argparse
import sys

from tokenjuice import _re as re
from tokenjuice.cli.main import UserError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

DEFAULT_TIME_LIMIT_S = 10.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help="artifact id (or a unique prefix)")
    p.add_argument("pattern", metavar="PATTERN", help="regular expression (Python syntax)")
    p.add_argument("-C", "--context", type=int, default=0, metavar="N", help="N lines of context around matches")
    p.add_argument("-i", "--ignore-case", action="store_true")
    p.add_argument("-m", "--max-count", type=int, default=500, metavar="N", help="stop after N matches (default 500)")
    p.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT_S,
        metavar="S",
        help=f"give up a pattern that could backtrack after S seconds (default {DEFAULT_TIME_LIMIT_S:g})",
    )


class SearchTimeout(Exception):
    """The pattern used up the search's time limit."""


def matcher(pattern: str, ignore_case: bool, limit_s: float) -> Callable[[str], bool]:
    """`line -> matched`; a pattern that could backtrack catastrophically shares one
    deadline across the whole search and raises `SearchTimeout` past it."""
    import time

    from tokenjuice.backtrack import risk

    flags = re.IGNORECASE if ignore_case else 0
    if risk(pattern, flags) is None:
        try:
            search = re.compile(pattern, flags).search
        except re.error as exc:
            raise UserError(f"invalid pattern {pattern!r}: {exc}") from None
        return lambda line: search(line) is not None
    import regex

    try:
        rx = regex.compile(pattern, (regex.IGNORECASE if ignore_case else 0) | regex.VERSION0)
    except regex.error as exc:
        raise UserError(f"invalid pattern {pattern!r}: {exc}") from None
    deadline = time.monotonic() + limit_s

    def bounded(line: str) -> bool:
        left = deadline - time.monotonic()
        try:
            if left > 0:
                return rx.search(line, timeout=left) is not None
        except TimeoutError:
            pass
        raise SearchTimeout

    return bounded


def run(args: argparse.Namespace) -> int:
    from collections import deque

    from tokenjuice.cli.commands.cat import open_artifact
    from tokenjuice.store.artifacts import Store, StoreError
    from tokenjuice.store.slicing import numbered

    if args.context < 0:
        raise UserError("-C takes a non-negative number")
    if not 0 < args.time_limit < float("inf"):
        raise UserError(f"--time-limit must be a positive number of seconds, not {args.time_limit:g}")
    hit = matcher(args.pattern, args.ignore_case, args.time_limit)
    store, aid = open_artifact(args.id)
    assert isinstance(store, Store)
    out = sys.stdout
    ctx = args.context
    before: deque[tuple[int, str]] = deque(maxlen=ctx)
    after = 0
    last_printed = 0
    matches = 0
    n = 0
    try:
        for n, raw in numbered(store.iter_bytes(aid)):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if hit(line):
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
    except StoreError as exc:
        raise UserError(str(exc)) from None
    except SearchTimeout:
        out.flush()
        raise UserError(
            f"search stopped at line {n} after {args.time_limit:g}s: the pattern backtracks too much on this output"
            f" ({matches} matching line{'s' if matches != 1 else ''} shown); simplify it or raise --time-limit"
        ) from None
    return 0 if matches else 1
