"""`tokenjuice reduce [FILE]`: reduce output from a file or stdin and print the text."""

from __future__ import annotations

from tokenjuice.cli import _io

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", metavar="FILE", help="output to reduce (default: stdin)")
    p.add_argument("--command", "-c", metavar="CMD", help="the command that produced the output")
    p.add_argument(
        "--exit-code", "-e", type=_io.exit_code_arg, default=0, metavar="N", help="its exit code (default 0)"
    )
    p.add_argument("--tool-name", default="exec", metavar="NAME", help="tool name (default exec)")
    p.add_argument("--cwd", metavar="DIR", help="directory it ran in (for project rules)")
    p.add_argument("--classifier", metavar="RULE_ID", help="use this rule instead of choosing one")
    p.add_argument("--raw", action="store_true", help="print the output unreduced (exit code still stated)")
    p.add_argument("--json", action="store_true", help="print the reduce-json response instead of text")
    _io.add_budget_arguments(p)


def run(args: argparse.Namespace) -> int:
    from tokenjuice.model import ToolRun
    from tokenjuice.reduction.engine import Reducer

    _io.check_budget_arguments(args)
    text, raw_bytes = _io.decode_exact(_io.read_bytes(args.file))
    reducer = Reducer(
        cwd=args.cwd,
        max_inline_chars=args.max_chars,
        max_inline_tokens=args.max_tokens,
        density_threshold=args.density_threshold,
    )
    run_ = ToolRun(
        tool_name=args.tool_name,
        command=args.command,
        cwd=args.cwd,
        combined=text,
        exit_code=args.exit_code,
        raw_bytes=raw_bytes,
    )
    red = reducer.reduce_run(run_, bypass=args.raw, classifier=args.classifier)
    if args.json:
        import json

        _io.write_text(json.dumps(red.to_dict(), ensure_ascii=False))
    else:
        _io.write_text(red.text, verbatim=red.verbatim)
    return 0
