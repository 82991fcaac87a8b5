"""node --test: TAP and spec; failing tests keep location, error and project frames;
ok/✔ lines, YAML details of passing tests, node internals and inline repeats go."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "node-test", "tests/node-test"
IDS = [
    "node-test-tap-failures",
    "node-test-spec-failures",
    "node-test-spec-color",
    "node-test-spec-large-pass",
    "node-test-tap-large-pass",
]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_tap_keeps_not_ok_with_location_and_error() -> None:
    _fx, red = reduced(FAMILY, "node-test-tap-failures", RULE)
    assert count(r"^not ok \d+ - merges quantities of the same sku$", red.text) == 1
    assert "location: '" in red.text
    assert count(r"^\s*ok \d+ - ", red.text) == 0
    assert "# Subtest:" not in red.text and "duration_ms" not in red.text
    assert "node:internal" not in red.text and "(<anonymous>)" not in red.text


def test_spec_shows_each_failure_once() -> None:
    fx, red = reduced(FAMILY, "node-test-spec-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert count(rf"✖ {name} \(", red.text) == 1, name
    assert fx["combined"].count("✖ merges quantities of the same sku") == 2
    assert "test at test/cart.test.js:11:3" in red.text
    assert "generatedMessage" not in red.text and "operator:" not in red.text


def test_counts_become_facts() -> None:
    fx, red = reduced(FAMILY, "node-test-spec-failures", RULE)
    fail = int(next(s for s in signals(fx, "summary") if s.startswith("fail ")).split()[1])
    assert red.facts["fail"] == fail
    assert red.text.splitlines()[1].startswith("tests ")


def test_large_tap_pass_is_the_counts() -> None:
    _fx, red = reduced(FAMILY, "node-test-tap-large-pass", RULE)
    assert red.text.startswith("tests 2000; pass 2000")
    assert red.reduced_chars < 200


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("node-test", UNRELATED) is None
