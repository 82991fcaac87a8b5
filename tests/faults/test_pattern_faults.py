"""User- and project-supplied patterns that backtrack catastrophically: every one that
is not proven safe runs under a time limit, so nothing hangs."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from tests.faults._util import assert_failed_open, assert_one_line_error, tj
from tokenjuice.patterns import PatternSpec
from tokenjuice.store.artifacts import Store

# The two, and one of each neighbouring family.
CATASTROPHIC = [
    "(a{1,999}){1,999}$",
    "(a|aa){1,999}$",
    "(a+)+$",
    "(?:a|a?)+$",
    "(a*a*)*b",
    "(\\w|a)+!$",
    "((a+)\\2)+$",
]
LINE = "a" * 40 + "!"


def _tool(directory: Path) -> Path:
    tool = directory / "evil"
    body = f"for _ in range(50):\n    print({LINE!r})\nprint('the last line')\nraise SystemExit(4)\n"
    tool.write_text(f"#!{sys.executable}\n{body}")
    tool.chmod(0o755)
    return tool


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_a_user_rule_with_a_catastrophic_pattern_finishes(pattern: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    rules = home / "config" / "rules"
    rules.mkdir(parents=True)
    rule = {"id": "user/evil", "family": "evil", "match": {"argv0": ["evil"]}, "filters": {"skipPatterns": [pattern]}}
    (rules / "evil.json").write_text(json.dumps(rule))
    started = time.monotonic()
    p = tj("wrap", "--", str(_tool(tmp_path)), home=home, timeout=60)
    text = assert_failed_open(p, 4)
    assert "the last line" in text
    assert time.monotonic() - started < 30
    # Not proven safe: matched in the regex module, under the reduction's time budget.
    assert PatternSpec(pattern, "", "test").risky


def test_a_trusted_project_rule_with_a_catastrophic_pattern_finishes(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    rules = root / ".tokenjuice" / "rules"
    rules.mkdir(parents=True)
    (root / ".git").mkdir()
    rule = {
        "id": "project/evil",
        "family": "evil",
        "match": {"argv0": ["evil"]},
        "filters": {"keepPatterns": [CATASTROPHIC[1]], "skipPatterns": [CATASTROPHIC[0]]},
    }
    (rules / "evil.json").write_text(json.dumps(rule))
    home = tmp_path / "home"
    assert tj("trust", home=home, cwd=root).returncode == 0
    started = time.monotonic()
    p = tj("wrap", "--", str(_tool(root)), home=home, cwd=root, timeout=60)
    assert "the last line" in assert_failed_open(p, 4)
    assert time.monotonic() - started < 30


def _stored(home: Path, data: bytes) -> str:
    store = Store(str(home / "state"))
    try:
        return store.put(data)
    finally:
        store.close()


def test_cli_grep_gives_up_a_catastrophic_pattern_at_its_time_limit(tmp_path: Path) -> None:
    home = tmp_path / "home"
    aid = _stored(home, b"first line\n" + (b"a" * 5000 + b"!\n") * 3 + b"last line\n")
    started = time.monotonic()
    p = tj("grep", aid, "(a+)+$", "--time-limit", "1", home=home, timeout=60)
    err = assert_one_line_error(p)
    assert "search stopped at line 2 after 1s" in err
    assert time.monotonic() - started < 20
    # A pattern proven safe still searches the whole output.
    ok = tj("grep", aid, "^last", home=home)
    assert ok.returncode == 0 and ok.stdout == b"5:last line\n"


@pytest.mark.parametrize("limit", ["nan", "0", "-1", "inf"])
def test_cli_grep_refuses_a_time_limit_that_is_no_limit(limit: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    aid = _stored(home, b"x\n")
    assert_one_line_error(tj("grep", aid, "x", "--time-limit", limit, home=home))
