#!/usr/bin/env python3
"""Every built-in rule at 1 MB, an older revision against the working tree.

    python bench/compare.py e954e17          # two rounds, old and new in alternation
    python bench/compare.py HEAD~3 --rounds 3
    python bench/compare.py HEAD~1 --rounds 5 --only install/uv-pip --only build/vite

On a shared VM whole minutes run slower or faster, so one table run after another
compares the host's load as much as the code. Here each round times every rule with the
old code, then with the new, each in a fresh process; a rule's figure is its fastest
run over all rounds. Rules whose fixtures differ between the two trees use the working
tree's fixtures for both.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Run inside a fresh interpreter with `src` (old or new) first on the path.
TIMER = r"""
import json, os, sys, time
from pathlib import Path
src, fixtures, out = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
only = set(sys.argv[4:])
os.environ.setdefault("TOKENJUICE_TOKENIZER", "estimate")
sys.path.insert(0, src)
import tokenjuice
assert tokenjuice.__file__.startswith(src), tokenjuice.__file__
from tokenjuice.model import ToolRun
from tokenjuice.reduction.engine import Reducer
from tokenjuice.rules.fixtures import fixture_run, iter_fixture_files, load_fixture

def tile(text, size):
    if not text.endswith("\n"):
        text += "\n"
    big = text * max(1, -(-size // len(text)))
    cut = big.rfind("\n", 0, size)
    return big[: cut + 1] if cut > 0 else big

r = Reducer(user_rules=False, project_rules=False, store=False, record=False)
largest = {}
for path in iter_fixture_files(fixtures):
    fx = load_fixture(path)
    rid = fx.get("rule")
    run = fixture_run(fx)
    if rid and len(run.combined) > len(largest[rid].combined if rid in largest else ""):
        largest[rid] = run
times = {}
for rid, run in sorted(largest.items()):
    if only and rid not in only:
        continue
    big = ToolRun(command=run.command, argv=run.argv, combined=tile(run.combined, 1_000_000), exit_code=run.exit_code)
    if r.reduce_run(big).rule_id != rid:
        continue
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        r.reduce_run(big)
        ms = (time.perf_counter() - t0) * 1000
        best = ms if best is None else min(best, ms)
    times[rid] = best
Path(out).write_text(json.dumps(times))
"""


def _time(src: Path, out: Path, only: list[str]) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [sys.executable, "-c", TIMER, str(src), str(REPO / "tests" / "fixtures"), str(out), *only]
    subprocess.run(cmd, check=True, env=env, cwd=out.parent)
    times: dict[str, float] = json.loads(out.read_text())
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", help="the older revision (anything `git worktree add` accepts)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--show", type=int, default=15, help="how many of the biggest changes to list")
    ap.add_argument("--only", action="append", default=[], metavar="RULE", help="time only this rule id (repeatable)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp) / "old"
        add = ["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(old_tree), args.rev]
        subprocess.run(add, check=True)
        try:
            best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
            for k in range(args.rounds):
                for name, src in (("old", old_tree / "src"), ("new", REPO / "src")):
                    got = _time(src, Path(tmp) / f"{name}-{k}.json", args.only)
                    for rid, ms in got.items():
                        best[name][rid] = min(ms, best[name].get(rid, ms))
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(old_tree)], check=False)
    old, new = best["old"], best["new"]
    common = sorted(set(old) & set(new))
    ratios = sorted((new[r] / old[r], r) for r in common)
    print(f"{len(common)} rules at 1 MB, fastest of 3 runs x {args.rounds} rounds, {args.rev} against the working tree")
    print()
    print("| | old | new |")
    print("|---|---|---|")
    old_median = statistics.median(old[r] for r in common)
    new_median = statistics.median(new[r] for r in common)
    print(f"| median ms | {old_median:.1f} | {new_median:.1f} |")
    print(f"| within 20 ms | {sum(old[r] <= 20 for r in common)} | {sum(new[r] <= 20 for r in common)} |")
    print(f"| median new/old | | {statistics.median(x for x, _ in ratios):.2f} |")
    print()
    print("| rule | old ms | new ms | new/old |")
    print("|---|---|---|---|")
    shown = ratios[: args.show] + [x for x in ratios[-3:] if x not in ratios[: args.show]]
    for ratio, rid in shown:
        print(f"| {rid} | {old[rid]:.1f} | {new[rid]:.1f} | {ratio:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
