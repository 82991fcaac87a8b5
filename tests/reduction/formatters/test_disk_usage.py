"""disk-usage (du): largest first, long listings cut to the largest entries."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture
from tokenjuice.reduction.formatters.disk_usage import size_value


def _sizes(text: str) -> list[float]:
    out = []
    for line in text.splitlines():
        if "\t" in line:
            num = line.split("\t", 1)[0]
            unit = num[-1] if num[-1].isalpha() else ""
            out.append(size_value(num.rstrip("KMGTPB"), unit))
    return out


def test_entries_sorted_largest_first() -> None:
    fx, red = reduce_fixture("du", "du-sh-star")
    assert not lost(fx, red.text)
    sizes = _sizes(red.text)
    assert sizes == sorted(sizes, reverse=True)
    assert len(sizes) == len(str(fx["stdout"]).splitlines())


def test_long_listing_keeps_the_largest() -> None:
    fx, red = reduce_fixture("du", "du-all-large")
    assert not lost(fx, red.text)
    assert len(_sizes(red.text)) == 25
    assert "smaller entries" in red.text
    assert red.reduced_chars < red.raw_chars * 0.15


def test_permission_errors_first() -> None:
    fx, red = reduce_fixture("du", "du-permission-denied")
    assert not lost(fx, red.text)
    lines = red.text.splitlines()
    assert lines[0] == "exit 1"
    assert lines[1].startswith("du: cannot read directory")
