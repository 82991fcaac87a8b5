"""Reading back, shared by `tokenjuice cat`/`grep` and the MCP tool `read_output`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tokenjuice.store.readback import (
    DIVIDER,
    Cursor,
    EmptyRangeError,
    PatternError,
    RangeSyntaxError,
    SearchTimeout,
    format_record,
    grep_groups,
    parse_range,
    searcher,
)

LINES = ["a\n", "b\n", "hit 1\n", "c\n", "d\n", "e\n", "f\n", "hit 2\n", "hit 3\n", "g\n"]


def _numbered(lines: list[str]) -> list[tuple[int, str]]:
    return list(enumerate(lines, start=1))


def _grep(lines: list[str], pattern: str, context: int) -> str:
    hit = searcher(pattern, ignore_case=False, limit_s=5)
    return "".join(format_record(r) for group in grep_groups(_numbered(lines), hit, context) for r in group)


def test_ranges_and_their_errors() -> None:
    assert parse_range("120-180") == (120, 180)
    assert parse_range(" 7 - ") == (7, None)
    assert parse_range("-9") == (1, 9)
    assert parse_range("4") == (4, 4)
    for bad in ("", "-", "a-b", "1-2-3", "+3"):
        with pytest.raises(RangeSyntaxError):
            parse_range(bad)
    for empty in ("0-2", "5-3", "0"):
        with pytest.raises(EmptyRangeError):
            parse_range(empty)


def test_groups_divide_only_with_context_as_grep_does() -> None:
    assert _grep(LINES, r"^hit", 0) == "3:hit 1\n8:hit 2\n9:hit 3\n"
    assert _grep(LINES, r"^hit", 1) == "2-b\n3:hit 1\n4-c\n--\n7-f\n8:hit 2\n9:hit 3\n10-g\n"
    # Context that runs into the next group joins it: no divider.
    assert _grep(LINES, r"^hit", 2) == "1-a\n2-b\n3:hit 1\n4-c\n5-d\n6-e\n7-f\n8:hit 2\n9:hit 3\n10-g\n"


def test_a_group_ends_with_the_line_it_is_about() -> None:
    hit = searcher(r"^hit", ignore_case=False, limit_s=5)
    groups = list(grep_groups(_numbered(LINES), hit, 1))
    assert [g[-1] for g in groups] == [
        (3, ":", "hit 1"),
        (4, "-", "c"),
        (8, ":", "hit 2"),
        (9, ":", "hit 3"),
        (10, "-", "g"),
    ]
    assert groups[2][0] == DIVIDER


def test_searcher_rejects_a_bad_pattern_and_bounds_a_risky_one() -> None:
    with pytest.raises(PatternError):
        searcher("(", ignore_case=False, limit_s=5)
    with pytest.raises(PatternError):
        searcher("(", ignore_case=False, limit_s=5, bound_all=True)
    risky = searcher(r"(a+)+$", ignore_case=False, limit_s=0.2)
    with pytest.raises(SearchTimeout):
        risky("a" * 5000 + "!")
    assert searcher("HIT", ignore_case=True, limit_s=5)("a hit")


def test_cursor_knows_where_it_stopped_and_the_total() -> None:
    lines = Cursor([b"one\ntw", b"o\nthree"])
    assert next(lines) == (1, "one\n") and lines.at == 1
    assert lines.drain() == 3


def test_cli_grep_and_mcp_read_output_print_the_same_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tokenjuice.mcp.tools import Tools
    from tokenjuice.store.artifacts import Store

    home = tmp_path / "home"
    monkeypatch.setenv("TOKENJUICE_HOME", str(home))
    body = "".join(f"step {i}\n" if i % 97 else f"error: step {i} failed\n" for i in range(1, 2001))
    store = Store()
    try:
        aid = store.put(body.encode(), command="make")
    finally:
        store.close()
    env = dict(os.environ, TOKENJUICE_HOME=str(home))
    cli = subprocess.run(
        [sys.executable, "-m", "tokenjuice", "grep", aid, "^error", "-C", "2"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert cli.returncode == 0, cli.stderr
    reply = Tools().read_output({"handle": aid, "grep": "^error", "context": 2})
    assert not reply.is_error
    assert reply.texts[0] == cli.stdout
    assert cli.stdout.count(":error: step") == 20 and cli.stdout.count("--\n") == 19
    assert reply.texts[1].startswith("[20 matching lines of 2,000")
