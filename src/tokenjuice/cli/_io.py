"""Input helpers shared by commands: reading files/stdin, common reduction options."""

from __future__ import annotations

import sys

from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import positive_int, value

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


BUDGET_OPTIONS = (
    value(
        "--max-chars",
        convert=positive_int,
        metavar="N",
        section="budget",
        help="bound the reduced body to about N characters (default 12000)",
    ),
    value(
        "--max-tokens",
        convert=positive_int,
        metavar="N",
        section="budget",
        help="bound the reduced body to about N tokens",
    ),
    value(
        "--density-threshold",
        convert=float,
        metavar="RHO",
        section="budget",
        help="generic path: reduce output whose density is below RHO (default 0.3)",
    ),
)


def check_budget_arguments(args: argparse.Namespace) -> None:
    """Refuse a density threshold no comparison would honour (nan, negative, infinite)."""
    rho = args.density_threshold
    if rho is not None and not 0 <= rho < float("inf"):
        raise UserError(f"--density-threshold must be a non-negative number, not {rho:g}")


def write_text(text: str, *, verbatim: bool = False) -> None:
    """`text` and a final newline; a `verbatim` text (the output itself) exactly as it is."""
    out = sys.stdout
    out.write(text)
    if text and not text.endswith("\n") and not verbatim:
        out.write("\n")
    out.flush()
