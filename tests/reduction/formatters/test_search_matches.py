"""search-matches (grep, rg): grouped by file, every path and location kept."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._forms import lines_of, reading
from tokenjuice.reduction.formatters import search_matches

MATCH = re.compile(r"^([^\s:][^:]*?):(\d+):", re.MULTILINE)


@pytest.mark.parametrize(
    ("family", "fid"),
    [
        ("grep", "grep-rn-many"),
        ("grep", "grep-rn-dense-files"),
        ("rg", "rg-line-numbers-many-files"),
        ("rg", "rg-huge-result"),
        ("rg", "rg-no-line-numbers"),
    ],
)
def test_every_matching_file_is_kept(family: str, fid: str) -> None:
    fx, red = reduce_fixture(family, fid)
    assert not lost(fx, red.text)


@pytest.mark.parametrize(("family", "fid"), [("grep", "grep-rn-many"), ("grep", "grep-rn-dense-files")])
def test_per_file_counts_and_every_line_number(family: str, fid: str) -> None:
    fx, red = reduce_fixture(family, fid)
    hits = MATCH.findall(str(fx["stdout"]))
    per_file = Counter(path for path, _ in hits)
    for path, n in per_file.items():
        if n == 1:
            line = next(num for p, num in hits if p == path)
            assert f"{path}:{line}: " in red.text
        else:
            assert f"{path} ({n})" in red.text
    # Each location is there: as path:line, as `  N:`, or in a line-number list.
    numbers = set(re.findall(r"\d+", red.text))
    assert all(num in numbers for _, num in hits)


def test_huge_result_lists_first_matches_and_line_numbers() -> None:
    _fx, red = reduce_fixture("rg", "rg-huge-result")
    assert red.reduced_chars < red.raw_chars * 0.05
    assert "more at lines" in red.text


def test_long_lines_trimmed_around_the_match() -> None:
    _fx, red = reduce_fixture("rg", "rg-no-line-numbers")
    for line in red.text.splitlines():
        assert len(line) < 400
    assert "raise ValueError" in red.text


def test_count_drops_zero_rows() -> None:
    fx, red = reduce_fixture("grep", "grep-count-zeros")
    assert not lost(fx, red.text)
    assert ":0\n" not in red.text + "\n"
    zeros = sum(1 for ln in str(fx["stdout"]).splitlines() if ln.endswith(":0"))
    assert f"… {zeros:,} files with 0 matches not listed" in red.text


@pytest.mark.parametrize(
    ("family", "fid"),
    [
        ("grep", "grep-binary-file"),
        ("grep", "grep-missing-file"),
        ("grep", "grep-permission-denied"),
        ("rg", "rg-regex-error"),
    ],
)
def test_errors_and_notices_survive(family: str, fid: str) -> None:
    fx, red = reduce_fixture(family, fid)
    assert not lost(fx, red.text)


def test_file_lists_and_small_results_pass_unchanged() -> None:
    for family, fid in (("grep", "grep-files-with-matches"), ("rg", "rg-context"), ("rg", "rg-count")):
        fx, red = reduce_fixture(family, fid)
        assert red.text == str(fx["stdout"]).strip()


def test_no_matches_states_the_exit_code() -> None:
    _fx, red = reduce_fixture("rg", "rg-no-matches")
    assert red.text.strip() == "exit 1"


@settings(max_examples=500, deadline=None)
@given(line=lines_of("a", "/", "b.py", ":", "12", "\t", " ", "-", "x:"))
def test_path_line_pattern_reads_the_path_up_to_the_first_colon(line: str) -> None:
    lazy = re.compile(r"^([^\s:][^:\t]*?):(\d+):(.*)$")
    assert reading(search_matches.PATH_LINE_RE.match(line)) == reading(lazy.match(line))
