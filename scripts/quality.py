#!/usr/bin/env python3
"""Quality figures over every rule fixture (the table in the README).

    python scripts/quality.py            # summary table + per-family table
    python scripts/quality.py --cases    # also one row per fixture
    python scripts/quality.py --json out.json

Measured per fixture with the built-in rules only: must-keep signal recall, whether a
non-zero exit code is stated, whether the text is longer than the raw output (beyond
the `exit N` header line), and the token reduction (tokens: exact o200k_base
with the tokens extra, otherwise the estimate; the table says which).

Targets: 100% recall, exit code always stated, no output made longer, median token
reduction >= 80% on fixtures of 4 KB or more. Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Exact o200k_base counts when the tokens extra is installed (the estimate otherwise).
os.environ.setdefault("TOKENJUICE_TOKENIZER", "o200k")
sys.path.insert(0, str(REPO / "src"))

from tokenjuice.rules.fixtures import (  # noqa: E402
    EXIT_RE_TEMPLATE,
    builtin_reducer,
    default_dir,
    fixture_run,
    iter_fixture_files,
    load_fixture,
    lost_signals,
)
from tokenjuice.tokens import counter  # noqa: E402


def measure(paths: list[Path]) -> list[dict[str, object]]:
    import re

    reducer = builtin_reducer()
    tok = counter()
    rows = []
    for path in paths:
        fx = load_fixture(path)
        run = fixture_run(fx)
        red = reducer.reduce_run(run)
        raw = run.combined
        signals = fx.get("signals") or []
        lost = lost_signals(signals, red.text, run.combined)
        code = run.exit_code or 0
        header = f"exit {code}\n" if code else ""
        body = red.text[len(header) :] if header and red.text.startswith(header) else red.text
        raw_tokens = tok.count(raw)
        red_tokens = tok.count(red.text)
        rows.append(
            {
                "id": fx["id"],
                "family": fx.get("family", path.parent.name),
                "rule": red.rule_id,
                "expected_rule": fx.get("rule"),
                "source": "captured" if fx.get("source", "captured") == "captured" else "synthesized",
                "raw_chars": len(raw),
                "reduced_chars": len(red.text),
                "raw_tokens": raw_tokens,
                "reduced_tokens": red_tokens,
                "reduction": round(1 - red_tokens / raw_tokens, 4) if raw_tokens else 0.0,
                "signals": len(signals),
                "lost": len(lost),
                "exit_stated": (not code) or bool(re.search(EXIT_RE_TEMPLATE.format(code=code), red.text)),
                "longer": len(body) > len(raw),
            }
        )
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default=str(default_dir()))
    ap.add_argument("--cases", action="store_true", help="one row per fixture")
    ap.add_argument("--json", metavar="FILE", help="write all rows as JSON")
    args = ap.parse_args()
    paths = list(iter_fixture_files(Path(args.dir)))
    rows = measure(paths)
    rs = builtin_reducer().ruleset()
    total_sig = sum(int(r["signals"]) for r in rows)  # type: ignore[call-overload]
    lost = sum(int(r["lost"]) for r in rows)  # type: ignore[call-overload]
    nonzero = [r for r in rows if not r["exit_stated"]]
    longer = [r for r in rows if r["longer"]]
    wrong_rule = [r for r in rows if r["expected_rule"] and r["rule"] != r["expected_rule"]]
    big = [float(r["reduction"]) for r in rows if int(r["raw_chars"]) >= 4096]  # type: ignore[call-overload,arg-type]
    median_big = statistics.median(big) if big else 0.0
    covered = {r["expected_rule"] for r in rows}
    tok = counter()
    print(f"tokenizer: {tok.name}{'' if tok.exact else ' (estimate)'}")
    print()
    print(
        "| rules | families | fixtures (captured / synthesized) | rules with a fixture | signal recall "
        "| exit code stated | outputs made longer | median token reduction, fixtures >= 4 KB |"
    )
    print("|---|---|---|---|---|---|---|---|")
    captured = sum(1 for r in rows if r["source"] == "captured")
    print(
        f"| {len(rs.rules)} | {len({r.family for r in rs.rules})} | {len(rows)} ({captured} / {len(rows) - captured}) "
        f"| {len(covered & {r.id for r in rs.rules})} / {len(rs.rules)} "
        f"| {100 * (total_sig - lost) / max(total_sig, 1):.1f}% ({total_sig - lost}/{total_sig}) "
        f"| {len(rows) - len(nonzero)}/{len(rows)} | {len(longer)} | {100 * median_big:.1f}% (n={len(big)}) |"
    )
    by_family: dict[str, list[dict[str, object]]] = defaultdict(list)
    for r in rows:
        by_family[str(r["family"])].append(r)
    print()
    print("| family | fixtures | raw tokens | reduced tokens | reduction | recall |")
    print("|---|---|---|---|---|---|")
    for fam in sorted(by_family):
        rr = by_family[fam]
        raw = sum(int(r["raw_tokens"]) for r in rr)  # type: ignore[call-overload]
        red = sum(int(r["reduced_tokens"]) for r in rr)  # type: ignore[call-overload]
        s = sum(int(r["signals"]) for r in rr)  # type: ignore[call-overload]
        lo = sum(int(r["lost"]) for r in rr)  # type: ignore[call-overload]
        rec = f"{100 * (s - lo) / s:.1f}%" if s else "-"
        print(f"| {fam} | {len(rr)} | {raw:,} | {red:,} | {100 * (1 - red / raw) if raw else 0:.1f}% | {rec} |")
    if args.cases:
        print()
        print("| fixture | rule | raw chars | reduced chars | reduction | lost | exit stated |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(
                f"| {r['id']} | {r['rule']} | {r['raw_chars']:,} | {r['reduced_chars']:,} "
                f"| {100 * float(r['reduction']):.1f}% | {r['lost']} | {r['exit_stated']} |"
            )  # type: ignore[arg-type]
    problems = []
    if lost:
        problems.append(f"{lost} signals lost")
    if nonzero:
        problems.append(f"exit code not stated in {len(nonzero)} fixtures")
    if longer:
        problems.append(f"{len(longer)} outputs made longer: {', '.join(str(r['id']) for r in longer[:5])}")
    if wrong_rule:
        problems.append(
            f"{len(wrong_rule)} fixtures chose another rule: "
            + ", ".join(f"{r['id']}→{r['rule']}" for r in wrong_rule[:5])
        )
    if median_big < 0.8:
        problems.append(f"median reduction {100 * median_big:.1f}% < 80%")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    print()
    print("targets met" if not problems else "targets missed: " + "; ".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
