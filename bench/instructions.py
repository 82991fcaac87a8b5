#!/usr/bin/env python3
"""Start-up paths counted in CPU instructions (valgrind), which do not move with the host.

    python bench/instructions.py              # the working tree
    python bench/instructions.py 23810b9      # an older revision against it

On a shared VM a millisecond figure of a 20-60 ms process moves by a third from one
minute to the next; the number of instructions the process executes does not (it is
the same to a few parts in a thousand from run to run). Each path runs twice with a
warm cache directory of its own first, then once under `valgrind --tool=callgrind`,
whole process (the interpreter's own start is the `python -c pass` row). Needs valgrind
(`apt-get install valgrind`); it is not part of the test suite.

  first call   `import tokenjuice; Reducer(); reduce(...)` of a small pytest output
  reduce       `tokenjuice reduce` of a 100 KB `pytest -v` output (store on)
  wrap         `tokenjuice wrap -- cat` of that output (the child not counted)
  hook         `tokenjuice hook claude-code` answering a PreToolUse payload
  --rule ID    one in-process reduction of that rule's largest captured fixture
               repeated to 1 MB (the process with one more reduction, minus the one
               without; `PYTHONHASHSEED=0`), for the formatters' own costs

The commands run as the installed `tokenjuice` script runs them (its three lines, given
to `python -c`, so an older tree can be put first on the path). `python -m tokenjuice`
costs 29 M instructions more, for `runpy` and what it imports; installed hooks and
rewritten commands call the script when there is one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

FIRST_CALL = """
import tokenjuice
r = tokenjuice.Reducer()
r.reduce("collected 3 items\\n\\ntests/test_a.py ...\\n\\n3 passed in 0.01s\\n", command="pytest -q")
"""
# The console script pip writes (`.venv/bin/tokenjuice`), as a `-c` program.
SCRIPT = "import sys\nfrom tokenjuice.cli.main import cli\nsys.argv[0] = 'tokenjuice'\ncli()\n"
PAYLOAD = {
    "session_id": "bench",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "pytest -q tests"},
    "cwd": str(REPO),
}


def _paths(tmp: Path) -> dict[str, tuple[list[str], bytes | None]]:
    from run import gen_pytest

    text = gen_pytest(100_000)[0]
    out = tmp / "pytest-v.txt"
    out.write_text(text)
    py = sys.executable
    return {
        "first call": ([py, "-c", FIRST_CALL], None),
        "reduce": ([py, "-c", SCRIPT, "reduce", "--command", "pytest -v", "--exit-code", "1"], text.encode()),
        "wrap": ([py, "-c", SCRIPT, "wrap", "--", "cat", str(out)], None),
        "hook": ([py, "-c", SCRIPT, "hook", "claude-code"], json.dumps(PAYLOAD).encode()),
        "python -c pass": ([py, "-c", "pass"], None),
    }


# One rule's output (a JSON file: command, argv, exit code, text), reduced 1 + N times.
RULE_RUN = """
import json, sys
from tokenjuice.model import ToolRun
from tokenjuice.reduction.engine import Reducer
d = json.load(open(sys.argv[1]))
run = ToolRun(command=d["command"], argv=d["argv"], combined=d["text"], exit_code=d["exit_code"])
r = Reducer(user_rules=False, project_rules=False, store=False, record=False)
for _ in range(1 + int(sys.argv[2])):
    r.reduce_run(run)
"""


def _rule_input(rid: str, tmp: Path) -> Path:
    """The rule's largest captured fixture repeated to 1 MB, as RULE_RUN reads it."""
    sys.path.insert(0, str(REPO / "src"))
    from run import tile

    from tokenjuice.rules.fixtures import default_dir, fixture_run, iter_fixture_files, load_fixture

    runs = [fixture_run(fx) for fx in map(load_fixture, iter_fixture_files(default_dir())) if fx.get("rule") == rid]
    if not runs:
        raise SystemExit(f"no captured fixture for rule {rid!r}")
    run = max(runs, key=lambda r: len(r.combined))
    out = tmp / f"{rid.replace('/', '-')}.json"
    doc = {"command": run.command, "argv": run.argv, "exit_code": run.exit_code, "text": tile(run.combined, 10**6)}
    out.write_text(json.dumps(doc))
    return out


def _count(src: Path, home: Path, args: list[str], stdin: bytes | None) -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TOKENJUICE_NO_CACHE")}
    env.update(PYTHONPATH=str(src), TOKENJUICE_HOME=str(home), TOKENJUICE_TOKENIZER="estimate", PYTHONHASHSEED="0")
    for _ in range(2):  # byte-compiled modules, rule and regex caches written
        subprocess.run(args, input=stdin, env=env, capture_output=True, check=False)
    vg = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *args]
    p = subprocess.run(vg, input=stdin, env=env, capture_output=True, check=False)
    m = re.search(rb"Collected : (\d+)", p.stderr)
    if not m:
        raise SystemExit(f"valgrind gave no count for {' '.join(args[:4])}: {p.stderr[-300:].decode(errors='replace')}")
    return int(m.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", nargs="?", help="an older revision to count too (anything `git worktree add` accepts)")
    ap.add_argument("--rule", action="append", default=[], metavar="ID", help="count one reduction of this rule")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        trees = {"new": REPO / "src"}
        if args.rev:
            old = tmp / "old"
            add = ["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(old), args.rev]
            subprocess.run(add, check=True)
            trees = {"old": old / "src", **trees}
        try:
            paths = {} if args.rule else _paths(tmp)
            rules = {rid: _rule_input(rid, tmp) for rid in args.rule}
            counts: dict[str, dict[str, int]] = {}
            for tree, src in trees.items():
                subprocess.run([sys.executable, "-m", "compileall", "-q", str(src / "tokenjuice")], check=True)
                for name, (cmd, stdin) in paths.items():
                    counts.setdefault(name, {})[tree] = _count(src, tmp / f"home-{tree}-{name}", cmd, stdin)
                for rid, doc in rules.items():
                    home = tmp / f"home-{tree}-{rid.replace('/', '-')}"
                    cmd = [sys.executable, "-c", RULE_RUN, str(doc)]
                    one = _count(src, home, [*cmd, "1"], None) - _count(src, home, [*cmd, "0"], None)
                    counts.setdefault(f"{rid} at 1 MB, one reduction", {})[tree] = one
        finally:
            if args.rev:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tmp / "old")], check=False)
    cols = list(trees)
    what = "one reduction" if args.rule else "whole process"
    print(f"instructions (millions), {what}{f'; {args.rev} against the working tree' if args.rev else ''}")
    print()
    print("| path | " + " | ".join(cols) + (" | new/old |" if args.rev else " |"))
    print("|---|" + "---|" * (len(cols) + (1 if args.rev else 0)))
    for name, by in counts.items():
        cells = " | ".join(f"{by[c] / 1e6:.1f}" for c in cols)
        ratio = f" | {by['new'] / by['old']:.3f}" if args.rev else ""
        print(f"| {name} | {cells}{ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
