"""gradle test: FAILED events keep the exception and project frames; task progress,
PASSED events, JVM warnings about gradle's worker and help go; counts on top."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from tests.reduction.formatters._forms import lines_of
from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals
from tokenjuice.reduction.formatters import gradle_test

FAMILY, RULE = "gradle-test", "tests/gradle-test"
IDS = [
    "gradle-test-failures",
    "gradle-test-full-exceptions",
    "gradle-test-events-all",
    "gradle-test-pass",
    "gradle8-test-failures",
]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_events_all_drops_passed_and_library_frames() -> None:
    fx, red = reduced(FAMILY, "gradle-test-events-all", RULE)
    assert count(r" PASSED$", fx["combined"]) > 250
    assert count(r" PASSED$", red.text) == 0
    assert "org.junit.Assert" not in red.text
    assert "at com.example.library.CatalogTest.lateFeeCap(CatalogTest.java:37)" in red.text
    assert "setSecurityManager" not in red.text and "* Try:" not in red.text
    failed = len(signals(fx, "failing_test"))
    assert red.facts["failed"] == failed
    assert red.text.splitlines()[1].endswith("BUILD FAILED")


def test_modern_console() -> None:
    _fx, red = reduced(FAMILY, "gradle8-test-failures", RULE)
    assert "> Task :compileJava" not in red.text
    assert ":test FAILED" in red.text
    assert "app//org.junit" not in red.text


def test_pass() -> None:
    _fx, red = reduced(FAMILY, "gradle-test-pass", RULE)
    assert red.text.startswith("BUILD SUCCESSFUL")


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("gradle-test", UNRELATED) is None


@settings(max_examples=800, deadline=None)
@given(
    line=lines_of(
        "12",
        " tests completed",
        " test completed",
        ", 2 failed",
        ", 1 skipped",
        "BUILD ",
        "SUCCESSFUL",
        "FAILED",
        " in ",
        "3s",
        "* ",
        "Try",
        "Get more help at",
        "a.BTest",
        " > ",
        "case()",
        " PASSED",
        " STANDARD_OUT",
        " ",
        max_size=7,
    )
)
def test_line_patterns_are_tried_only_where_their_literal_is(line: str) -> None:
    # the formatter checks these literals first: each must be on every line its pattern matches
    for rx, has in (
        (gradle_test.COMPLETED_RE, "completed" in line),
        (gradle_test.VERDICT_RE, line.startswith("BUILD ")),
        (gradle_test.TRY_RE, line.startswith("* ")),
        (gradle_test.EVENT_RE, " > " in line),
    ):
        assert has or not rx.match(line), rx.pattern
