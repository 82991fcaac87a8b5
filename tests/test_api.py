"""The public Python API: `tokenjuice.reduction`, `Reducer`, `ToolRun`, lazy imports."""

from __future__ import annotations

import subprocess
import sys

import tokenjuice
from tests.helpers import load, lost
from tokenjuice.rules.fixtures import fixture_run


def test_reduce_function() -> None:
    fx = load("pytest", "pytest-failures-default")
    red = tokenjuice.reduce(fixture_run(fx).combined, command="pytest", exit_code=1)
    assert isinstance(red, tokenjuice.Reduction)
    assert red.text.startswith("exit 1\n")
    assert red.rule_id == "tests/pytest"
    assert red.family == "test-results"
    assert red.raw_chars > red.reduced_chars
    assert red.raw_tokens > red.reduced_tokens > 0
    assert red.lossy
    assert not lost(fx, red.text)
    assert str(red) == red.text


def test_reducer_reuse_and_toolrun() -> None:
    r = tokenjuice.Reducer(user_rules=False, project_rules=False, max_inline_chars=4000)
    run = tokenjuice.ToolRun(command="git status", stdout=load("git-status", "git-status-long")["stdout"])
    a = r.reduce(run)
    b = r.reduce(run)
    assert a.text == b.text
    assert r.ruleset() is r.ruleset()  # rules loaded and compiled once
    assert a.classification.matched_reducer == "git/status"


def test_bypass_keyword() -> None:
    red = tokenjuice.reduce("a\n" * 100, command="python3 x.py", exit_code=2, bypass=True)
    assert red.text == "exit 2\n" + "a\n" * 100


def test_analyze_command_is_public() -> None:
    info = tokenjuice.analyze_command("uv run pytest -q")
    assert info.program == "pytest"


def test_import_is_lazy() -> None:
    code = "import sys, tokenjuice; print(sorted(m for m in sys.modules if m.startswith('tokenjuice')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['tokenjuice']"
