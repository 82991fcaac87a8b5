"""playwright: numbered failure blocks keep error, Locator/Expected/Received, call-log
head, failing source line and frames; progress lines, retries repeating the first
attempt and the closing failed list go."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "playwright", "tests/playwright"
IDS = ["playwright-list-failures", "playwright-line-retries", "playwright-list-large-pass", "playwright-color-failures"]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_blocks_keep_the_assertion_details() -> None:
    fx, red = reduced(FAMILY, "playwright-list-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert count(r"^\d+\) \[chromium\] › " + name.replace("(", r"\(").replace(")", r"\)"), red.text) == 1
    assert "Locator:  locator('#total')" in red.text
    assert '> 23 |     await expect(page.locator("#total")).toHaveText("15.00");' in red.text
    assert "Error Context:" in red.text
    assert count(r"^\s+✓", red.text) == 0 and "Running 7 tests" not in red.text
    assert "─" not in red.text


def test_retries_do_not_repeat_the_first_attempt() -> None:
    fx, red = reduced(FAMILY, "playwright-line-retries", RULE)
    msg = "Error: expect(locator).toHaveText(expected) failed"
    assert fx["combined"].count(msg) == 4
    assert red.text.count(msg) == 2  # once per failing test
    assert count(r"^\[\d+/\d+\]", red.text) == 0
    assert red.omitted.get("repeated retry")


def test_facts() -> None:
    fx, red = reduced(FAMILY, "playwright-list-failures", RULE)
    failed = int(next(s for s in signals(fx, "summary") if s.endswith("failed")).split()[0])
    assert red.facts["failed"] == failed
    assert red.facts["passed"] == 1


def test_large_pass() -> None:
    _fx, red = reduced(FAMILY, "playwright-list-large-pass", RULE)
    assert red.text.startswith("600 passed")
    assert red.omitted["passed"] == 600


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("playwright", UNRELATED) is None
