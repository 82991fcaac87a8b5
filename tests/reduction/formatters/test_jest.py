"""jest: ● blocks keep message, Expected/Received, failing source line and project
frames; PASS suites, ✓ lines, node_modules frames, code-frame context go."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "jest", "tests/jest"
IDS = [
    "jest-failures",
    "jest-color-each",
    "jest-suite-error",
    "jest-verbose-large-pass",
    "jest-verbose-failures",
    "jest-pass-small",
]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failure_blocks_keep_details_and_drop_noise() -> None:
    fx, red = reduced(FAMILY, "jest-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert f"● {name}" in red.text
    assert 'Expected: "0.00 EUR"' in red.text and 'Received: "0.0 EUR"' in red.text
    assert "> 14 |" in red.text  # the failing source line of the code frame
    assert "node_modules" in fx["combined"] and "node_modules" not in red.text
    assert count(r"^\s+\d+ \|", red.text) == 0  # code-frame context lines
    assert "Snapshots:" not in red.text and "Time:" not in red.text


def test_each_code_frame_is_shown_once() -> None:
    fx, red = reduced(FAMILY, "jest-color-each", RULE)
    frame = ">  8 |     expect(formatMoney(cents)).toBe(expected);"
    assert fx["combined"].count("expect(formatMoney(cents)).toBe(expected);") >= 10
    assert red.text.count(frame) == 1
    assert "\x1b[" not in red.text


def test_console_output_keeps_head_and_tail() -> None:
    _fx, red = reduced(FAMILY, "jest-failures", RULE)
    assert "cache miss for coupon shard 0" in red.text
    assert "cache miss for coupon shard 24" in red.text
    assert "cache miss for coupon shard 12" not in red.text
    assert "console.log" not in red.text


def test_facts_come_from_the_tests_line() -> None:
    fx, red = reduced(FAMILY, "jest-verbose-failures", RULE)
    failed = next(int(s.split()[0]) for s in signals(fx, "summary") if s.endswith(" failed"))
    passed = next(int(s.split()[0]) for s in signals(fx, "summary") if s.endswith(" passed"))
    assert red.facts["failed"] == failed and red.facts["passed"] == passed
    assert count(r"✓", red.text) == 0


def test_passing_verbose_run_is_the_summary() -> None:
    _fx, red = reduced(FAMILY, "jest-verbose-large-pass", RULE)
    assert red.text.startswith("Test Suites: 1 passed")
    assert len(red.text.splitlines()) == 2
    assert red.omitted["passed"] >= 1500


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("jest", UNRELATED) is None
