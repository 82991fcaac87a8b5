"""`tokenjuice explain -- CMD …`: which rule a command gets, the runners-up, and why."""

from __future__ import annotations

import argparse
import sys

from tokenjuice.cli import _io
from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import exit_code, flag, rest, value

OPTIONS = (
    value("--command", "-c", metavar="CMD", help="the command line (instead of -- CMD …)"),
    value("--exit-code", "-e", convert=exit_code, default=0, metavar="N", help="its exit code (default 0)"),
    value(
        "--output", "-o", metavar="FILE", help="its output, to show output-based matching, density and the reduction"
    ),
    value("--tool-name", default="exec", metavar="NAME", help="the agent tool that ran it, for toolNames rules (exec)"),
    value("--cwd", metavar="DIR", help="directory the command runs in"),
    flag("--json", help="machine-readable result"),
    rest("cmd", metavar="-- CMD …"),
)


def run(args: argparse.Namespace) -> int:
    import shlex

    from tokenjuice.command import analyze, with_script_from_output
    from tokenjuice.model import ToolRun
    from tokenjuice.reduction.batches import prepare
    from tokenjuice.reduction.engine import Reducer
    from tokenjuice.reduction.generic import density
    from tokenjuice.rules.select import MatchInput, explain_misses

    words = list(args.cmd)
    if words and words[0] == "--":
        words = words[1:]
    if args.command and words:
        raise UserError("give the command either with --command or after --, not both")
    command = args.command or (shlex.join(words) if len(words) > 1 else (words[0] if words else None))
    if not command:
        raise UserError("explain needs a command: tokenjuice explain -- CMD [ARGS…]")
    output = _io.decode(_io.read_bytes(args.output)) if args.output else ""
    run_ = ToolRun(tool_name=args.tool_name, command=command, cwd=args.cwd, combined=output, exit_code=args.exit_code)
    # Explaining is not using: nothing goes into the ledger that `stats` reads.
    reducer = Reducer(cwd=args.cwd, record=False)
    cmd = with_script_from_output(analyze(command, None, args.cwd), output)
    sel = reducer.select(run_, cmd, rank_all=True)
    mi = MatchInput(run_.tool_name, cmd, run_.exit_code, output)
    misses = explain_misses(reducer.ruleset(args.cwd), mi)
    rho = density(prepare(output, {}).text) if output else None
    red = reducer.reduce_run(run_) if output else None

    if args.json:
        import json

        data = {
            "command": command,
            "effectiveArgv": list(cmd.argv),
            "program": cmd.program,
            "subcommand": cmd.subcommand,
            "compound": cmd.compound_reason or None,
            "steps": cmd.steps,
            "chosen": {
                "id": sel.rule.id,
                "family": sel.rule.family,
                "layer": sel.rule.layer,
                "path": sel.rule.path,
                "score": sel.score,
            },
            "candidates": [
                {
                    "id": c.rule.id,
                    "score": c.score,
                    "priority": c.rule.priority,
                    "layer": c.rule.layer,
                    "reasons": c.reasons,
                }
                for c in sel.candidates
            ],
            "nearMisses": [{"id": r.id, "why": why} for r, why in misses],
            "density": rho,
            "reduction": red.to_dict() if red else None,
        }
        _io.write_text(json.dumps(data, indent=2, ensure_ascii=False))
        return 0

    w = sys.stdout.write
    w(f"command:    {command}\n")
    if cmd.steps:
        for step in cmd.steps:
            w(f"  · {step}\n")
    w(f"effective:  {cmd.text or '(none)'}\n")
    w(f"program:    {cmd.program or '(none)'}" + (f"   subcommand: {cmd.subcommand}" if cmd.subcommand else "") + "\n")
    if cmd.compound:
        w(f"compound:   {cmd.compound_reason} → only output-based rules may apply\n")
    rule = sel.rule
    w(f"\nchosen:     {rule.id}  (family {rule.family}, {rule.layer} layer)\n")
    w(f"            {rule.path}\n")
    if sel.forced:
        w("            forced by --classifier\n")
    elif rule.is_fallback:
        w("            no specific rule matched: generic path\n")
    else:
        c0 = sel.candidates[0]
        w(f"            score {c0.score}, priority {rule.priority}: {'; '.join(c0.reasons)}\n")
    others = [c for c in sel.candidates if c.rule is not rule]
    if others:
        w("\nrunners-up:\n")
        for c in others[:8]:
            w(
                f"  {c.rule.id:32} score {c.score:3d}  priority {c.rule.priority:g}  {c.rule.layer:8} "
                f"{'; '.join(c.reasons)}\n"
            )
    if misses:
        w("\nnear misses (same program, closest first: fewest unmet criteria):\n")
        for r, why in misses:
            w(f"  {r.id:32} {why}\n")
    if rho is not None:
        w(
            f"\ndensity:    {rho:.3f} (threshold {reducer.density_threshold}; "
            f"{'below: generic reducer' if rho < reducer.density_threshold else 'dense: passes, capped if huge'})\n"
        )
    if red is not None:
        w(
            f"reduction:  {red.raw_chars:,} → {red.reduced_chars:,} chars, {red.raw_tokens:,} → "
            f"{red.reduced_tokens:,} tokens ({red.tokenizer}), mode {red.mode}, "
            f"{red.lines_omitted:,} of {red.lines_total:,} lines omitted\n"
        )
    return 0
