"""`tokenjuice reduce [FILE]`: reduce output from a file or stdin and print the text."""

from __future__ import annotations

from tokenjuice.cli import _io
from tokenjuice.cli.options import exit_code, flag, positional, value

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


OPTIONS = (
    positional("file", optional=True, metavar="FILE", help="output to reduce (default: stdin)"),
    value("--command", "-c", metavar="CMD", help="the command that produced the output"),
    value("--exit-code", "-e", convert=exit_code, default=0, metavar="N", help="its exit code (default 0)"),
    value("--tool-name", default="exec", metavar="NAME", help="tool name (default exec)"),
    value("--cwd", metavar="DIR", help="directory it ran in (for project rules)"),
    value("--classifier", metavar="RULE_ID", help="use this rule instead of choosing one"),
    flag("--raw", help="print the output unreduced (exit code still stated)"),
    flag("--json", help="print the reduce-json response instead of text"),
    *_io.BUDGET_OPTIONS,
)


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
