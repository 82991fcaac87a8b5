"""`tokenjuice cat ID [--lines A-B | --head N | --tail N]`: a stored output, byte for byte."""

from __future__ import annotations

import argparse
import sys

from tokenjuice._humanize import plural
from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import flag, positional, value

OPTIONS = (
    positional("id", metavar="ID", help="artifact id (or a unique prefix of at least 4 digits)"),
    value("--lines", metavar="A-B", exclusive="part", help="only lines A to B (1-based, inclusive; A- or -B open)"),
    value("--head", convert=int, metavar="N", exclusive="part", help="only the first N lines"),
    value("--tail", convert=int, metavar="N", exclusive="part", help="only the last N lines"),
    flag("--info", help="print what is known about the artifact instead"),
)


def parse_range(spec: str) -> tuple[int, int | None]:
    """`--lines` as (start, end or None); see `readback.parse_range`."""
    from tokenjuice.store import readback

    try:
        return readback.parse_range(spec)
    except readback.RangeSyntaxError:
        raise UserError(f"--lines takes A-B (e.g. 120-180), not {spec!r}") from None
    except readback.EmptyRangeError:
        raise UserError(f"--lines range {spec!r} is empty or starts before line 1") from None


def open_artifact(ident: str) -> tuple[object, str]:
    from tokenjuice.store.artifacts import Store, StoreError

    store = Store()
    try:
        return store, store.resolve(ident)
    except KeyError as exc:
        raise UserError(str(exc.args[0]) if exc.args else f"no artifact {ident!r}") from None
    except StoreError as exc:
        raise UserError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from tokenjuice.store.artifacts import Store, StoreError
    from tokenjuice.store.readback import select_lines

    if (args.head is not None and args.head < 0) or (args.tail is not None and args.tail < 0):
        raise UserError("--head/--tail take a non-negative number of lines")
    start, end = parse_range(args.lines) if args.lines else (1, None)
    store, aid = open_artifact(args.id)
    assert isinstance(store, Store)
    try:
        if args.info:
            import json

            sys.stdout.write(json.dumps(store.info(aid).to_dict(), indent=2) + "\n")
            return 0
        out = sys.stdout.buffer
        info = store.info(aid)
        if args.lines and info.lines is not None and start > max(info.lines, 1):
            raise UserError(f"output {aid} has {plural(info.lines, 'line')}; --lines {args.lines} is past its end")
        chunks = store.iter_bytes(aid)
        if args.lines or args.head is not None or args.tail is not None:
            chunks = select_lines(chunks, start=start, end=end, head=args.head, tail=args.tail)
        # The bytes are checked before the first chunk: a damaged output prints nothing.
        wrote = False
        for chunk in chunks:
            out.write(chunk)
            wrote = wrote or bool(chunk)
        if args.lines and not wrote:
            total = sum(c.count(b"\n") for c in store.iter_bytes(aid))
            raise UserError(f"output {aid} has {plural(total, 'line')}; --lines {args.lines} is past its end")
    except StoreError as exc:
        raise UserError(str(exc)) from None
    out.flush()
    return 0
