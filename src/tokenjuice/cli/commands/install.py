"""`tokenjuice install HOST [--project [DIR]] [--local]`: add the hook to a coding-agent CLI.

HOST is claude-code, codex or gemini-cli; `agents-md` instead writes the guidance
block into AGENTS.md (or `--file CLAUDE.md`). Installing twice changes nothing; an
existing settings file is kept as `<file>.bak` before it is rewritten.
"""

from __future__ import annotations

import argparse

from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import flag, positional, value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tokenjuice.hosts._base import Host


def scope_of(args: argparse.Namespace, host: Host) -> str:
    scope = "local" if args.local else "project" if args.project is not None else "user"
    if scope not in host.scopes:
        raise UserError(f"{host.name} has no {scope} settings (it has: {', '.join(host.scopes)})")
    return scope


def host_choices() -> list[str]:
    from tokenjuice import hosts

    return [*hosts.names(), "agents-md"]


# Where to install or uninstall: shared with `uninstall`.
SCOPE_OPTIONS = (
    value(
        "--project",
        optional=True,
        const=".",
        metavar="DIR",
        help="the project's shared settings (in DIR, default the current directory) instead of the user's",
    ),
    flag("--local", help="claude-code: the project's .claude/settings.local.json"),
    value("--settings", metavar="FILE", help="edit this settings file instead"),
    value("--file", metavar="FILE", help="agents-md: the file to edit (default ./AGENTS.md)"),
    flag("--dry-run", help="say what would change, change nothing"),
)
OPTIONS = (
    positional("host", choices=host_choices, help="where to install"),
    *SCOPE_OPTIONS,
    flag("--print", dest="print_only", help="print the hook settings as JSON, change nothing"),
)


def edit_guidance(args: argparse.Namespace, edit: Callable[..., str]) -> int:
    """`install`/`uninstall agents-md`: the guidance block added to or removed from a file."""
    import sys

    path = args.file or "AGENTS.md"
    try:
        action = edit(path, dry_run=args.dry_run)
    except OSError as exc:
        raise UserError(f"cannot update {path}: {exc.strerror or exc}") from None
    would = args.dry_run and action not in ("unchanged", "absent")
    sys.stdout.write(f"guidance {'would be ' if would else ''}{action}: {path}\n")
    return 0


def run(args: argparse.Namespace) -> int:
    import sys

    if args.host == "agents-md":
        from tokenjuice.guidance import install_block

        return edit_guidance(args, install_block)

    from tokenjuice import hosts
    from tokenjuice.hosts._settings import SettingsError

    host = hosts.get(args.host)
    if args.print_only:
        import json

        group: dict[str, object] = {"matcher": host.matcher} if host.matcher else {}
        group["hooks"] = [host.entry(host.hook_command())]
        sys.stdout.write(json.dumps({"hooks": {host.event: [group]}}, indent=2) + "\n")
        return 0
    scope = scope_of(args, host)
    try:
        change = host.install(scope, args.project, path=args.settings, dry_run=args.dry_run)
    except (SettingsError, OSError) as exc:
        raise UserError(str(exc)) from None
    verb = {"installed": "installed", "updated": "updated", "unchanged": "already installed"}[change.action]
    prefix = "would be " if args.dry_run and change.action != "unchanged" else ""
    sys.stdout.write(f"{host.title} hook {prefix}{verb}: {change.path}\n")
    if change.diff:
        sys.stdout.write(change.diff if change.diff.endswith("\n") else change.diff + "\n")
    if change.backup:
        sys.stdout.write(f"  previous settings kept in {change.backup}\n")
    if change.action != "unchanged" and not args.dry_run and host.after_install:
        sys.stdout.write(f"  {host.after_install}\n")
    import shutil

    if shutil.which("tokenjuice") is None:
        sys.stdout.write(
            "  note: `tokenjuice` is not on PATH, so the agent cannot run the `tokenjuice cat <id>` pointers"
            " in reduced output; install it with pipx or `uv tool install`, or add it to PATH\n"
        )
    return 0
