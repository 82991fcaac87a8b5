"""mocha: numbered failures keep a joined title, error line, diff head and project
frames; the spec tree, ✔ lines, dots and mocha's repeated diff go."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "mocha", "tests/mocha"
IDS = [
    "mocha-failures",
    "mocha-color",
    "mocha-dot-failures",
    "mocha-large-pass",
    "mocha-load-error",
    "mocha-pass-small",
]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failures_are_one_line_titles_with_their_error() -> None:
    fx, red = reduced(FAMILY, "mocha-failures", RULE)
    assert "1) Cart › #add() › merges quantities of the same sku:" in red.text
    assert "AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:" in red.text
    assert count(r"✔", red.text) == 0
    assert "node:internal" not in red.text
    # mocha's own `+ expected - actual` diff repeats node's assertion diff.
    assert count(r"\+ expected - actual", fx["combined"]) > 5
    assert count(r"\+ expected - actual", red.text) <= 1


def test_facts_from_the_counts() -> None:
    fx, red = reduced(FAMILY, "mocha-dot-failures", RULE)
    for s in signals(fx, "summary"):
        n, word = s.split()
        assert red.facts[word] == int(n)
    assert red.text.splitlines()[1].startswith(f"{red.facts['passing']} passing")


def test_load_error_keeps_the_exception() -> None:
    _fx, red = reduced(FAMILY, "mocha-load-error", RULE)
    assert "Exception during run: Error: Cannot find module '../src/tax'" in red.text
    assert "node:internal" not in red.text


def test_large_pass_is_the_count() -> None:
    _fx, red = reduced(FAMILY, "mocha-large-pass", RULE)
    assert red.text.startswith("2000 passing")
    assert red.omitted["passed"] == 2000


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("mocha", UNRELATED) is None
