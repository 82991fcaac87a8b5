"""bun test: error blocks before each (fail) line keep the pointed source line, error,
Expected/Received and project frames; (pass) lines and the closing lists go."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals
from tokenjuice.reduction.formatters import bun_test

FAMILY, RULE = "bun-test", "tests/bun-test"


@pytest.mark.parametrize("fid", ["bun-test-failures", "bun-test-color", "bun-test-large-pass"])
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failures_keep_details_once() -> None:
    fx, red = reduced(FAMILY, "bun-test-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert count(rf"^\(fail\) .*{name}$", red.text) == 1, name  # the closing list repeats them
    assert count(r"^\(pass\) ", red.text) == 0
    assert "15 |       expect(c.lines()).toEqual" in red.text  # the line the caret points at
    assert "12 |       const c = new Cart();" not in red.text  # code-frame context
    assert red.text.count("9 |     expect(formatMoney(cents)).toBe(expected);") == 1


def test_counts_in_the_headline() -> None:
    _fx, red = reduced(FAMILY, "bun-test-failures", RULE)
    head = red.text.splitlines()[1]
    assert "16 fail" in head and "Ran 54 tests across 3 files" in head
    assert red.facts["fail"] == 16 and red.facts["tests"] == 54


def test_large_pass() -> None:
    _fx, red = reduced(FAMILY, "bun-test-large-pass", RULE)
    assert red.text.startswith("1500 pass")
    assert red.omitted["passed"] == 1500


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("bun-test", UNRELATED) is None


STATUS_PIECES = ["(pass) ", "(fail) ", "(todo)", "(x) ", " [", "[", "]", "1", ".", "0.5", "m", "s", "ms]", " ", "a"]
STATUS_PIECES += [" [1ms]", " [2]"]


@settings(max_examples=1500, deadline=None)
@example(line="(pass) a [1] [2ms]")
@example(line="(pass) x [1s]ms]")
@given(
    line=st.lists(
        st.sampled_from(STATUS_PIECES),
        max_size=9,
    ).map("".join)
)
def test_status_lines_read_as_the_pattern_reads_them(line: str) -> None:
    m = bun_test.STATUS_RE.match(line)
    assert bun_test._status(line) == ((m.group(1), m.group(2)) if m else None)
