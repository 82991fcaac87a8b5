"""`tokenjuice guidance`: print the instruction block for agents (Markdown).

Paste it into a system prompt, or let `tokenjuice install agents-md` keep it in
AGENTS.md / CLAUDE.md between markers.
"""

from __future__ import annotations

import argparse

from tokenjuice.cli.options import flag

OPTIONS = (flag("--markers", help="include the begin/end marker comments"),)


def run(args: argparse.Namespace) -> int:
    import sys

    from tokenjuice.guidance import TEXT, block

    sys.stdout.write(block() if args.markers else TEXT)
    return 0
