"""Rule files written for the TypeScript tokenjuice load unchanged as user or project
rules, and one that reuses a built-in id replaces ours for that tool.

The first tests copy the TypeScript project's own rule files at test time (skipped
when its checkout is absent); the others use a few rules written here in its
documented format (its docs/rules.md), so the override behaviour is tested anyway.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.compat._ts import TS_ROOT
from tokenjuice.model import ToolRun
from tokenjuice.reduction.engine import Reducer
from tokenjuice.rules.loader import RuleSet, load_rules
from tokenjuice.rules.verify import verify_rules

TS_RULES = TS_ROOT / "src" / "rules"
needs_ts = pytest.mark.skipif(not TS_RULES.is_dir(), reason="TypeScript tokenjuice checkout not at " + str(TS_RULES))


def copy_ts_rules(dest: Path) -> list[str]:
    """Copy every TypeScript rule file (not its fixtures or schema); return their ids."""
    ids = []
    for src in sorted(TS_RULES.rglob("*.json")):
        rel = src.relative_to(TS_RULES)
        if rel.parts[0] == "fixtures" or src.name.endswith(".schema.json"):
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest / rel)
        ids.append(json.loads(src.read_text(encoding="utf-8"))["id"])
    return ids


def chosen(rs: RuleSet, command: str, output: str = "x\n", exit_code: int = 0) -> tuple[str, str]:
    run = ToolRun(tool_name="exec", command=command, combined=output, exit_code=exit_code)
    rule = Reducer(rules=rs, store=False, record=False).select(run).rule
    return rule.id, rule.layer


@needs_ts
@pytest.mark.parametrize("layer", ["user", "project"])
def test_every_typescript_rule_file_loads_and_compiles(tmp_path: Path, layer: str) -> None:
    rules_dir = tmp_path / "rules"
    ids = copy_ts_rules(rules_dir)
    assert len(ids) >= 130
    if layer == "user":
        rs = load_rules(tmp_path, user_dir=str(rules_dir), project=False, cache=False)
    else:
        rs = load_rules(tmp_path, user=False, project_dir=str(rules_dir), project_gate=lambda _d: None, cache=False)
    report = verify_rules(ruleset=rs)
    assert [str(p) for p in report.problems] == []
    assert rs.layer_counts[layer] == len(ids)
    assert {rs.by_id[i].layer for i in ids} == {layer}


@needs_ts
def test_typescript_rules_replace_ours_for_their_tools(tmp_path: Path) -> None:
    copy_ts_rules(tmp_path / "rules")
    rs = load_rules(tmp_path, user_dir=str(tmp_path / "rules"), project=False, cache=False)
    for command, rule_id in [
        ("ls -la", "filesystem/ls"),  # the same id as ours
        ("npm ci", "install/npm-ci"),  # ours split the same way
        ("gh pr list", "cloud/gh"),  # ours splits gh by subcommand: the aliases go too
        ("gh api repos/o/r", "cloud/gh"),
        ("aws s3 ls", "cloud/aws"),
        ("helm template app ./chart", "devops/helm"),
        ("mvn test", "build/maven"),
    ]:
        assert chosen(rs, command) == (rule_id, "user"), command
    # No built-in rule survives beside a TypeScript one for the same tool.
    for rule in rs.rules:
        if rule.layer == "builtin":
            assert not set(rule.aliases) & {r.id for r in rs.rules if r.layer == "user"}, rule.id


# Written here in the TypeScript rule format (its docs/rules.md: id, family, match,
# transforms, filters, summarize, failure, counters).
TS_FORMAT_RULES: dict[str, dict[str, Any]] = {
    "filesystem/ls.json": {
        "id": "filesystem/ls",
        "family": "filesystem-listing",
        "match": {"toolNames": ["exec"], "argv0": ["ls"]},
        "transforms": {"stripAnsi": True, "dedupeAdjacent": True, "trimEmptyEdges": True},
        "summarize": {"head": 5, "tail": 3},
        "counters": [{"name": "entry", "pattern": "\\S"}],
    },
    "cloud/gh.json": {
        "id": "cloud/gh",
        "family": "developer-cli",
        "match": {"toolNames": ["exec"], "argv0": ["gh"]},
        "filters": {"skipPatterns": ["^Showing \\d+ of \\d+"]},
        "summarize": {"head": 20, "tail": 5},
    },
    "devops/terragrunt.json": {
        "id": "devops/terragrunt",
        "family": "iac-cli",
        "match": {"toolNames": ["exec"], "argv0": ["terragrunt"]},
        "summarize": {"head": 10, "tail": 10},
        "failure": {"preserveOnFailure": True, "head": 20, "tail": 20},
    },
}


def write_ts_format_rules(rules_dir: Path) -> None:
    for rel, rule in TS_FORMAT_RULES.items():
        (rules_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (rules_dir / rel).write_text(json.dumps(rule, indent=2), encoding="utf-8")


def test_rules_in_the_typescript_format_override_by_id(tmp_path: Path) -> None:
    rules_dir = tmp_path / "rules"
    write_ts_format_rules(rules_dir)
    builtin = load_rules(tmp_path, user=False, project=False, cache=False)
    rs = load_rules(tmp_path, user_dir=str(rules_dir), project=False, cache=False)
    assert rs.problems == []
    assert chosen(builtin, "ls -la")[1] == "builtin"
    assert chosen(rs, "ls -la") == ("filesystem/ls", "user")
    for command in ("gh pr list", "gh issue view 3", "gh api user", "gh run view 9 --log-failed"):
        assert chosen(builtin, command)[0].startswith("cloud/gh-"), command
        assert chosen(rs, command) == ("cloud/gh", "user"), command
    # Ours merges terragrunt into devops/terraform(-plan); the TypeScript id replaces both.
    assert chosen(builtin, "terragrunt run-all plan")[0] == "devops/terraform-plan"
    assert chosen(rs, "terragrunt run-all plan") == ("devops/terragrunt", "user")
    assert "devops/terraform" not in rs.by_id and "devops/terraform-plan" not in rs.by_id
    # Rules of other tools stay ours.
    assert chosen(rs, "git status") == ("git/status", "builtin")


def test_an_override_in_the_typescript_format_reduces_with_its_own_settings(tmp_path: Path) -> None:
    rules_dir = tmp_path / "rules"
    write_ts_format_rules(rules_dir)
    rs = load_rules(tmp_path, user_dir=str(rules_dir), project=False, cache=False)
    listing = "".join(f"file_{i:03d}.txt\n" for i in range(200))
    run = ToolRun(tool_name="exec", command="ls", combined=listing, exit_code=0)
    red = Reducer(rules=rs, store=False, record=False).reduce_run(run)
    assert red.rule_id == "filesystem/ls"
    assert red.facts == {"entry": 200}
    lines = red.text.splitlines()
    assert "file_000.txt" in lines and "file_199.txt" in lines
    assert "file_100.txt" not in lines  # the override's head 5 / tail 3 window, not ours
    assert red.to_dict()["classification"]["matchedReducer"] == "filesystem/ls"
