"""unittest: FAIL/ERROR blocks keep ids, project frames and exception lines; dots,
`... ok` lines, stdlib frames and separators go; `Ran N tests` + verdict on top."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "unittest", "tests/unittest"


@pytest.mark.parametrize(
    "fid",
    [
        "unittest-failures-default",
        "unittest-failures-verbose",
        "unittest-buffer-stdout",
        "unittest-discovery-errors",
        "unittest-single-pass",
        "unittest-large-verbose-pass",
        "unittest-large-verbose-failures",
    ],
)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failures_keep_ids_and_exceptions_but_not_progress() -> None:
    fx, red = reduced(FAMILY, "unittest-failures-default", RULE)
    for test_id in signals(fx, "failing_test"):
        assert test_id in red.text
    assert "=" * 70 not in red.text and "-" * 70 not in red.text
    assert "Traceback (most recent call last)" not in red.text
    assert not re.search(r"^\s*[~^]+\s*$", red.text, re.M)  # caret lines
    # Facts come from the run's own summary line.
    ran = int(re.search(r"Ran (\d+) tests", fx["combined"]).group(1))  # type: ignore[union-attr]
    failures = int(re.search(r"failures=(\d+)", fx["combined"]).group(1))  # type: ignore[union-attr]
    assert red.facts["tests"] == ran
    assert red.facts["failures"] == failures
    assert red.text.splitlines()[1].startswith(f"Ran {ran} tests")


def test_subtests_repeating_one_traceback_show_it_once() -> None:
    fx, red = reduced(FAMILY, "unittest-failures-default", RULE)
    frame = next(ln for ln in fx["combined"].splitlines() if "in test_cube" in ln)
    assert fx["combined"].count(frame) == 3
    assert red.text.count(frame) == 1
    assert red.omitted.get("repeated traceback")


def test_verbose_ok_lines_go() -> None:
    fx, red = reduced(FAMILY, "unittest-failures-verbose", RULE)
    assert count(r"\.\.\. ok$", fx["combined"]) > 3
    assert count(r"\.\.\. ok$", red.text) == 0
    assert "skipped 'carrier table" not in red.text


def test_discovery_errors_drop_loader_frames() -> None:
    fx, red = reduced(FAMILY, "unittest-discovery-errors", RULE)
    assert "unittest/loader.py" in fx["combined"]
    assert "unittest/loader.py" not in red.text
    assert "broken/test_customs.py" in red.text  # the project frame stays


def test_buffered_stdout_keeps_head_and_tail() -> None:
    _fx, red = reduced(FAMILY, "unittest-buffer-stdout", RULE)
    assert "polling hub 0: queue depth 0" in red.text
    assert "polling hub 4: queue depth 87" in red.text
    assert "queue depth 42" not in red.text


def test_large_pass_is_just_the_summary() -> None:
    _fx, red = reduced(FAMILY, "unittest-large-verbose-pass", RULE)
    assert len(red.text.splitlines()) <= 2
    assert red.omitted.get("passed", 0) >= 3000
    assert red.text.startswith("Ran 3000 tests") and "OK" in red.text.splitlines()[0]


def test_large_failures_keep_every_failing_row() -> None:
    fx, red = reduced(FAMILY, "unittest-large-verbose-failures", RULE)
    ids = signals(fx, "failing_test")
    assert len(ids) >= 10
    assert red.reduced_chars < red.raw_chars * 0.15


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("unittest", UNRELATED) is None
