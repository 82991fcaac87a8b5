"""`tokenjuice hook HOST`: answer one hook call from a coding-agent CLI (stdin → stdout).

Installed by `tokenjuice install HOST`; not meant to be run by hand. It never fails the
host: on any problem it prints nothing and exits 0, so the command runs unchanged.
"""

from __future__ import annotations

from tokenjuice.cli.options import positional

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def _host_names() -> list[str]:
    from tokenjuice import hosts

    return hosts.names()


OPTIONS = (positional("host", choices=_host_names, help="the host whose hook payload arrives on stdin"),)


def run(args: argparse.Namespace) -> int:
    import sys

    from tokenjuice.hosts._hook import respond

    try:
        raw = sys.stdin.buffer.read()
        out = respond(args.host, raw)
    except Exception as exc:  # noqa: BLE001 - fail open: the host must keep working
        sys.stderr.write(f"tokenjuice hook: {type(exc).__name__}: {exc}; command left unchanged\n")
        return 0
    if out:
        sys.stdout.write(out + "\n")
    return 0
