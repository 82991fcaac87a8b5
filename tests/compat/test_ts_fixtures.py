"""Ours against the TypeScript tokenjuice's own 136 fixtures (read from its checkout
at test time; skipped when it is absent).

For each fixture: ours picks a rule for the same tool (the same id, one that answers
to it through `aliases`, or the rule of the tool a runner it names runs); our text
keeps every line its expected output keeps that carries a number, a path, an error or
a failure; and our reduce-json prints every field its prints. Where its expected text
is its own wording rather than the tool's (a counter label, a one-line summary), the
case is listed below with why, and ours must keep every error or failure line of the
raw output instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.compat._ts import TS_ROOT
from tokenjuice.command import analyze
from tokenjuice.model import ToolRun
from tokenjuice.reduction.engine import Reducer

TS_FIXTURES = TS_ROOT / "src" / "rules" / "fixtures"
PATHS = sorted(TS_FIXTURES.rglob("*.fixture.json")) if TS_FIXTURES.is_dir() else []
pytestmark = pytest.mark.skipif(not PATHS, reason=f"TypeScript tokenjuice fixtures not at {TS_FIXTURES}")

# Tools ours has no rule for, with why.
NO_RULE = {
    "openclaw/sessions-history": "an OpenClaw host tool (sessions_history), not a shell command: no argv to match",
}
# Runner rules of theirs whose tool ours unwraps to the program it runs.
RUNNERS = {
    "task/uv": "`uv run X` is X's rule (tests/pytest for uv run pytest)",
    "task/env": "`env … X` is X's rule",
}
# Expected texts that are the TypeScript reducer's own wording, not lines of the tool's
# output: ours states the same with the tool's lines.
OWN_WORDING = {
    "tests-pytest-basic": "'failed test' is its counter's label; ours keeps the FAILED line and pytest's count",
    "tests-swift-test-failure-basic": "'failed test' is its counter's label; ours keeps the failing test lines",
    "build-xcodebuild-failure-basic": "'failed command' is its counter's label; ours keeps the failed commands",
    "tests-bun-basic": "'failed' is its counter's label; ours keeps bun's (fail) lines and counts",
    "tests-cargo-basic": "'failed test' is its counter's label; ours keeps the FAILED test lines",
    "tests-go-basic": "'failed package' is its counter's label; ours keeps go's FAIL lines",
    "tests-jest-basic": "'failed test' is its counter's label; ours keeps jest's summary lines",
    "tests-vitest-basic": "'failed suite' is its counter's label; ours keeps vitest's FAIL lines",
    "network-ssh-basic": "'error' is its counter's label; ours keeps ssh's own error line",
    "service-systemctl-status-basic": "'error' is its counter's label; ours keeps the failed unit's lines",
    "service-service-basic": "'error' is its counter's label; ours keeps the service's own status line",
    "cloud-gh-basic": "'#67473' is its rendering of the JSON records; ours keeps each record as gh printed it",
}

FAILURE = re.compile(r"(?i:error|fail|exception|panic|fatal|denied|cannot|not found)")
SIGNAL = re.compile(r"\d|[\w.-]*/[\w./-]+|\b\w+\.[a-z]{1,5}\b|" + FAILURE.pattern)
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
REDUCER = Reducer(user_rules=False, project_rules=False, store=False, record=False)


def norm(text: str) -> str:
    """Compared without ANSI escapes, runs of whitespace or case."""
    return re.sub(r"\s+", " ", ANSI.sub("", text)).strip().lower()


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def reduce(fx: dict[str, Any]) -> Any:
    i = fx["input"]
    run = ToolRun(
        tool_name=i.get("toolName") or "exec",
        command=i.get("command"),
        argv=i.get("argv"),
        combined=i["combinedText"],
        exit_code=i.get("exitCode"),
    )
    return REDUCER.reduce_run(run)


def same_tool(fx: dict[str, Any], ours: str) -> bool:
    ts_id = fx["ruleId"]
    if ours == ts_id:
        return True
    rule = REDUCER.ruleset().by_id.get(ours)
    if rule is not None and ts_id in rule.aliases:
        return True
    if ts_id in RUNNERS and ours != "generic/fallback":
        i = fx["input"]
        steps = analyze(i.get("command"), i.get("argv")).steps
        return any("runner" in s or "wrapper" in s for s in steps)
    return False


def fixture_id(path: Path) -> str:
    return str(load(path)["id"])


@pytest.mark.parametrize("path", PATHS, ids=fixture_id)
def test_ours_picks_a_rule_for_the_same_tool(path: Path) -> None:
    fx = load(path)
    ours = reduce(fx).rule_id
    ts_id = fx["ruleId"]
    if ts_id in NO_RULE:
        pytest.xfail(NO_RULE[ts_id])
    assert same_tool(fx, ours), (ts_id, ours)
    if ours == ts_id:  # a piece of a split may name its own family (`mvn test`: test-results)
        assert reduce(fx).family == fx["expect"]["family"]


def missing_expected(fx: dict[str, Any], ours: str) -> list[str]:
    """Lines of its expected output carrying a signal that our text lacks."""
    expect = fx["expect"]
    wanted = [*expect.get("contains", ()), *(expect.get("inlineText") or "").splitlines()]
    return [w for w in wanted if SIGNAL.search(w) and norm(w) not in ours]


def test_every_allow_listed_case_is_a_fixture_that_needs_it() -> None:
    by_id = {fx["id"]: fx for fx in map(load, PATHS)}
    assert [fid for fid in OWN_WORDING if fid not in by_id] == []
    stale = [fid for fid in OWN_WORDING if not missing_expected(by_id[fid], norm(reduce(by_id[fid]).text))]
    assert stale == [], "these no longer need their entry"


@pytest.mark.parametrize("path", PATHS, ids=fixture_id)
def test_ours_keeps_every_signal_line_its_output_keeps(path: Path) -> None:
    fx = load(path)
    red = reduce(fx)
    ours = norm(red.text)
    missing = missing_expected(fx, ours)
    if fx["id"] in OWN_WORDING and missing:
        # Its text is wording of its own; ours must keep every error or failure line of the output.
        raw = ANSI.sub("", fx["input"]["combinedText"]).splitlines()
        missing = [line for line in raw if FAILURE.search(line) and norm(line) not in ours]
    assert not missing, (fx["id"], missing, red.text)


@pytest.mark.parametrize("path", PATHS, ids=fixture_id)
def test_our_reduce_json_prints_every_field_its_prints(path: Path) -> None:
    fx = load(path)
    d = reduce(fx).to_dict()
    # Its CompactResult: previewText when it has a summary, facts when a counter ran.
    fields = {"inlineText", "compaction", "stats", "classification", "previewText", "facts"}
    assert fields <= set(d)
    assert {"authoritative", "kinds"} == set(d["compaction"])
    assert {"rawChars", "reducedChars", "ratio"} <= set(d["stats"])
    assert {"family", "confidence", "matchedReducer"} <= set(d["classification"])
    assert d["classification"]["matchedReducer"] == d["ruleId"]
    assert d["classification"]["matchedVia"] in ("original", "shell-body", "effective")  # its CommandMatchSource


def test_summary_same_tool_count(capsys: pytest.CaptureFixture[str]) -> None:
    same = sum(same_tool(fx, reduce(fx).rule_id) for fx in map(load, PATHS))
    with capsys.disabled():
        print(f"\nTypeScript fixtures: ours picks a rule for the same tool in {same}/{len(PATHS)}")
    assert same >= 130
