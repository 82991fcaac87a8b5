"""`tokenjuice trust [--revoke | --list | --show]`: let this project's rules apply.

A repository's `.tokenjuice/rules` is ignored until you trust it here; trusting pins
the files' content, so any later change must be trusted again.
"""

from __future__ import annotations

import argparse

from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import flag, value

OPTIONS = (
    value("--cwd", metavar="DIR", help="the project (default: the current directory)"),
    flag("--revoke", exclusive="action", help="stop trusting this project's rules"),
    flag("--list", exclusive="action", help="list trusted projects"),
    flag("--show", exclusive="action", help="show the rule files and whether they are trusted"),
)


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from tokenjuice.rules import trust
    from tokenjuice.rules.loader import find_project_rules_dir

    w = sys.stdout.write
    if args.list:
        pins = trust.pinned()
        for path, pin in sorted(pins.items()):
            state = "ok" if os.path.isdir(path) and trust.gate(path) is None else "changed or gone"
            w(f"{path}  {str(pin.get('sha256', ''))[:12]}  {state}\n")
        if not pins:
            w("no trusted project rules\n")
        return 0
    cwd = args.cwd or os.getcwd()
    if not os.path.isdir(cwd):
        raise UserError(f"no such directory: {cwd}")
    rules_dir = find_project_rules_dir(cwd)
    if rules_dir is None:
        raise UserError(f"no .tokenjuice/rules directory at or above {cwd}")
    if args.revoke:
        w(f"{'no longer trusted' if trust.revoke(rules_dir) else 'was not trusted'}: {rules_dir}\n")
        return 0
    files = sorted(os.path.relpath(os.path.join(root, f), rules_dir) for root, _, fs in os.walk(rules_dir) for f in fs)
    if args.show:
        why = trust.gate(rules_dir)
        w(f"{rules_dir}: {'trusted' if why is None else why}\n")
        for f in files:
            w(f"  {f}\n")
        return 0
    digest = trust.trust(rules_dir)
    w(f"trusted {len(files)} file{'s' if len(files) != 1 else ''} in {rules_dir} (sha256 {digest[:12]})\n")
    for f in files:
        w(f"  {f}\n")
    return 0
