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


ODD_ROWS = [
    "  12 a.txt",
    "\t3\t4  5 b c.txt",  # tabs, three counts, a space in the name
    "7 8 9 10 11 d.txt",  # four counts after the first: the name starts at `11`
    "٣ e.txt",  # a digit to `\\d` that `int` reads
    "  1\x85 f.txt",  # a space to `\\s` that is not a line break to `str.split("\\n")`
    "42 total",
    "  9 ",  # no name
    "x 1 y",
]


def test_rows_found_at_once_are_the_rows_found_line_by_line() -> None:
    """All-rows listings are parsed in one pass over the joined text; the answer is
    what the per-line pattern gives (a blank line sends a listing down that path)."""
    from tokenjuice.reduction.formatters.wc_counts import ROWS_RE, _classify

    fx, _ = reduce_fixture("wc", "wc-lines-many")
    captured = str(fx["stdout"]).splitlines()
    for lines in (captured, ODD_ROWS[:6], [ODD_ROWS[k % 6] for k in range(40)]):
        assert len(ROWS_RE.findall("\n".join(lines))) == len(lines)  # the one-pass path
        assert _classify(lines) == _classify([*lines, ""]), lines
    assert _classify(ODD_ROWS)[3] == [6, 7]  # the two that are no rows, line by line
