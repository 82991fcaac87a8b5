"""phpunit: defects keep message, diff body and project locations (once per data
provider); banner, dots, ✔ lines and diff headers go; counts on top."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "phpunit", "tests/phpunit"
IDS = ["phpunit-failures", "phpunit-testdox-failures", "phpunit-color", "phpunit-testdox-large-pass", "phpunit-pass"]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_defects() -> None:
    _fx, red = reduced(FAMILY, "phpunit-failures", RULE)
    assert "PHPUnit 9" not in red.text and "Time:" not in red.text
    assert count(r"^(?:--- Expected|\+\+\+ Actual|@@ @@)$", red.text) == 0
    assert "-'0.00'" in red.text and "+'0.0'" in red.text
    assert red.text.count("tests/CartTest.php:48") == 1  # one location for the data sets
    assert red.facts["failures"] == 12 and red.facts["tests"] == 47
    assert red.text.splitlines()[1].startswith("ERRORS!; Tests: 47")


def test_testdox_drops_gutter_and_passes() -> None:
    fx, red = reduced(FAMILY, "phpunit-testdox-failures", RULE)
    assert "│" not in red.text and "✔" not in red.text
    assert count(r"^✘ ", red.text) == len(list(signals(fx, "failing_test"))) - 1  # the risky one is ☢


def test_large_pass() -> None:
    _fx, red = reduced(FAMILY, "phpunit-testdox-large-pass", RULE)
    assert red.text.startswith("OK (1500 tests")
    assert red.omitted["passed"] == 1500


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("phpunit", UNRELATED) is None
