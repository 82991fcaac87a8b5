"""Command-line options, declared once per command.

Each command module lists its arguments in `OPTIONS`. `add_to` builds the argparse
parser from that list, and `_fastargs` reads the usual forms of the per-call commands
with the same list, so the two cannot disagree about a name, a default or a converter.
Importing this module imports nothing else: the per-call commands never load argparse.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any

FLAG = "flag"  # `--raw`: True when given
VALUE = "value"  # `--timeout S`: the next token, converted
POSITIONAL = "positional"  # `FILE`: a word in order
REST = "rest"  # `-- CMD …`: every token from the first word (or `--`) on


class Option:
    """One option or positional argument of one command."""

    __slots__ = (
        "choices",
        "const",
        "convert",
        "default",
        "dest",
        "exclusive",
        "help",
        "kind",
        "metavar",
        "names",
        "optional",
        "section",
    )

    def __init__(
        self,
        kind: str,
        *names: str,
        dest: str | None = None,
        convert: Callable[[str], Any] | None = None,
        default: Any = None,
        metavar: str | None = None,
        help: str | None = None,  # noqa: A002 - argparse's word for it
        choices: Callable[[], Sequence[str]] | None = None,
        optional: bool = False,
        const: str | None = None,
        exclusive: str | None = None,
        section: str | None = None,
    ) -> None:
        self.kind = kind
        self.names = names
        self.dest = dest or max(names, key=len).lstrip("-").replace("-", "_")
        self.convert = convert
        self.default = False if kind == FLAG else ([] if kind == REST else default)
        self.metavar = metavar
        self.help = help
        self.choices = choices  # a function: a host list is only worth computing when asked
        self.optional = optional  # a positional that may be left out, or a value that may (then `const`)
        self.const = const
        self.exclusive = exclusive  # options sharing this key cannot be given together
        self.section = section  # the heading the option is listed under in --help

    def __repr__(self) -> str:
        return f"Option({self.kind}, {', '.join(self.names)})"


def flag(*names: str, **kw: Any) -> Option:
    return Option(FLAG, *names, **kw)


def value(*names: str, **kw: Any) -> Option:
    return Option(VALUE, *names, **kw)


def positional(name: str, **kw: Any) -> Option:
    return Option(POSITIONAL, name, **kw)


def rest(name: str, **kw: Any) -> Option:
    return Option(REST, name, **kw)


HIDDEN = "==hidden=="  # as a help text: the option works but --help does not list it


def add_to(parser: argparse.ArgumentParser, options: Sequence[Option]) -> None:
    """Declare `options` to an argparse parser."""
    import argparse

    groups: dict[str, Any] = {}
    for opt in options:
        target: Any = parser
        if opt.section is not None:
            target = groups.get(f"section {opt.section}") or parser.add_argument_group(opt.section)
            groups[f"section {opt.section}"] = target
        if opt.exclusive is not None:
            target = groups.get(opt.exclusive) or target.add_mutually_exclusive_group()
            groups[opt.exclusive] = target
        kw: dict[str, Any] = {"help": argparse.SUPPRESS if opt.help == HIDDEN else opt.help}
        if opt.metavar is not None:
            kw["metavar"] = opt.metavar
        if opt.choices is not None:
            kw["choices"] = list(opt.choices())
        if opt.kind == FLAG:
            kw["action"] = "store_true"
        elif opt.kind == REST:
            kw["nargs"] = argparse.REMAINDER
        else:
            if opt.convert is not None:
                kw["type"] = opt.convert
            if opt.default is not None:
                kw["default"] = opt.default
            if opt.optional:
                kw["nargs"] = "?"
            if opt.const is not None:
                kw["const"] = opt.const
        if opt.kind in (POSITIONAL, REST):
            target.add_argument(opt.dest, **kw)
        else:
            if opt.dest != max(opt.names, key=len).lstrip("-").replace("-", "_"):
                kw["dest"] = opt.dest
            target.add_argument(*opt.names, **kw)


# ---------------------------------------------------------------- converters
# Each raises argparse's own error type, imported only on the error path.


def _refuse(message: str) -> Exception:
    import argparse

    return argparse.ArgumentTypeError(message)


def positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise _refuse(f"expected a positive integer, got {text!r}") from None
    if n <= 0:
        raise _refuse(f"expected a positive integer, got {text!r}")
    return n


def positive_seconds(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise _refuse(f"expected a number of seconds, got {text!r}") from None
    if not x > 0 or x == float("inf"):
        raise _refuse(f"expected a positive number of seconds, got {text!r}")
    return x


def exit_code(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise _refuse(f"expected an integer exit code, got {text!r}") from None
