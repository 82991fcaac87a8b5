"""`tokenjuice mcp`: serve the tools run, read_output and reduce over MCP (stdio).

The server lives in `tokenjuice.mcp` and needs the `mcp` extra; without it this
command says so in one line and exits 2.
"""

from __future__ import annotations

import argparse
import sys

from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import positive_int, positive_seconds, value

HELP = "serve run / read_output / reduce as MCP tools on stdio (needs the mcp extra)"
EXIT_MISSING_EXTRA = 2


OPTIONS = (
    value("--cwd", metavar="DIR", help="directory commands run in by default (default: the current one)"),
    value(
        "--timeout",
        convert=positive_seconds,
        metavar="S",
        help="kill a command after S seconds unless the call sets timeout_s (default 600)",
    ),
    value(
        "--max-read-chars",
        convert=positive_int,
        metavar="N",
        help="most characters one read_output call returns (default 32000)",
    ),
)


def run(args: argparse.Namespace) -> int:
    import os

    if args.cwd is not None and not os.path.isdir(args.cwd):
        raise UserError(f"no such directory: {args.cwd}")
    try:
        from tokenjuice.mcp import server
    except ModuleNotFoundError as exc:
        # Only a missing third-party module means the extra is not installed.
        if (exc.name or "").split(".")[0] == "tokenjuice":
            raise
        sys.stderr.write(
            f"tokenjuice: error: the MCP server needs the 'mcp' extra (missing module {exc.name!r}): "
            "pip install 'tokenjuice[mcp]'\n"
        )
        return EXIT_MISSING_EXTRA
    from tokenjuice import _log

    # stdout carries the protocol: every diagnostic goes to stderr.
    _log.use_stderr(verbose=bool(getattr(args, "verbose", False)))
    server.run_stdio(cwd=args.cwd, default_timeout_s=args.timeout, max_read_chars=args.max_read_chars)
    return 0
