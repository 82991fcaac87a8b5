"""cargo nextest: FAIL lines keep their panic, PASS lines and libtest boilerplate go,
the recap after the summary goes, the Summary line is the headline."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "cargo-nextest", "tests/cargo-nextest"


@pytest.mark.parametrize("fid", ["cargo-nextest-failures", "cargo-nextest-pass"])
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failures_once_with_panic() -> None:
    fx, red = reduced(FAMILY, "cargo-nextest-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert count(rf"^FAIL {name}$", red.text) == 1
    assert count(r"PASS \[", red.text) == 0
    assert "running 1 test" not in red.text and "test result:" not in red.text
    assert "--- STDERR" not in red.text
    assert red.facts["failed"] == len(signals(fx, "failing_test"))


def test_pass_is_the_summary() -> None:
    _fx, red = reduced(FAMILY, "cargo-nextest-pass", RULE)
    assert len(red.text.splitlines()) == 2 and "passed" in red.text.splitlines()[0]


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("cargo-nextest", UNRELATED) is None
