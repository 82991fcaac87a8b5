"""Line matching with literal prefilters gives exactly the per-line search's answer:
with and without the Aho-Corasick automaton, with hints carried across batches, on
patterns whose literals are rare, common or case-folded, and on non-ASCII lines."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.reduction import linematch
from tokenjuice.reduction.linematch import Hints, hits, weighted

PATTERNS = [
    r"^FAILED |^\S+::\S.* FAILED\b",
    r"^\s*(?:Compiling|Checking|Downloading) \S",
    r"(?:error|warning)(?:\[\w+\])?: ",
    r"(?i)\bwarn(?:ing)?\b",
    r"(?i:panic|fatal)ed?",
    r"^\S+::.* (?:PASSED|SKIPPED)$",
    r"--> \S+:\d+:\d+",
    r"\d+ passed",
]
WORDS = [
    "FAILED",
    "failed",
    "PASSED",
    "SKIPPED",
    "Compiling",
    "compiling",
    "error",
    "error[E0308]: ",
    "warning: ",
    "WARN",
    "Warning",
    "panicked",
    "FATAL",
    "--> src/a.rs:1:2",
    "tests/t.py::test_x",
    "3 passed",
    "ß",
    "İ",
    "K",
    " ",
    "x",
    ":",
]
LINE = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)
BATCH = st.lists(LINE, min_size=0, max_size=80)


def _naive(matchers: list[re.Pattern[str]], lines: list[str]) -> list[bool]:
    return [any(m.search(line) for m in matchers) for line in lines]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PATTERNS), min_size=1, max_size=3), st.lists(BATCH, min_size=1, max_size=4))
def test_same_answer_as_searching_every_line(patterns: list[str], batches: list[list[str]]) -> None:
    matchers = [re.compile(p) for p in patterns]
    hints = Hints()  # one reduction: hints carry over from batch to batch
    for lines in batches:
        assert hits(matchers, lines, hints) == _naive(matchers, lines)
        weights = [len(line) % 3 for line in lines]
        for m in matchers:
            expected = sum(w for line, w in zip(lines, weights, strict=True) if m.search(line))
            assert weighted(m, lines, weights, hints) == expected


@pytest.mark.parametrize("automaton", [True, False])
def test_rare_common_and_absent_literals(monkeypatch: pytest.MonkeyPatch, automaton: bool) -> None:
    if not automaton:
        monkeypatch.setattr(linematch, "automaton", lambda strings: None)
        linematch._automata.clear()
    lines = [f"tests/t.py::test_{i} PASSED" for i in range(300)]
    lines[17] = "FAILED tests/t.py::test_17 - AssertionError"
    lines[250] = "   Compiling crate v1"
    for p in PATTERNS:
        m = re.compile(p)
        assert hits([m], lines) == _naive([m], lines), p


def test_dense_literal_is_searched_line_by_line_in_later_batches() -> None:
    m = re.compile(r"^\S+::.* (?:PASSED|SKIPPED)$")
    hints = Hints()
    lines = [f"a.py::t{i} PASSED" for i in range(100)]
    assert all(hits([m], lines, hints))
    assert id(m) in hints.dense  # `PASSED` sat on every line: no more literal checks
    later = [*lines[:50], "a.py::x FAILED", *lines[50:]]
    assert hits([m], later, hints) == _naive([m], later)


def test_several_patterns_where_the_first_matches_most_lines() -> None:
    """`pytest -v`: the first pattern takes most lines (its literal is dense), the
    others match a few of the rest; the answer is still each line's own."""
    lines = [f"tests/t.py::test_{i} PASSED" for i in range(300)]
    lines[17] = "FAILED tests/t.py::test_17 - AssertionError"
    lines[18] = "PASSED tests/t.py::test_18"
    lines[250] = "   Compiling crate v1"
    matchers = [re.compile(p) for p in (PATTERNS[5], r"^(?:PASSED|SKIPPED) \S+::", PATTERNS[0], PATTERNS[1])]
    got = hits(matchers, lines, Hints())
    assert got == _naive(matchers, lines)
    assert [i for i, hit in enumerate(got) if not hit] == []
    assert hits(matchers[1:3], lines, Hints()) == _naive(matchers[1:3], lines)


PREFIXED = [r"\bloaded\s+active\s+running\b", r"\Boaded\s+a", r"--> \S+:\d+:\d+", r"loaded(?=x)|loadedy"]
UNIT_WORDS = ["loaded", "unloaded", "active", "running", "exited", "loadedx", "-->", "--> a:1:2", "", "é"]
UNIT_WORDS += ["loadedloaded"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(PREFIXED),
    st.lists(st.lists(st.sampled_from(UNIT_WORDS), max_size=6).map(" ".join), min_size=16, max_size=60),
)
def test_a_pattern_starting_with_a_literal_is_tried_where_the_literal_is(pattern: str, tail: list[str]) -> None:
    """`systemctl list-units`: the literal is on every line, so each line is searched;
    a pattern whose matches start with it is tried at its first occurrence and searched
    again only where it occurs twice. Same answer as searching every line."""
    lines = [f"unit{i}.service loaded " + t if i % 3 else t for i, t in enumerate(tail)]
    m = re.compile(pattern)
    hints = Hints()
    for _ in range(2):  # the second batch knows the literal is dense
        assert hits([m], lines, hints) == _naive([m], lines)


def test_prefix_literal_of_a_pattern() -> None:
    from tokenjuice import prefilter

    assert prefilter.prefix(r"\bloaded\s+active") == "loaded"
    assert prefilter.prefix(r"abc|abd") == "ab"  # the parser factors the common start
    for none in (r"(?i)\bloaded", r"\b(?:a|b)", r"ab|cd", r"\bl", r"x?yz", r"(ab)c"):
        assert prefilter.prefix(none) is None, none
