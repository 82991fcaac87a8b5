"""wc-counts (wc): the total first, the largest files, the rest summed."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_many_files_total_and_largest() -> None:
    fx, red = reduce_fixture("wc", "wc-lines-many")
    assert not lost(fx, red.text)
    rows = [ln.split() for ln in str(fx["stdout"]).splitlines()]
    total = next(r for r in rows if r[-1] == "total")
    assert red.text.splitlines()[0] == f"{total[0]} total"
    files = sorted((int(r[0]) for r in rows if r[-1] != "total"), reverse=True)
    rest = files[20:]
    assert f"… {len(rest):,} more files, {sum(rest):,} together" in red.text


def test_short_listing_unchanged() -> None:
    fx, red = reduce_fixture("wc", "wc-small")
    assert red.text == str(fx["stdout"]).rstrip()


def test_missing_file_error_kept() -> None:
    fx, red = reduce_fixture("wc", "wc-missing-file")
    assert not lost(fx, red.text)
