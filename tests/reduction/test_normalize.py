"""Clean-up steps: escapes, redraws, control bytes, blank edges, adjacent repeats."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tokenjuice.reduction.batches import iter_batches, prepare
from tokenjuice.reduction.normalize import (
    collapse_carriage_returns,
    dedupe_adjacent,
    has_redraw,
    normalize,
    pretty_print_json,
    split_lines,
    strip_ansi,
    trim_edges,
)


def test_csi_and_osc_sequences_are_removed() -> None:
    colored = "\x1b[1m\x1b[31mFAILED\x1b[0m tests/test_a.py::test_x\x1b[K"
    assert strip_ansi(colored) == "FAILED tests/test_a.py::test_x"
    link = "see \x1b]8;;https://example.com/doc\x07the docs\x1b]8;;\x07 now"
    assert strip_ansi(link) == "see the docs now"
    st_link = "\x1b]8;;file:///x\x1b\\x.py\x1b]8;;\x1b\\"
    assert strip_ansi(st_link) == "x.py"
    assert strip_ansi("title\x1b]0;my terminal\x07done") == "titledone"


# The escape pattern as it was written before its branches were led by their literal
# (the same branches, one of them starting with a group): the reference for the new form.
_ANSI_GROUP_LED = (
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\"
    r"|\x1b[@-Z\\-_]|\x1b[()*+][0-~]|\x1b[=>78c]"
)
# Escape introducers, the characters that end or continue sequences, and text.
_ESCAPE_PIECES = ["\x1b", "\x9b", "[", "]", "\x07", "\\", "P", "X", "^", "_", "(", "+", "0", "9", ";", "?", "m", "A"]
_ESCAPE_PIECES += ["K", " ", "/", "=", ">", "7", "c", "@", "~", "Z", "\n", "é", "\x1b[31m", "\x1b]8;;", "ok"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_ESCAPE_PIECES), max_size=30).map("".join))
@example("\x9b31mred\x1b[0m \x1b]unterminated")
@example("\x1b]8;;x\x1b\\link\x1b]8;;\x1b\\ \x1bP1$r\x1b\\ \x1b(0 \x1b=")
def test_escapes_strip_as_the_group_led_pattern_did(text: str) -> None:
    import re

    # No cursor-up redraw here (those are replayed first): the pattern alone decides.
    text = text.replace("\x1b[A", "").replace("\x1b[F", "")
    if "\x1b[" in text and has_redraw(text):
        return
    assert strip_ansi(text) == re.sub(_ANSI_GROUP_LED, "", text)


def test_carriage_return_redraws_keep_the_final_state() -> None:
    assert (
        collapse_carriage_returns("Downloading 10%\rDownloading 55%\rDownloading 100%\nok\n")
        == "Downloading 100%\nok\n"
    )
    assert collapse_carriage_returns("line one\r\nline two\r\n") == "line one\nline two\n"
    # A trailing bare CR (spinner cleared) keeps the last visible state.
    assert collapse_carriage_returns("working |\rworking /\r\n") == "working /\n"


def test_cursor_up_redraws_are_replayed() -> None:
    raw = "layer a: waiting\nlayer b: waiting\n\x1b[2A\x1b[2Klayer a: done\n\x1b[2Klayer b: done\nall done\n"
    assert normalize(raw) == "layer a: done\nlayer b: done\nall done\n"


def test_control_bytes_are_made_visible_and_overstrikes_resolved() -> None:
    assert normalize("N\bNA\bAM\bME\bE") == "NAME"
    assert normalize("a\x00b\x07c") == "a\\x00bc"


def test_split_trim_and_dedupe() -> None:
    lines = split_lines("\n\n  \nfirst  \nsame\nsame\nsame\nlast\n\n")
    start, end = trim_edges(lines)
    body = lines[start:end]
    assert body == ["first", "same", "same", "same", "last"]
    text, weights = dedupe_adjacent(body, [1] * len(body))
    assert text == ["first", "same", "last"]
    assert weights == [1, 3, 1]


def test_prepare_folds_blank_runs_without_counting_them() -> None:
    lines = prepare("a\n\n\n\nb\n\nc\n", {})
    assert lines.text == ["a", "", "b", "", "c"]
    assert lines.weights == [1, 0, 1, 0, 1]  # blank lines are layout, not content


def test_batches_fold_repeats_across_batch_boundaries() -> None:
    from tokenjuice.reduction import batches

    text = "start\n" + "same line\n" * 200_000 + "end\n"
    assert len(text) > 4 * batches.BATCH_CHARS
    batches = list(iter_batches(text, {}))
    flat = [(t, w) for b in batches for t, w in zip(b.text, b.weights, strict=True)]
    assert flat == [("start", 1), ("same line", 200_000), ("end", 1)]


def test_pretty_print_json_only_for_json() -> None:
    assert pretty_print_json('{"a": [1, 2]}') == '{\n  "a": [\n    1,\n    2\n  ]\n}'
    assert pretty_print_json("not json {") == "not json {"


def _fold_reference(
    lines: list[str], tags: list[int] | None, dedupe: bool, first_weight: int | None, fold_blanks: bool
) -> tuple[list[str], list[int], list[int] | None]:
    """The folding rule, one line at a time: a line equal to the one before it (blank
    with `fold_blanks`, not blank with `dedupe`) adds its weight to that line."""
    weights = [0 if not ln else 1 for ln in lines]
    if first_weight is not None and lines:
        weights[0] = first_weight
    out: list[str] = []
    w: list[int] = []
    t: list[int] = []
    for i, line in enumerate(lines):
        if out and line == lines[i - 1] and ((not line and fold_blanks) or (line and dedupe)):
            w[-1] += weights[i]
            continue
        out.append(line)
        w.append(weights[i])
        t.append(tags[i] if tags is not None else 0)
    return out, w, (t if tags is not None else None)


@settings(max_examples=400, deadline=None)
@given(
    # Few distinct lines fold often (one path), many distinct lines rarely (another).
    lines=st.one_of(
        st.lists(st.sampled_from(["", "a", "b", "a b"]), max_size=40),
        st.lists(st.integers(0, 40).map(lambda k: f"line {k}" if k else ""), max_size=120),
    ),
    dedupe=st.booleans(),
    fold_blanks=st.booleans(),
    first_weight=st.one_of(st.none(), st.integers(0, 5)),
    tagged=st.booleans(),
)
def test_fold_matches_the_line_by_line_rule(
    lines: list[str], dedupe: bool, fold_blanks: bool, first_weight: int | None, tagged: bool
) -> None:
    from tokenjuice.reduction.batches import _fold

    tags = [i % 2 for i in range(len(lines))] if tagged else None
    got = _fold(list(lines), list(tags) if tags is not None else None, dedupe, first_weight, fold_blanks)
    assert (got.text, got.weights, got.tags) == _fold_reference(lines, tags, dedupe, first_weight, fold_blanks)
