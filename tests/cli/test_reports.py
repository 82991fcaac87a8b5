"""`explain`, `stats` and `discover` agree with the ledger and the rule scores they show."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tokenjuice.command import analyze
from tokenjuice.store import ledger
from tokenjuice.store.report import discover

TJ = [sys.executable, "-m", "tokenjuice"]


def tj(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TOKENJUICE_HOME=str(home))
    return subprocess.run([*TJ, *args], capture_output=True, text=True, env=env, timeout=60)


def records(home: Path) -> list[dict[str, object]]:
    os.environ["TOKENJUICE_HOME"] = str(home)
    return list(ledger.iter_records())


def test_explain_with_output_records_nothing_in_the_ledger(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("".join(f"row {i} ok\n" for i in range(3000)))
    p = tj("explain", "--output", str(out), "--", "python3", "job.py", home=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "reduction:" in p.stdout
    assert records(tmp_path) == []
    assert tj("stats", home=tmp_path).stdout.startswith("no reductions recorded yet")


def test_explain_names_a_subcommand_only_where_there_is_one(tmp_path: Path) -> None:
    plain = tj("explain", "--", "gcc", "-O2", "many.c", home=tmp_path).stdout
    assert "subcommand" not in plain
    assert "program:    gcc\n" in plain
    assert "subcommand: -" not in tj("explain", "--", "cat", "-", home=tmp_path).stdout
    assert "subcommand: log" in tj("explain", "--", "git", "log", home=tmp_path).stdout
    commands = ("make 2", "wc -l a.txt", "aws s3 ls", "cargo +nightly build")
    assert [analyze(c).subcommand for c in commands] == [None, None, "s3", "build"]


def test_explain_documents_every_option(tmp_path: Path) -> None:
    helptext = tj("explain", "--help", home=tmp_path).stdout
    for option in ("--exit-code", "--tool-name", "--output", "--cwd", "--json"):
        line = next(ln for ln in helptext.splitlines() if option in ln)
        rest = helptext.split(line, 1)[1].split("\n", 1)[0]
        assert line.split(option, 1)[1].strip() or rest.strip(), f"{option} has no help"


def test_explain_near_misses_are_the_closest_rules_first(tmp_path: Path) -> None:
    rules = tmp_path / "config" / "rules"
    rules.mkdir(parents=True)
    # Two rules for `acme`: one misses on three criteria, one on a single token.
    (rules / "a.json").write_text(
        json.dumps(
            {
                "id": "acme/a-far",
                "family": "acme",
                "match": {"argv0": ["acme"], "argvIncludes": [["--x"], ["--y"], ["--z"]]},
            }
        )
    )
    (rules / "z.json").write_text(
        json.dumps({"id": "acme/z-near", "family": "acme", "match": {"argv0": ["acme"], "argvIncludes": [["--w"]]}})
    )
    out = tj("explain", "--", "acme", "deploy", home=tmp_path).stdout
    near = out.split("near misses", 1)[1]
    assert near.index("acme/z-near") < near.index("acme/a-far")
    assert "argv lacks --w" in near


def _ledger(home: Path, recs: list[dict[str, object]]) -> None:
    os.environ["TOKENJUICE_HOME"] = str(home)
    for rec in recs:
        ledger.append({"ts": 1.0, "tokenizer": "estimate", **rec})


def test_stats_charts_the_grouping_asked_for_and_limits_it(tmp_path: Path) -> None:
    recs = [
        {"rule": f"r/{i}", "family": "same", "sig": f"tool{i}", "raw_tok": 1000 * (i + 1), "red_tok": 10}
        for i in range(6)
    ]
    _ledger(tmp_path, recs)
    out = tj("stats", "--by", "rule", "-n", "2", home=tmp_path).stdout
    chart = out.split("saved tokens by rule\n", 1)[1]
    assert [ln.split()[0] for ln in chart.splitlines() if ln.strip()] == ["r/5", "r/4"]
    assert "by family" not in out
    assert "6 reductions, 0 sessions" in out
    by_command = tj("stats", "--by", "command", home=tmp_path).stdout
    assert "saved tokens by command" in by_command and "tool5" in by_command


def test_discover_leaves_out_what_is_small_or_already_saved() -> None:
    recs: list[dict[str, object]] = [
        # A 410-token lint run that keeps everything: too small to be worth a rule.
        {"rule": "lint/mypy", "family": "mypy", "sig": "mypy", "raw_tok": 410, "red_tok": 414},
        # The generic path already saved nearly all of it.
        {"rule": "generic/fallback", "family": "generic", "sig": "make", "mode": "generic", "raw_tok": 90000},
        # Dense output that passed through: worth a rule.
        {"rule": "generic/fallback", "family": "generic", "sig": "bazel build", "mode": "passthrough"}
        | {"raw_tok": 4000, "red_tok": 4000},
    ]
    recs[1]["red_tok"] = 900
    assert [f.name for f in discover(recs)] == ["bazel build"]


def test_discover_reads_an_expansion_as_no_program() -> None:
    info = analyze("env -i PATH=/bin $(for t in a b; do echo $t; done)")
    assert info.program == ""
    assert ledger.signature(info) == "(unknown)"


def test_discover_has_a_header_for_every_column(tmp_path: Path) -> None:
    _ledger(
        tmp_path,
        [
            {"rule": "generic/fallback", "family": "generic", "sig": "bazel build"}
            | {"mode": "passthrough", "raw_tok": 4000, "red_tok": 4000}
        ],
    )
    out = tj("discover", home=tmp_path).stdout.splitlines()
    assert out[0].split()[:2] == ["finding", "runs"]
    assert out[1].startswith("no rule")
