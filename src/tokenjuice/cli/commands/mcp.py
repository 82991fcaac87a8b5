"""`tokenjuice mcp`: serve the tools run, read_output and reduce over MCP (stdio).

The server lives in `tokenjuice.mcp` and needs the `mcp` extra; without it this
command says so in one line and exits 2.
"""

from __future__ import annotations

import argparse
import sys

from tokenjuice.cli.main import UserError

HELP = "serve run / read_output / reduce as MCP tools on stdio (needs the mcp extra)"
EXIT_MISSING_EXTRA = 2


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cwd", metavar="DIR", help="directory commands run in by default (default: the current one)")
    p.add_argument(
        "--timeout",
        type=_positive_float,
        metavar="S",
        help="kill a command after S seconds unless the call sets timeout_s (default 600)",
    )
    p.add_argument(
        "--max-read-chars",
        type=_positive_int,
        metavar="N",
        help="most characters one read_output call returns (default 32000)",
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


def _positive_float(value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {value!r}") from None
    if not x > 0 or x == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {value!r}")
    return x


def _positive_int(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    return n
