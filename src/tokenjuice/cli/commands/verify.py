"""`tokenjuice verify`: load every rule layer and check it; print counts.

Checks: JSON and schema of every rule file (file, rule id and field named), every
regex compiles, built-in patterns are free of catastrophic backtracking, referenced
formatters exist, no duplicate ids within a layer. Exit 1 when anything is wrong.
"""

from __future__ import annotations

import argparse
import sys

from tokenjuice.cli.options import flag, value

OPTIONS = (
    value("--cwd", metavar="DIR", help="project directory whose .tokenjuice/rules to include"),
    value(
        "--fixtures",
        optional=True,
        const="",
        metavar="DIR",
        help="also run the rule fixtures (default: tests/fixtures of this checkout)",
    ),
    flag("-q", "--quiet", help="print only problems and the totals"),
)


def run(args: argparse.Namespace) -> int:
    from tokenjuice.rules.verify import verify_rules

    report = verify_rules(args.cwd)
    out = sys.stdout
    if not args.quiet:
        for layer, directory in report.layer_dirs.items():
            where = str(directory) if directory is not None else "(none found)"
            count = report.layer_counts.get(layer, 0)
            note = f" (not loaded: {report.skipped_layers[layer]})" if layer in report.skipped_layers else ""
            out.write(f"{layer:8} {count:4d} rules  {where}{note}\n")
    for problem in report.problems:
        out.write(f"problem: {problem}\n")
    out.write(
        f"{report.rules} rules in {report.families} families, {report.patterns} patterns compiled, "
        f"{report.formatters} formatters used, {len(report.problems)} problem"
        f"{'s' if len(report.problems) != 1 else ''}\n"
    )
    status = 1 if report.problems else 0
    if args.fixtures is not None:
        from tokenjuice.rules.fixtures import run_fixtures

        fx = run_fixtures(args.fixtures or None, out=out, quiet=args.quiet)
        status = status or (0 if fx.ok else 1)
    return status
