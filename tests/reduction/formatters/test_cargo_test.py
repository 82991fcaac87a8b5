"""cargo test: ---- blocks keep the panic location and message, project frames and a
head/tail of output; ok lines, progress, std frames and repeated lists go; totals on top."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings

from tests.reduction.formatters._forms import lines_of
from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals
from tokenjuice.reduction.formatters import cargo_test

FAMILY, RULE = "cargo-test", "tests/cargo-test"
IDS = [
    "cargo-test-failures",
    "cargo-test-default-stop",
    "cargo-test-backtrace",
    "cargo-test-filter-pass",
    "cargo-test-color",
    "cargo-test-compile-error",
]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failures_across_targets() -> None:
    fx, red = reduced(FAMILY, "cargo-test-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert count(rf"^---- {re.escape(name)} ----$", red.text) == 1
    assert count(r" \.\.\. ok$", red.text) == 0
    assert "Compiling" not in red.text and "running 1208 tests" not in red.text
    assert "RUST_BACKTRACE" not in red.text
    # Totals over all targets: every `test result:` line of the raw output summed.
    results = re.findall(r"test result: \w+\. (\d+) passed; (\d+) failed", fx["combined"])
    assert red.facts["passed"] == sum(int(p) for p, _ in results)
    assert red.facts["failed"] == sum(int(f) for _, f in results)
    assert red.reduced_chars < red.raw_chars * 0.1


def test_backtrace_keeps_only_project_frames() -> None:
    fx, red = reduced(FAMILY, "cargo-test-backtrace", RULE)
    assert "/rustc/" in fx["combined"]
    assert "/rustc/" not in red.text and "core::panicking" not in red.text
    assert "at ./tests/integration.rs:13:32" in red.text


def test_captured_output_keeps_head_and_tail() -> None:
    _fx, red = reduced(FAMILY, "cargo-test-default-stop", RULE)
    assert "posting #0: cash -> sales 0" in red.text and "posting #19: cash -> sales 1900" in red.text
    assert "posting #10:" not in red.text


def test_compile_error_keeps_message_and_location_not_snippet() -> None:
    _fx, red = reduced(FAMILY, "cargo-test-compile-error", RULE)
    assert " --> tests/broken.rs:" in red.text
    assert count(r"^\s*\d*\s*\|", red.text) == 0


def test_passing_run_is_one_line() -> None:
    _fx, red = reduced(FAMILY, "cargo-test-filter-pass", RULE)
    assert red.text.startswith("test result: ok. 1200 passed; 0 failed")
    assert len(red.text.splitlines()) == 2


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("cargo-test", UNRELATED) is None


@settings(max_examples=1000, deadline=None)
@given(
    line=lines_of(
        "test ", "tests::a", " ", " ... ", "...", "ok", "FAILED", "ignored", ", slow", "bench:", "x", max_size=8
    )
)
@example("test  ... ok")
@example("test a ... ignored, b ... ok")
@example("test ... ok")
@example("test a ... okay ... ok")
def test_status_lines_read_as_the_status_pattern(line: str) -> None:
    want = cargo_test.STATUS_RE.match(line)
    assert cargo_test._status(line) == (want and want.group(2))
