"""rspec: numbered failures keep Failure/Error, expected/got and project backtrace;
the rerun list stays; dots, the documentation tree and Pending go."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "rspec", "tests/rspec"
IDS = [
    "rspec-failures",
    "rspec-documentation-failures",
    "rspec-color",
    "rspec-documentation-large-pass",
    "rspec-load-error",
]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failures_and_rerun_lines() -> None:
    fx, red = reduced(FAMILY, "rspec-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert count(rf"^\d+\) {name}$", red.text) == 1
    assert count(r"^rspec \./spec/", red.text) == len(signals(fx, "failing_test"))
    assert "Pending:" not in red.text and "express rates are not implemented" not in red.text
    assert "Finished in" not in red.text
    # Examples sharing one line of code show its Failure/Error line once.
    assert red.text.count("Failure/Error: expect(Cart.format_cents(cents))") == 1
    assert red.facts["failures"] == 13 and red.facts["examples"] == 48


def test_documentation_tree_goes() -> None:
    _fx, red = reduced(FAMILY, "rspec-documentation-large-pass", RULE)
    assert count(r"keeps the price of row", red.text) == 0
    assert red.text.startswith("1500 examples, 0 failures")


def test_load_error() -> None:
    _fx, red = reduced(FAMILY, "rspec-load-error", RULE)
    assert "An error occurred while loading ./broken/tax_spec.rb." in red.text
    assert "LoadError:" in red.text


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("rspec", UNRELATED) is None
