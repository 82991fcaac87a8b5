"""The argument parser: argparse and what tokenjuice changes about it.

Imported only when `_fastargs` cannot read the arguments: the usual forms of `wrap`,
`reduce` and `hook`, which run on every tool call, are read without it.
"""

from __future__ import annotations

import argparse
import sys

from tokenjuice.cli.main import COMMANDS, EXIT_USAGE, command_module
from tokenjuice.cli.options import add_to

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter gets the terminal width from `shutil`, whose import costs more
    than the rest of a hook call; the same width comes from `os` directly."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        if width is None:
            import os

            try:
                width = int(os.environ.get("COLUMNS", "0"))
            except ValueError:
                width = 0
            if width <= 0:
                try:
                    width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
                except (AttributeError, ValueError, OSError):
                    width = 80
            width -= 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _quick_gettext() -> None:
    """argparse looks its few messages up with `gettext.gettext`, which searches the locale
    directories on every call, and finding the catalogue once imports `locale`.
    tokenjuice's own messages are English, so argparse's stay English too."""

    def ngettext(singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    argparse._ = str  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        hint = f" (see '{self.prog} --help')"
        message = " ".join(message.split("\n"))
        sys.stderr.write(f"tokenjuice: error: {message}{hint}\n")
        raise SystemExit(EXIT_USAGE)


def _version() -> str:
    from tokenjuice import __version__

    return __version__


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    _quick_gettext()
    parser = _Parser(
        prog="tokenjuice",
        description="Shrink what AI agents read: reduce tool and shell output to what matters.",
    )
    parser.add_argument("--version", action="version", version=f"tokenjuice {_version()}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details to stderr")
    sub = parser.add_subparsers(dest="subcommand_name", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        # Building all ~20 sub-parsers costs more than the rest of a hook call: when the
        # command is known, only its own is built.
        if only is not None and name != only:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        add_to(p, command_module(module).OPTIONS)
    return parser
