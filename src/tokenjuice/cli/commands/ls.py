"""`tokenjuice ls [--session S]`: stored outputs, most recently used first."""

from __future__ import annotations

import argparse
import sys
import time

from tokenjuice._humanize import plural, size
from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import flag, value

OPTIONS = (
    value("--session", metavar="S", help="only this session's outputs"),
    value("-n", "--limit", convert=int, default=50, metavar="N", help="at most N rows (default 50)"),
    flag("--json", help="machine-readable"),
)


def run(args: argparse.Namespace) -> int:
    from tokenjuice.store.artifacts import Store, StoreError

    try:
        store = Store()
        rows = store.list(args.session, max(args.limit, 1))
        count, raw, stored = store.totals()
    except StoreError as exc:
        raise UserError(str(exc)) from None
    from tokenjuice.redact import default_redactor

    # Commands are masked before they are stored; masked again here for rows an older
    # version stored as given.
    redactor = default_redactor()
    for r in rows:
        r.uses = store.uses(r.id)
        if redactor is not None:
            if r.command:
                r.command = redactor.redact(r.command)[0]
            for use in r.uses:
                if use.get("command"):
                    use["command"] = redactor.redact(str(use["command"]))[0]
    if args.json:
        import json

        sys.stdout.write(json.dumps([r.to_dict() for r in rows], indent=2) + "\n")
        return 0
    w = sys.stdout.write
    if not rows:
        w("no stored outputs" + (f" for session {args.session}" if args.session else "") + "\n")
        return 0
    w(f"{'id':12}  {'used':16}  {'size':>9}  {'exit':>4}  {'rule':24}  command\n")
    for r in rows:
        used = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.last_used))
        cmd = (r.command or "").replace("\n", " ")[:60]
        others = len({u.get("command") for u in r.uses} - {r.command})
        if others:
            cmd += f" (and {plural(others, 'other command')}: tokenjuice cat {r.id} --info)"
        w(
            f"{r.id:12}  {used:16}  {size(r.size):>9}  {'' if r.exit_code is None else r.exit_code:>4}  "
            f"{(r.rule or '-')[:24]:24}  {cmd}\n"
        )
    w(f"{plural(count, 'stored output')}, {size(raw)} raw, {size(stored)} on disk — read one with: tokenjuice cat ID\n")
    return 0
