"""`tokenjuice` command line: parse the command name, import only that command's module.

Each module in `tokenjuice.cli.commands` declares its arguments in `OPTIONS` (see
`tokenjuice.cli.options`) and defines `run(args) -> int`. Bad input ends with one line on stderr and exit code 2.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType
    from typing import NoReturn

# name → (module, one-line help). Order is the order `--help` lists them in.
COMMANDS: dict[str, tuple[str, str]] = {
    "wrap": ("wrap", "run a command and print its reduced output; exits with its exit code"),
    "reduce": ("reduce", "reduce output read from a file or stdin"),
    "reduce-json": ("reduce_json", "reduce a JSON tool-run payload (TypeScript tokenjuice protocol)"),
    "explain": ("explain", "show which rule a command gets, the runners-up, and why"),
    "verify": ("verify", "check all rule layers: schema, regexes, duplicate ids, fixtures"),
    "cat": ("cat", "print a stored full output (byte for byte), or some of its lines"),
    "grep": ("grep", "search a stored full output, with line numbers"),
    "ls": ("ls", "list stored full outputs"),
    "prune": ("prune", "delete stored outputs past their retention"),
    "stats": ("stats", "tokens saved, once and including re-sends, by family/rule/command/day"),
    "discover": ("discover", "commands with no rule and rules that save little, by tokens at stake"),
    "doctor": ("doctor", "check rule layers, the store, the tokenizer and installed hooks"),
    "trust": ("trust", "let this project's .tokenjuice/rules apply (pins their content)"),
    "install": ("install", "add the tokenjuice hook to claude-code, codex or gemini-cli (or guidance to AGENTS.md)"),
    "uninstall": ("uninstall", "remove the tokenjuice hook (or the AGENTS.md guidance) again"),
    "guidance": ("guidance", "print the instruction block for agents (quiet flags, reading output back)"),
    "mcp": ("mcp", "serve run / read_output / reduce as MCP tools on stdio (needs the mcp extra)"),
    "hook": ("hook", "answer one hook call from a coding-agent CLI (used by installed hooks)"),
}

EXIT_USAGE = 2
# Commands that run on every tool call: they must not pay a second to load the exact
# tokenizer (see tokenjuice.tokens).
HOT_COMMANDS = frozenset({"wrap", "reduce", "reduce-json", "hook"})


class UserError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""


def command_module(name: str) -> ModuleType:
    """`tokenjuice.cli.commands.<name>`, imported on demand."""
    # `importlib.import_module` without importing `importlib` (and `warnings` with it).
    full = f"tokenjuice.cli.commands.{name}"
    __import__(full)
    return sys.modules[full]


def _command_name(argv: Sequence[str]) -> str | None:
    for a in argv:
        if a in COMMANDS:
            return a
        if not a.startswith("-"):
            return None
    return None


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    from tokenjuice.cli import _fastargs

    args = _fastargs.parse(args_list)
    if args is None:
        from tokenjuice.cli._parser import build_parser

        parser = build_parser(only=_command_name(args_list))
        args = parser.parse_args(args_list)
        if args.subcommand_name is None:
            parser.print_help()
            return EXIT_USAGE
    from tokenjuice import _log

    log_file = None
    if args.subcommand_name in ("wrap", "hook") and not _isatty(sys.stderr):
        # Under an agent, wrap's stderr is part of what the model reads.
        log_file = _log.log_path()
    _log.use_stderr(verbose=args.verbose, file=log_file)
    try:
        module = command_module(COMMANDS[args.subcommand_name][0])
        return int(module.run(args))
    except UserError as exc:
        # One line, whatever the message quotes from the input.
        message = " ".join(str(exc).split("\n"))
        sys.stderr.write(f"tokenjuice: error: {message}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except Exception as exc:  # noqa: BLE001 - never a traceback for the user
        sys.stderr.write(f"tokenjuice: internal error: {type(exc).__name__}: {exc}\n")
        if args.verbose:
            import traceback

            traceback.print_exc()
        return 70


def _silence_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


def _closed_streams_to_devnull() -> None:
    import os

    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 - lives as long as the process


def cli() -> NoReturn:
    """The console entry point (`tokenjuice`, `python -m tokenjuice`).

    A command that runs on every tool call ends without the interpreter's teardown,
    which frees every module and object one by one and costs more than a small
    reduction: the streams are flushed and the process exits with the code. Nothing
    is left open that needs closing: the store commits each write, the ledger is
    appended with one `write`, and log handlers flush every record.

    Started with stdout or stderr closed (`>&-`), Python has no stream there at all;
    what would go to it is discarded, and the exit code is still the command's.
    """
    _closed_streams_to_devnull()
    code = main()
    if _command_name(sys.argv[1:]) in HOT_COMMANDS:
        import os

        from tokenjuice import _recache

        _recache.save()  # atexit does not run after os._exit

        if "logging" in sys.modules:
            import logging

            logging.shutdown()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            code = code or 1
        os._exit(code)
    raise SystemExit(code)


if __name__ == "__main__":
    cli()
