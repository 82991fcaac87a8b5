"""go test: --- FAIL lines keep their messages (moved under the verdict with -v),
panics keep project frames, passing tests/packages go; package verdicts on top."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "go-test", "tests/go-test"
IDS = [
    "go-test-failures",
    "go-test-verbose-failures",
    "go-test-verbose-large-pass",
    "go-test-pass",
    "go-test-short-count",
    "go-test-build-failed",
]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_verbose_messages_follow_their_verdict() -> None:
    _fx, red = reduced(FAMILY, "go-test-verbose-failures", RULE)
    lines = red.text.splitlines()
    verdict = lines.index("--- FAIL: TestAddMerges (0.00s)")
    assert "cart_test.go:23: qty = 3, want 5" in lines[verdict + 1]
    assert count(r"^=== RUN", red.text) == 0 and count(r"--- PASS", red.text) == 0
    assert "cart has 2 lines" not in red.text  # t.Logf of a passing test


def test_panic_keeps_project_frames_only() -> None:
    fx, red = reduced(FAMILY, "go-test-failures", RULE)
    assert "panic: runtime error: index out of range [3] with length 1" in red.text
    assert "cart/cart_test.go:65" in red.text
    assert "/src/testing/testing.go" not in red.text and "runtime/panic.go" not in red.text
    failed = len(list(signals(fx, "failing_test")))
    assert red.facts["failed tests"] == failed
    assert red.facts["failed packages"] == 1


def test_build_failure_is_kept() -> None:
    _fx, red = reduced(FAMILY, "go-test-build-failed", RULE)
    assert "[build failed]" in red.text
    assert "build failed" in red.text.splitlines()[1]


def test_large_verbose_pass() -> None:
    _fx, red = reduced(FAMILY, "go-test-verbose-large-pass", RULE)
    assert red.text.startswith("PASS")
    assert red.omitted["passed"] >= 1500


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("go-test", UNRELATED) is None
