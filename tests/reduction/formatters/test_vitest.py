"""vitest: FAIL blocks keep error, Expected/Received, ❯ location and failing source
line; ✓ lines, per-file summaries, → previews, separators and timing go."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "vitest", "tests/vitest"
IDS = [
    "vitest-failures",
    "vitest-color-each",
    "vitest-suite-error",
    "vitest-verbose-large-pass",
    "vitest-verbose-failures",
    "vitest-pass-small",
]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failures_keep_location_and_source_line() -> None:
    fx, red = reduced(FAMILY, "vitest-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert name in red.text
    assert "❯ test/cart.test.js:15:25" in red.text
    assert 'expect(c.lines()).toEqual(["A-1 x5"]);' in red.text
    assert count(r"^\s+→ ", red.text) == 0  # previews repeat the FAIL blocks
    assert "⎯⎯" not in red.text
    assert "Duration" not in red.text and "Start at" not in red.text


def test_each_location_is_shown_once() -> None:
    fx, red = reduced(FAMILY, "vitest-color-each", RULE)
    assert fx["combined"].count("test/money.test.js:") >= 10
    assert red.text.count("❯ test/money.test.js:9:32") == 1
    assert red.omitted.get("repeated locations")


def test_headline_and_facts() -> None:
    fx, red = reduced(FAMILY, "vitest-verbose-failures", RULE)
    first = red.text.splitlines()[1]
    assert first.startswith("Test Files: ") and "Tests: " in first
    failed = next(int(s.split()[0]) for s in signals(fx, "summary") if s.endswith(" failed"))
    assert red.facts["failed"] == failed
    assert red.reduced_chars < red.raw_chars * 0.1


def test_passing_run_is_the_summary() -> None:
    _fx, red = reduced(FAMILY, "vitest-verbose-large-pass", RULE)
    assert len(red.text.splitlines()) == 2
    assert red.omitted["passed"] == 1500


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("vitest", UNRELATED) is None
