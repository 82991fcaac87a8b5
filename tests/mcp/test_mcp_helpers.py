"""The tools' line reading and text helpers, in process (no MCP session, no SDK needed)."""

from __future__ import annotations

import pytest

from tokenjuice.mcp import tools as srv
from tokenjuice.store.readback import read_slice

CAP = srv.DEFAULT_MAX_READ_CHARS

LINES = [f"line {i}\n" for i in range(1, 101)]


def _chunks(lines: list[str], size: int = 7) -> list[bytes]:
    # Small chunks: a line split across chunks must come back whole.
    data = "".join(lines).encode()
    return [data[i : i + size] for i in range(0, len(data), size)]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [("120-180", (120, 180)), ("7", (7, 7)), ("7-", (7, None)), ("-9", (1, 9)), (" 3 - 4 ", (3, 4))],
)
def test_parse_lines(spec: str, expected: tuple[int, int | None]) -> None:
    assert srv.parse_lines(spec) == expected


@pytest.mark.parametrize("spec", ["", "-", "a-b", "5-3", "0-2", "1-2-3"])
def test_parse_lines_rejects(spec: str) -> None:
    with pytest.raises(srv.ToolArgError):
        srv.parse_lines(spec)


def test_read_slice_ranges_and_tail() -> None:
    assert read_slice(_chunks(LINES), start=10, end=12, cap=CAP) == ("".join(LINES[9:12]), 10, 12, 100, False)
    assert read_slice(_chunks(LINES), start=99, end=None, cap=CAP) == ("".join(LINES[98:]), 99, 100, 100, False)
    assert read_slice(_chunks(LINES), tail=3, cap=CAP) == ("".join(LINES[-3:]), 98, 100, 100, False)
    assert read_slice(_chunks(LINES), start=200, end=300, cap=CAP) == ("", None, None, 100, False)
    assert read_slice(_chunks(["no newline at the end"]), start=1, cap=CAP) == ("no newline at the end", 1, 1, 1, False)


def test_read_slice_cap_keeps_whole_lines_and_says_so() -> None:
    text, first, last, total, cut = read_slice(_chunks(LINES), start=1, end=50, cap=40)
    assert cut and (first, total) == (1, 100)
    assert last is not None and text == "".join(LINES[:last]) and len(text) <= 40
    text, first, last, total, cut = read_slice(_chunks(LINES), tail=50, cap=40)
    assert cut and last == 100
    assert first is not None and text == "".join(LINES[first - 1 :]) and len(text) <= 40
    # One line longer than the cap: its start, marked.
    text, first, last, _, cut = read_slice(_chunks(["x" * 500 + "\n", "y\n"]), start=1, cap=100)
    assert cut and (first, last) == (1, 1) and text.startswith("x" * 100) and "line cut" in text


def test_grep_context_groups_and_numbers() -> None:
    lines = ["a\n", "b\n", "hit 1\n", "c\n", "d\n", "e\n", "f\n", "hit 2\n", "g\n"]
    text, matches, first, last, total, stopped = srv.grep_lines(_chunks(lines), r"^hit", context=1)
    assert text == "2-b\n3:hit 1\n4-c\n--\n7-f\n8:hit 2\n9-g\n"
    assert (matches, first, last, total, stopped) == (2, 2, 9, 9, None)
    text, matches, *_ = srv.grep_lines(_chunks(lines), "HIT", ignore_case=True)
    assert text == "3:hit 1\n8:hit 2\n" and matches == 2


def test_grep_is_bounded() -> None:
    text, matches, _, last, total, stopped = srv.grep_lines(_chunks(LINES), "line", cap=50)
    assert len(text) <= 50 and stopped and "cut at 50" in stopped
    assert total == 100 and last == matches
    long_line = "z" * 10_000 + " needle\n"
    text, matches, *_ = srv.grep_lines(_chunks([long_line]), "needle")
    assert matches == 1 and text.startswith("1:zzz") and text.endswith("…[line cut]\n")
    assert len(text) < srv.GREP_LINE_MAX + 50
    with pytest.raises(srv.ToolArgError, match="invalid grep pattern"):
        srv.grep_lines(_chunks(LINES), "(")


def test_timeout_is_stated_on_the_first_line() -> None:
    note = "timed out after 2s; killed"
    assert srv._state_timeout(f"exit 124\nstarted\n[{note}]", note) == f"exit 124 ({note})\nstarted"
    assert srv._state_timeout("started", note) == f"exit 124 ({note})\nstarted"


def test_pointer_names_read_output() -> None:
    text = "exit 1\nboom\n[… 9 lines omitted (9 noise) · full output: tokenjuice cat 0123456789ab]"
    assert srv._point_to_read_output(text, "0123456789ab").endswith("full output: read_output handle=0123456789ab]")
    # The command's own output is never rewritten; a missing pointer is added.
    odd = "tokenjuice cat 0123456789ab\nend"
    assert srv._point_to_read_output(odd, "0123456789ab") == odd + "\n[full output: read_output handle=0123456789ab]"
