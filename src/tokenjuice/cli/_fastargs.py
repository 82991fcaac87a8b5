"""The per-call commands' arguments in their usual forms, read without argparse.

`wrap`, `reduce`, `reduce-json` and `hook` run on every tool call, and importing
argparse (with gettext and `re`) costs such a process more than reducing a small
output. For the forms those calls use (known options, each value in the token after
it, then the command or the file), `parse` returns what argparse would; for anything
else (help, an unknown or abbreviated option, `--opt=value`, a value that starts with
`-`, a number that does not parse, a second file) it returns None, and argparse reads
the arguments and says what is wrong in its own words. A test holds the two to the
same result.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _positive(value: str) -> int:
    n = int(value)
    if n <= 0:
        raise ValueError(value)
    return n


# option -> (attribute, converter or None for a flag)
_Spec = dict[str, tuple[str, "Callable[[str], Any] | None"]]
_BUDGET: _Spec = {
    "--max-chars": ("max_chars", _positive),
    "--max-tokens": ("max_tokens", _positive),
    "--density-threshold": ("density_threshold", float),
}
_BUDGET_DEFAULTS = {"max_chars": None, "max_tokens": None, "density_threshold": None}
_OPTIONS: dict[str, _Spec] = {
    "wrap": {
        "--raw": ("raw", None),
        "--tee": ("tee", None),
        "--timeout": ("timeout", float),
        "-c": ("shell", None),
        "--shell": ("shell", None),
        "--cwd": ("cwd", str),
        "--tool-name": ("tool_name", str),
        "--session": ("session", str),
        **_BUDGET,
    },
    "reduce": {
        "--command": ("command", str),
        "-c": ("command", str),
        "--exit-code": ("exit_code", int),
        "-e": ("exit_code", int),
        "--tool-name": ("tool_name", str),
        "--cwd": ("cwd", str),
        "--classifier": ("classifier", str),
        "--raw": ("raw", None),
        "--json": ("json", None),
        **_BUDGET,
    },
    "reduce-json": {"--pretty": ("pretty", None)},
}
_DEFAULTS: dict[str, dict[str, Any]] = {
    "wrap": {
        "raw": False,
        "tee": False,
        "timeout": None,
        "shell": False,
        "cwd": None,
        "tool_name": "exec",
        "session": None,
        **_BUDGET_DEFAULTS,
    },
    "reduce": {
        "file": None,
        "command": None,
        "exit_code": 0,
        "tool_name": "exec",
        "cwd": None,
        "classifier": None,
        "raw": False,
        "json": False,
        **_BUDGET_DEFAULTS,
    },
    "reduce-json": {"file": None, "pretty": False},
}


def parse(argv: list[str]) -> Any:
    """A namespace with argparse's attributes, or None (then argparse decides)."""
    verbose = False
    i = 0
    while i < len(argv) and argv[i] in ("-v", "--verbose"):
        verbose = True
        i += 1
    if i >= len(argv):
        return None
    name = argv[i]
    rest = argv[i + 1 :]
    if name == "hook":
        got = _hook(rest)
    elif name in _OPTIONS:
        got = _options(name, rest)
    else:
        return None
    if got is None:
        return None
    from types import SimpleNamespace

    return SimpleNamespace(verbose=verbose, subcommand_name=name, **got)


def _hook(rest: list[str]) -> dict[str, Any] | None:
    if len(rest) != 1:
        return None
    from tokenjuice.hosts import names

    if rest[0] not in names():
        return None  # argparse says what the choices are
    return {"host": rest[0]}


def _options(name: str, rest: list[str]) -> dict[str, Any] | None:
    options = _OPTIONS[name]
    out = dict(_DEFAULTS[name])
    if name == "wrap":
        out["cmd"] = []
    positional: list[str] = []
    i = 0
    while i < len(rest):
        token = rest[i]
        if token == "--":
            if name == "wrap":
                out["cmd"] = rest[i:]  # argparse keeps the `--` in a REMAINDER
                return out
            positional += rest[i + 1 :]
            break
        if token.startswith("-") and token != "-":
            spec = options.get(token)
            if spec is None:
                return None
            attr, convert = spec
            if convert is None:
                out[attr] = True
                i += 1
                continue
            if i + 1 >= len(rest) or rest[i + 1].startswith("-"):
                return None
            try:
                out[attr] = convert(rest[i + 1])
            except ValueError:
                return None
            i += 2
            continue
        if name == "wrap":
            out["cmd"] = rest[i:]
            return out
        positional.append(token)
        i += 1
    if name != "wrap":
        if len(positional) > 1:
            return None
        if positional:
            out["file"] = positional[0]
    return out
