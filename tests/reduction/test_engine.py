"""Engine guarantees: fail open, escape hatch, exit code, determinism, no warnings in text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load, lost
from tokenjuice.model import ToolRun
from tokenjuice.reduction import generic, pipeline
from tokenjuice.reduction.engine import FAIL_OPEN_MAX_CHARS, Reducer
from tokenjuice.rules.fixtures import fixture_run
from tokenjuice.rules.loader import RuleSet, load_rules
from tokenjuice.rules.rule import Rule


def builtin() -> Reducer:
    return Reducer(user_rules=False, project_rules=False)


def test_exit_code_is_stated_first_and_never_claims_success() -> None:
    fx = load("pytest", "pytest-failures-default")
    red = builtin().reduce_run(fixture_run(fx))
    assert red.text.splitlines()[0] == "exit 1"
    # A successful run has no exit line.
    ok = builtin().reduce_run(fixture_run(load("pytest", "pytest-verbose-pass")))
    assert not ok.text.startswith("exit")


def test_raw_escape_hatch() -> None:
    fx = load("pytest", "pytest-failures-default")
    run = fixture_run(fx)
    for argv in (["pytest", "--raw"], ["pytest", "--full", "-q"]):
        r = ToolRun(command=None, argv=argv, combined=run.combined, exit_code=1)
        red = builtin().reduce_run(r)
        assert red.mode == "raw"
        assert red.text == "exit 1\n" + run.combined
    hist = builtin().reduce(run.combined, command="git log --full-history", exit_code=0)
    assert hist.mode != "raw"
    bypassed = builtin().reduce_run(run, bypass=True)
    assert bypassed.mode == "raw"
    assert bypassed.text.startswith("exit 1\n")


def test_deterministic_bytes() -> None:
    for family, fid in [
        ("git-log", "git-log-full"),
        ("service-log", "service-log-large"),
        ("pytest", "pytest-failures-quiet"),
    ]:
        run = fixture_run(load(family, fid))
        a = Reducer(user_rules=False, project_rules=False).reduce_run(run).text
        b = Reducer(user_rules=False, project_rules=False).reduce_run(run).text
        assert a == b


def test_bad_regex_is_skipped_with_a_warning_not_in_the_text() -> None:
    rs = RuleSet()
    rs.add(
        Rule(
            {
                "id": "t/x",
                "family": "t",
                "match": {"argv0": ["x"]},
                "filters": {"skipPatterns": ["(unclosed", "^noise"]},
            },
            "user",
            "/rules/x.json",
        )
    )
    red = Reducer(rules=rs, store=False, record=False, min_saved_tokens=-1).reduce(
        "noise\nsignal line\n" * 10, command="x"
    )
    assert "noise" not in red.text.splitlines()
    assert "signal line" in red.text
    assert any("/rules/x.json: rule 't/x': filters.skipPatterns[0]" in w for w in red.warnings), red.warnings
    assert "unclosed" not in red.text


def test_malformed_rule_file_does_not_stop_reduction(tmp_path: Path) -> None:
    user = tmp_path / "rules"
    user.mkdir()
    (user / "broken.json").write_text("{", encoding="utf-8")
    rs = load_rules(None, user_dir=str(user), project=False, cache=False)
    red = Reducer(rules=rs, store=False, record=False).reduce_run(fixture_run(load("git-status", "git-status-long")))
    assert red.rule_id == "git/status"


def test_any_exception_passes_the_original(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: Any, **__: Any) -> None:
        raise RuntimeError("formatter exploded")

    monkeypatch.setattr(pipeline, "apply_rule", boom)
    fx = load("pytest", "pytest-failures-default")
    run = fixture_run(fx)
    red = builtin().reduce_run(run)
    assert red.mode == "fail-open"
    assert red.text.startswith("exit 1\n")
    assert not lost(fx, red.text)
    assert "formatter exploded" not in red.text
    assert any("formatter exploded" in w for w in red.warnings)


def test_fail_open_caps_huge_outputs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generic, "apply_generic", lambda *_a, **_k: 1 / 0)
    big = "".join(f"line {i} of a very large output\n" for i in range(200_000))
    red = builtin().reduce(big, command="python3 dump.py", exit_code=0)
    assert red.mode == "fail-open"
    assert len(red.text) < FAIL_OPEN_MAX_CHARS + 200
    assert "line 0 of" in red.text
    assert "line 199999 of" in red.text
    assert "lines omitted" in red.text


def test_empty_reduction_returns_the_original() -> None:
    rs = RuleSet()
    rs.add(
        Rule(
            {"id": "t/x", "family": "t", "match": {"argv0": ["x"]}, "filters": {"skipPatterns": ["."]}},
            "user",
            "x.json",
        )
    )
    red = Reducer(rules=rs, store=False, record=False).reduce("only noise\n" * 3, command="x")
    assert red.mode == "original"
    assert "only noise" in red.text


def test_reduction_not_shorter_returns_the_original() -> None:
    rs = RuleSet()
    rs.add(Rule({"id": "t/x", "family": "t", "match": {"argv0": ["x"]}, "formatter": "git-status"}, "user", "x.json"))
    red = Reducer(rules=rs, store=False, record=False).reduce(
        "On branch main\nnothing to commit, working tree clean\n", command="x"
    )
    assert red.mode in ("original", "rule")
    assert len(red.text) <= len("On branch main\nnothing to commit, working tree clean\n")


def test_unknown_formatter_warns_and_applies_the_rule_without_it() -> None:
    rs = RuleSet()
    rs.add(
        Rule(
            {
                "id": "t/x",
                "family": "t",
                "match": {"argv0": ["x"]},
                "formatter": "no-such-thing",
                "filters": {"skipPatterns": ["^drop"]},
            },
            "user",
            "x.json",
        )
    )
    red = Reducer(rules=rs, store=False, record=False, min_saved_tokens=-1).reduce(
        "drop me\nkeep me\n" * 5, command="x"
    )
    assert "drop me" not in red.text
    assert any("unknown formatter 'no-such-thing'" in w for w in red.warnings)


def test_classifier_forces_a_rule() -> None:
    fx = load("git-status", "git-status-long")
    red = builtin().reduce_run(fixture_run(fx), classifier="git/status")
    assert red.classification.selected_by == "classifier"
    plain = builtin().reduce(fixture_run(fx).combined, command="cat status.txt")
    assert plain.rule_id != "git/status"


def test_result_fields_and_json_shape() -> None:
    fx = load("make", "make-c-errors")
    red = builtin().reduce_run(fixture_run(fx))
    d = red.to_dict()
    assert d["inlineText"] == red.text
    assert d["classification"]["matchedReducer"] == "task/make"
    assert d["classification"]["family"] == "task-runner"
    assert d["stats"]["rawChars"] == len(fixture_run(fx).combined)
    assert d["stats"]["reducedChars"] == len(red.text)
    assert 0 < d["stats"]["ratio"] < 1
    assert d["facts"]["error"] >= 1
    assert d["lossy"] is True
    json.dumps(d)


def test_the_garbage_collector_is_paused_only_during_a_large_reduction(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from tokenjuice.reduction import engine, pipeline

    seen: list[bool] = []
    real = pipeline.apply_rule

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kw)

    monkeypatch.setattr(pipeline, "apply_rule", spy)
    big = "".join(f"step {i}: ok\n" for i in range(engine.GC_PAUSE_ABOVE // 8))
    reducer = Reducer(store=False, record=False)
    assert gc.isenabled()
    reducer.reduce(big, command="pytest", exit_code=0)
    reducer.reduce("step 1: ok\n" * 10, command="pytest", exit_code=0)
    assert seen == [False, True] and gc.isenabled()
    gc.disable()  # a caller's own choice stands
    try:
        reducer.reduce(big, command="pytest", exit_code=0)
        assert not gc.isenabled()
    finally:
        gc.enable()

    def broken(*args: Any, **kw: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(pipeline, "apply_rule", broken)
    red = reducer.reduce(big, command="pytest", exit_code=0)
    assert red.mode == "fail-open" and gc.isenabled()
