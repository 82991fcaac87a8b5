"""`tokenjuice stats`: what the reductions saved, once and including re-sends."""

from __future__ import annotations

import argparse
import sys
import time

from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import value

BAR_WIDTH = 32


OPTIONS = (
    value(
        "--by",
        choices=lambda: ("family", "rule", "command", "day", "session"),
        default="family",
        help="group rows by (default family)",
    ),
    value("--session", metavar="S", help="only this session"),
    value("--since", metavar="WHEN", help="only since 7d, 24h, 30m or a date (2026-11-01)"),
    value("--format", choices=lambda: ("text", "json"), default="text"),
    value("--html", metavar="FILE", help="also write a self-contained HTML report with charts"),
    value("-n", "--limit", convert=int, default=20, metavar="N", help="rows to show (default 20)"),
)


def load(args: argparse.Namespace) -> list[dict[str, object]]:
    from tokenjuice.store import ledger
    from tokenjuice.store.report import parse_since

    try:
        since = parse_since(args.since) if args.since else None
    except ValueError as exc:
        raise UserError(str(exc)) from None
    return list(ledger.iter_records(since=since, session=args.session))


def run(args: argparse.Namespace) -> int:
    from tokenjuice.store.report import Summary

    records = load(args)
    summary = Summary(records, by=args.by)
    if args.html:
        from tokenjuice.store.html import write_report

        try:
            write_report(args.html, Summary(records, "family"), Summary(records, "day"), summary)
        except OSError as exc:
            raise UserError(f"cannot write {args.html}: {exc.strerror or exc}") from None
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(summary.to_dict(), indent=2) + "\n")
        return 0
    w = sys.stdout.write
    if not records:
        w("no reductions recorded yet" + (" for that selection" if args.session or args.since else "") + "\n")
        return 0
    t = summary.total
    period = (
        f"{time.strftime('%Y-%m-%d', time.localtime(summary.first_ts))} to "
        f"{time.strftime('%Y-%m-%d', time.localtime(summary.last_ts))}"
    )
    w(
        f"{_plural(t.runs, 'reduction')}, {_plural(summary.sessions, 'session')}, {period}; "
        f"tokens: {', '.join(summary.tokenizers)}\n\n"
    )
    w(
        f"  saved {_n(t.saved)} of {_n(t.raw_tok)} tokens ({t.saved_pct:.1f}%); "
        f"{_n(t.resend_saved)} prompt tokens including re-sends\n"
    )
    w("  (a result saved at run j of an N-run session is re-sent in N - j + 1 prompts)\n\n")
    w(f"{'by ' + args.by:28} {'runs':>6} {'raw tok':>9} {'reduced':>9} {'saved %':>8} {'w/ re-sends':>12}\n")
    for g in summary.groups[: max(args.limit, 1)]:
        w(
            f"{g.name[:28]:28} {g.runs:>6} {_n(g.raw_tok):>9} {_n(g.red_tok):>9} {g.saved_pct:>7.1f}% "
            f"{_n(g.resend_saved):>12}\n"
        )
    top = [g for g in summary.groups if g.saved > 0][: max(args.limit, 1)]
    if top:
        w(f"\nsaved tokens by {args.by}\n")
        peak = max(g.saved for g in top)
        for g in top:
            bar = "█" * max(1, round(BAR_WIDTH * g.saved / peak))
            w(f"  {g.name[:28]:28} {bar} {_n(g.saved)}\n")
    if args.html:
        w(f"\nHTML report: {args.html}\n")
    return 0


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _n(v: int) -> str:
    if v >= 1_000_000:
        return f"{v / 1_000_000:.1f}M"
    if v >= 10_000:
        return f"{v / 1000:.0f}k"
    return f"{v:,}"
