"""Fuzzing the rule loader, the JSON protocol and the CLI arguments: malformed input gives
one line on stderr and exit 2 (or a skipped rule with a named warning), never a traceback."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokenjuice import _log
from tokenjuice.cli.main import main
from tokenjuice.rules.loader import load_rules

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
RULE_KEYS = ["id", "family", "match", "filters", "counters", "summarize", "failure", "transforms", "matchOutput"]
RULEISH = st.dictionaries(st.sampled_from(RULE_KEYS), JSON, max_size=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(JSON, RULEISH, st.lists(RULEISH, max_size=3)), garbage=st.binary(max_size=30))
def test_rule_loader_never_raises(tmp_path: Path, content: Any, garbage: bytes) -> None:
    user = tmp_path / "rules"
    user.mkdir(exist_ok=True)
    (user / "fuzz.json").write_text(json.dumps(content))
    (user / "garbage.json").write_bytes(garbage)
    warnings: list[str] = []
    _log.add_listener(warnings.append)
    try:
        rs = load_rules(tmp_path, user_dir=str(user), project=False, cache=False)
    finally:
        _log.remove_listener(warnings.append)
    assert rs.fallback is not None
    assert len(rs.by_id) > 100  # the built-in layer is never lost
    for p in rs.problems:
        assert "fuzz.json" in str(p) or "garbage.json" in str(p)


def run_cli(args: list[str], stdin: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        try:
            rc = main(args)
        except SystemExit as exc:
            rc = int(exc.code or 0)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(rc: int, err: str) -> None:
    assert "Traceback" not in err
    if rc == 2:
        assert err.startswith("tokenjuice: error: ") and err.count("\n") == 1, err


PAYLOAD = st.one_of(
    JSON,
    st.dictionaries(
        st.sampled_from(
            ["toolName", "command", "argv", "cwd", "stdout", "stderr", "combinedText", "exitCode", "input", "options"]
        ),
        JSON,
        max_size=6,
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=PAYLOAD, broken=st.booleans())
def test_reduce_json_protocol(payload: Any, broken: bool, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.dumps(payload).encode()
    if broken:
        data = data[: len(data) // 2] + b"\xff"
    rc, out, err = run_cli(["reduce-json"], data, capsys)
    assert rc in (0, 2)
    one_line_error(rc, err)
    if rc == 0:
        assert "inlineText" in json.loads(out)


WORDS = st.sampled_from(
    [
        "reduce",
        "reduce-json",
        "explain",
        "cat",
        "grep",
        "ls",
        "stats",
        "discover",
        "verify",
        "guidance",
        "--command",
        "--exit-code",
        "--max-chars",
        "--max-tokens",
        "--lines",
        "--head",
        "--tail",
        "--since",
        "--by",
        "--json",
        "-x",
        "--",
        "-1",
        "abc",
        "0",
        "99999999999999999999",
        "1-",
        "-",
        "nope.json",
        "pytest",
        "--raw",
        "\x00",
        "é",
        "",
    ]
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=st.lists(WORDS, min_size=1, max_size=6), stdin=st.binary(max_size=200))
def test_cli_arguments(args: list[str], stdin: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_cli(args, stdin, capsys)
    assert rc in (0, 1, 2)
    one_line_error(rc, err)
    assert "internal error" not in err
