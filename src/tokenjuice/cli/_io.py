"""Input helpers shared by commands: reading files/stdin, common reduction options."""

from __future__ import annotations

import sys

from tokenjuice.cli.main import UserError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def read_bytes(path: str | None) -> bytes:
    """Bytes of FILE, or of stdin when FILE is missing or '-'."""
    if path in (None, "-"):
        if sys.stdin is None or sys.stdin.isatty():
            raise UserError("no input: give a FILE or pipe the output in")
        return sys.stdin.buffer.read()
    assert path is not None
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise UserError(f"is a directory: {path}") from None
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL byte in the name
        raise UserError(f"not a valid file name: {path!r}") from None


def decode(data: bytes) -> str:
    """Tool output as text: UTF-8, with undecodable bytes replaced (never an error)."""
    return data.decode("utf-8", errors="replace")


def decode_exact(data: bytes) -> tuple[str, bytes | None]:
    """`decode(data)`, and `data` itself when that text is not exactly it (invalid
    UTF-8): then the kept full output is the bytes as given, not the replacements."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return decode(data), data


def add_budget_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("budget")
    g.add_argument(
        "--max-chars",
        type=_positive_int,
        metavar="N",
        help="bound the reduced body to about N characters (default 12000)",
    )
    g.add_argument("--max-tokens", type=_positive_int, metavar="N", help="bound the reduced body to about N tokens")
    g.add_argument(
        "--density-threshold",
        type=float,
        metavar="RHO",
        help="generic path: reduce output whose density is below RHO (default 0.3)",
    )


def check_budget_arguments(args: argparse.Namespace) -> None:
    """Refuse a density threshold no comparison would honour (nan, negative, infinite)."""
    rho = args.density_threshold
    if rho is not None and not 0 <= rho < float("inf"):
        raise UserError(f"--density-threshold must be a non-negative number, not {rho:g}")


def _positive_int(value: str) -> int:
    import argparse

    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    return n


def exit_code_arg(value: str) -> int:
    import argparse

    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer exit code, got {value!r}") from None


def write_text(text: str, *, verbatim: bool = False) -> None:
    """`text` and a final newline; a `verbatim` text (the output itself) exactly as it is."""
    out = sys.stdout
    out.write(text)
    if text and not text.endswith("\n") and not verbatim:
        out.write("\n")
    out.flush()
