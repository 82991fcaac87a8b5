"""The engine's audit: which raw lines a body shows, exact ranges for its markers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.reduction.audit import audit, count_lines, describe


def numbered(n: int, blank_every: int = 0) -> list[str]:
    return ["" if blank_every and i % blank_every == 0 else f"line {i} of the output" for i in range(1, n + 1)]


def test_a_marker_states_the_raw_range_blank_lines_included() -> None:
    lines = numbered(5000, blank_every=7)  # 714 blank lines: they count
    raw = "\n".join(lines) + "\n"
    kept = [ln for ln in lines[:1366] if ln] + ["… 1,918 lines omitted …"] + [ln for ln in lines[3632:] if ln]
    au = audit(raw, kept, 2000)
    marker = next(ln for ln in au.body if "omitted" in ln)
    # Line 3633 is blank: it goes with the gap, up to the next line shown.
    assert marker == "… 2,267 lines omitted (lines 1367-3633) …"
    assert au.total == 5000 and au.ranges == [(1367, 3633)] and au.omitted == 2267
    assert au.uncovered == []


def test_a_body_without_every_raw_line_is_lossy_and_says_which() -> None:
    raw = "alpha\nbeta\ngamma\ndelta\n"
    au = audit(raw, ["alpha", "(2 summarised)", "delta"], 2000)
    assert au.lossy and au.ranges == [(2, 3)] and au.uncovered == [(2, 3)]
    assert not audit(raw, ["alpha", "beta", "gamma", "delta"], 2000).lossy


def test_repeats_escapes_and_trailing_space_are_shown_lines() -> None:
    raw = "x  \n\x1b[31mred\x1b[0m\nsame\nsame\nsame\nend\n"
    au = audit(raw, ["x", "red", "same (×3)", "end"], 2000)
    assert not au.lossy and au.total == 6


def test_a_marker_for_nothing_goes_and_a_repeated_one_too() -> None:
    raw = "a\nb\nc\n"
    assert audit(raw, ["a", "… 4 lines omitted …", "b", "c"], 2000).body == ["a", "b", "c"]
    au = audit(raw, ["… 1 line omitted …", "summary", "… 1 line omitted …"], 2000)
    assert au.body == ["… 3 lines omitted (lines 1-3) …", "summary"]


def test_a_shortened_line_stands_for_its_line_but_is_not_shown() -> None:
    long = "x" * 50 + "y" * 50
    raw = f"head\n{long}\ntail\n"
    from tokenjuice.reduction.window import shorten

    au = audit(raw, ["head", shorten(long, 30), "… 0 lines omitted …", "tail"], 30)
    assert au.ranges == [(2, 2)] and au.partial == 1
    assert au.body[2] == "tail"  # the marker stood for nothing the shortened line did not


def test_a_sample_is_numbered_as_the_whole_output() -> None:
    # Lines 1-3 and 9998-10000 of a 10,000-line output were held in memory.
    sample = "one\ntwo\nthree\nx\ny\nz\n"
    au = audit(
        sample,
        ["one", "two", "three", "… 0 lines omitted …", "y", "z"],
        2000,
        numbers=[1, 2, 3, 9998, 9999, 10000],
        total=10000,
    )
    assert au.total == 10000
    assert au.ranges == [(4, 9998)]
    assert au.body[3] == "… 9,995 lines omitted (lines 4-9998) …"


def test_count_lines_is_cats() -> None:
    assert count_lines("") == 0
    assert count_lines("a") == 1
    assert count_lines("a\n") == 1
    assert count_lines("a\n\n") == 2
    assert describe([(3, 3)]) == "lines 3-3"
    assert describe([(1, 2), (5, 5)]) == "lines 1-2, lines 5-5"
    assert describe([(i, i) for i in range(1, 20, 2)], limit=4) == "lines 1-19 in 10 ranges"


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(st.one_of(st.just(""), st.text("abc ", min_size=1, max_size=6)), min_size=1, max_size=80),
    keep=st.lists(st.booleans(), min_size=80, max_size=80),
)
def test_marker_ranges_hold_exactly_the_lines_left_out(rows: list[str], keep: list[bool]) -> None:
    """A body keeping some raw lines in order, one marker per gap: each marker's ranges
    are the non-blank lines it replaced (blank ones around them included), no more."""
    raw = "\n".join(rows) + "\n"
    body: list[str] = []
    gap = False
    for i, row in enumerate(rows):
        if keep[i] and row.strip():
            if gap:
                body.append("… 0 lines omitted …")
            body.append(row.rstrip())
            gap = False
        elif row.strip():
            gap = True
    if gap:
        body.append("… 0 lines omitted …")
    au = audit(raw, body, 2000)
    stated = {n for a, b in au.ranges for n in range(a, b + 1)}
    # Every raw line that is not in the body by the greedy reading is in a range...
    for n, row in enumerate(rows, start=1):
        if row.strip() and n not in stated:
            assert row.rstrip() in body
    # ...and a range never holds a line the body shows at that place.
    shown = [ln for ln in au.body if "omitted" not in ln]
    assert len(shown) == len([ln for ln in body if "omitted" not in ln])
    assert au.omitted == len(stated) and au.total == len(rows)
