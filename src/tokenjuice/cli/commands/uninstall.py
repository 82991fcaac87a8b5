"""`tokenjuice uninstall HOST [--project [DIR]] [--local]`: take tokenjuice's hook out again.

Only tokenjuice's own entries go. When nothing else changed since the install, the
settings file gets its previous bytes back (or is deleted if tokenjuice created it);
otherwise it is rewritten without the hook, keeping the user's later edits. Either
way the backup the install made is removed (a `.bak` of the user's own stays).
`agents-md` removes the guidance block from AGENTS.md (or --file).
"""

from __future__ import annotations

import argparse

from tokenjuice.cli.commands.install import SCOPE_OPTIONS, host_choices
from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import positional

OPTIONS = (positional("host", choices=host_choices, help="where to remove the hook from"), *SCOPE_OPTIONS)


def run(args: argparse.Namespace) -> int:
    import sys

    if args.host == "agents-md":
        from tokenjuice.cli.commands.install import edit_guidance
        from tokenjuice.guidance import remove_block

        return edit_guidance(args, remove_block)

    from tokenjuice import hosts
    from tokenjuice.cli.commands.install import scope_of
    from tokenjuice.hosts._settings import SettingsError

    host = hosts.get(args.host)
    scope = scope_of(args, host)
    try:
        change = host.uninstall(scope, args.project, path=args.settings, dry_run=args.dry_run)
    except (SettingsError, OSError) as exc:
        raise UserError(str(exc)) from None
    if change.action == "absent":
        sys.stdout.write(f"{host.title} hook not installed in {change.path}; nothing to remove\n")
        return 0
    what = {
        "removed": "removed",
        "restored": "removed; settings restored to their state before the install",
        "deleted": "removed; the settings file held nothing else and was deleted",
    }[change.action]
    sys.stdout.write(f"{host.title} hook {'would be removed' if args.dry_run else what}: {change.path}\n")
    if change.diff:
        sys.stdout.write(change.diff if change.diff.endswith("\n") else change.diff + "\n")
    if change.backup:
        sys.stdout.write(f"  previous settings kept in {change.backup}\n")
    return 0
