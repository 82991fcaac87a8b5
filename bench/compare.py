#!/usr/bin/env python3
"""Every built-in rule at 1 MB, an older revision against the working tree.

    python bench/compare.py e954e17          # two rounds, old and new in alternation
    python bench/compare.py HEAD~3 --rounds 3
    python bench/compare.py HEAD~1 --rounds 5 --only install/uv-pip --only build/vite

On a shared VM the host's load changes from one minute to the next, so one table run
after another compares the load as much as the code, and so does a whole pass over the
rules with the old code followed by one with the new. Here two worker processes, one on
each tree, load the rules and the fixtures once; every rule is then timed by the old
worker and by the new one straight after (the order swapped each round), so both see
the same minute. A rule's figure is its fastest run over all rounds. Rules whose
fixtures differ between the two trees use the working tree's fixtures for both.
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

# A worker with `src` (old or new) first on the path: prints the rule ids it can time,
# then reads one rule id a line and answers with its fastest of three runs in ms.
WORKER = r"""
import json, os, sys, time
from pathlib import Path
src, fixtures = sys.argv[1], Path(sys.argv[2])
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
big = {}
for rid, run in sorted(largest.items()):
    tiled = ToolRun(command=run.command, argv=run.argv, combined=tile(run.combined, 1_000_000), exit_code=run.exit_code)
    if r.reduce_run(tiled).rule_id == rid:
        big[rid] = tiled
print(json.dumps(sorted(big)), flush=True)
for line in sys.stdin:
    run = big[line.strip()]
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        r.reduce_run(run)
        ms = (time.perf_counter() - t0) * 1000
        best = ms if best is None else min(best, ms)
    print(best, flush=True)
"""


class Worker:
    """One tree's timing process."""

    def __init__(self, src: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        cmd = [sys.executable, "-c", WORKER, str(src), str(REPO / "tests" / "fixtures")]
        self.proc = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.rules: list[str] = json.loads(self.proc.stdout.readline())

    def time(self, rid: str) -> float:
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.proc.stdin.write(rid + "\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


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
        workers: dict[str, Worker] = {}
        try:
            workers = {"old": Worker(old_tree / "src"), "new": Worker(REPO / "src")}
            rules = sorted(set(workers["old"].rules) & set(workers["new"].rules))
            if args.only:
                rules = [r for r in rules if r in args.only]
            best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
            for k in range(args.rounds):
                pair = ("old", "new") if k % 2 == 0 else ("new", "old")
                for rid in rules:
                    for name in pair:
                        ms = workers[name].time(rid)
                        best[name][rid] = min(ms, best[name].get(rid, ms))
        finally:
            for w in workers.values():
                w.close()
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(old_tree)], check=False)
    old, new = best["old"], best["new"]
    common = sorted(set(old) & set(new))
    ratios = sorted((new[r] / old[r], r) for r in common)
    print(
        f"{len(common)} rules at 1 MB, fastest of 3 runs x {args.rounds} rounds (old and new in turn per rule), "
        f"{args.rev} against the working tree"
    )
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
