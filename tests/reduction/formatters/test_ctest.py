"""ctest: failed tests keep their output, Passed/Start lines, the -V preamble and the
repeated lists go; the percentage line is the headline."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "ctest", "tests/ctest"
IDS = ["ctest-failures", "ctest-output-on-failure", "ctest-large-pass", "ctest-verbose-pass", "ctest-large-failures"]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failed_tests_without_dot_leaders() -> None:
    fx, red = reduced(FAMILY, "ctest-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert count(rf"^Test #\d+: {name} \*\*\*", red.text) == 1
    assert "...." not in red.text
    assert count(r"Passed", red.text) == 0 and "Start " not in red.text
    assert red.facts["failed"] == len(signals(fx, "failing_test"))


def test_output_on_failure_is_kept() -> None:
    _fx, red = reduced(FAMILY, "ctest-output-on-failure", RULE)
    assert "CHECK failed: perimeter(2, 3) == 10, got 7" in red.text


def test_verbose_pass_drops_preamble_and_output() -> None:
    _fx, red = reduced(FAMILY, "ctest-verbose-pass", RULE)
    assert "UpdateCTestConfiguration" not in red.text and "ok: area(2, 3)" not in red.text
    assert red.text.startswith("100% tests passed")


def test_large_failures_small() -> None:
    _fx, red = reduced(FAMILY, "ctest-large-failures", RULE)
    assert red.reduced_chars < red.raw_chars * 0.1


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("ctest", UNRELATED) is None
