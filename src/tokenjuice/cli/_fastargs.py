"""Arguments in their usual forms, read without argparse, from the same declarations.

`wrap`, `reduce`, `reduce-json` and `hook` run on every tool call, and importing
argparse (with gettext and `re`) costs such a process more than reducing a small
output. `read` takes a command's `OPTIONS` (see `tokenjuice.cli.options`) and, for the
forms those calls use (known options, each value in the token after it, words in
order), returns what argparse would; for anything else (help, an unknown or
abbreviated option, `--opt=value`, a value that starts with `-`, a value that does not
convert, a missing or extra word, two options that exclude each other) it returns None,
and argparse reads the arguments and says what is wrong in its own words. A test holds
the two to the same result for every command.
"""

from __future__ import annotations

from tokenjuice.cli.options import FLAG, POSITIONAL, REST, VALUE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from tokenjuice.cli.options import Option

# The commands read here: the ones every tool call runs.
FAST = frozenset({"wrap", "reduce", "reduce-json", "hook"})


def parse(argv: list[str]) -> Any:
    """A namespace with argparse's attributes, or None (then argparse decides)."""
    verbose = False
    i = 0
    while i < len(argv) and argv[i] in ("-v", "--verbose"):
        verbose = True
        i += 1
    if i >= len(argv) or argv[i] not in FAST:
        return None
    from tokenjuice.cli.main import COMMANDS, command_module

    name = argv[i]
    got = read(command_module(COMMANDS[name][0]).OPTIONS, argv[i + 1 :])
    if got is None:
        return None
    from types import SimpleNamespace

    return SimpleNamespace(verbose=verbose, subcommand_name=name, **got)


def read(options: Sequence[Option], argv: list[str]) -> dict[str, Any] | None:
    """The attributes argparse would set from `argv` for `options`, or None."""
    by_name = {n: o for o in options if o.kind in (FLAG, VALUE) for n in o.names}
    words = [o for o in options if o.kind == POSITIONAL]
    remainder = next((o for o in options if o.kind == REST), None)
    out = {o.dest: o.default for o in options}
    given: list[str] = []
    seen: set[str] = set()
    i = 0
    while i < len(argv):
        token = argv[i]
        if remainder is not None and (token == "--" or not token.startswith("-") or token == "-"):
            out[remainder.dest] = argv[i:]  # argparse keeps the `--` in a REMAINDER
            break
        if token == "--":
            if "--" in argv[i + 1 :] or i + 1 == len(argv):
                return None  # a trailing or a second `--`: argparse refuses some, keeps others as words
            given += argv[i + 1 :]
            break
        if not token.startswith("-") or token == "-":
            given.append(token)
            i += 1
            continue
        opt = by_name.get(token)
        if opt is None or opt.const is not None or opt.dest in seen:
            return None
        seen.add(opt.dest)
        if opt.kind == FLAG:
            out[opt.dest] = True
            i += 1
            continue
        if i + 1 >= len(argv) or argv[i + 1].startswith("-"):
            return None
        converted = _converted(opt, argv[i + 1])
        if converted is None:
            return None
        out[opt.dest] = converted[0]
        i += 2
    if not _fill(words, given, out):
        return None
    groups = [o.exclusive for o in options if o.exclusive is not None and o.dest in seen]
    return None if len(groups) != len(set(groups)) else out


def _converted(opt: Option, text: str) -> tuple[Any] | None:
    if opt.choices is not None and text not in opt.choices():
        return None
    try:
        return ((opt.convert or str)(text),)
    except Exception:  # noqa: BLE001 - any refusal is argparse's to word
        return None


def _fill(words: list[Option], given: list[str], out: dict[str, Any]) -> bool:
    """Put the words in the positional slots, in order; False when they do not fit."""
    if len(given) > len(words):
        return False
    for k, opt in enumerate(words):
        if k >= len(given):
            if not opt.optional:
                return False
            continue
        converted = _converted(opt, given[k])
        if converted is None:
            return False
        out[opt.dest] = converted[0]
    return True
