"""`tokenjuice discover`: where tokens still go — commands with no rule, rules that save little."""

from __future__ import annotations

import argparse
import sys

from tokenjuice.cli.options import value

OPTIONS = (
    value("--since", metavar="WHEN", help="only since 7d, 24h, 30m or a date (2026-11-01)"),
    value("--session", metavar="S", help="only this session"),
    value("-n", "--limit", convert=int, default=15, metavar="N", help="findings to show (default 15)"),
    value("--format", choices=lambda: ("text", "json"), default="text"),
)


def run(args: argparse.Namespace) -> int:
    from tokenjuice.cli.commands.stats import load
    from tokenjuice.store.report import LOW_SAVINGS_RATIO, MIN_AT_STAKE, discover

    records = load(args)
    findings = discover(records, limit=max(args.limit, 1))
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps([f.to_dict() for f in findings], indent=2) + "\n")
        return 0
    w = sys.stdout.write
    if not records:
        w("no reductions recorded yet\n")
        return 0
    if not findings:
        w(
            f"nothing to improve: every command worth a rule (at least {MIN_AT_STAKE} tokens kept) "
            f"keeps under {LOW_SAVINGS_RATIO:.0%} of its output\n"
        )
        return 0
    w(f"{'finding':12} {'runs':>5} {'tokens kept':>12} {'kept %':>7}  command or rule\n")
    for f in findings:
        label = "no rule" if f.kind == "no-rule" else "saves little"
        w(f"{label:12} {f.runs:>5} {f.at_stake:>12,} {100 * f.ratio:>6.0f}%  {f.name}\n")
        w(f"{'':12} hint: {f.hint}\n")
    return 0
