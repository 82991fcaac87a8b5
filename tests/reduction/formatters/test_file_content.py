"""file-content (cat, head, tail, sed -n, nl, bat): the file passes exactly."""

from __future__ import annotations

import pytest

from tests.helpers import lost, reduce_fixture


@pytest.mark.parametrize(
    "fid", ["cat-small-file", "cat-source-file", "head-n-60", "tail-n-40", "sed-n-range", "nl-numbered"]
)
def test_every_line_passes(fid: str) -> None:
    fx, red = reduce_fixture("file-read", fid)
    assert not lost(fx, red.text)
    # Exact: blank-line runs and trailing spaces are kept (only blank edges may go).
    assert red.text.strip("\n") == str(fx["stdout"]).strip("\n")


def test_identical_lines_are_not_folded() -> None:
    fx, red = reduce_fixture("file-read", "cat-repeated-lines")
    assert red.text.count("1,0") == str(fx["stdout"]).count("1,0") == 3
    assert "×" not in red.text


def test_enormous_file_trimmed_in_the_middle_only() -> None:
    fx, red = reduce_fixture("file-read", "cat-enormous-log")
    assert not lost(fx, red.text)
    assert "lines omitted" in red.text
    raw = str(fx["stdout"]).splitlines()
    kept = red.text.splitlines()
    assert kept[0] == raw[0]
    assert red.reduced_chars < red.raw_chars


def test_missing_file_error_kept() -> None:
    fx, red = reduce_fixture("file-read", "cat-missing-file")
    assert not lost(fx, red.text)
    assert red.text.startswith("exit 1")
