"""Required literals of a regex: what `required` finds, and that it is never wrong
(a line the regex matches always holds one of them), on generated patterns and lines."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.prefilter import anchored, prefix, required


@pytest.mark.parametrize(
    ("pattern", "flags", "strings", "fold"),
    [
        (r"^FAILED |^\S+::\S.* FAILED\b", 0, (" FAILED", "FAILED "), False),
        (r"^\s*(?:Compiling|Checking) \S", 0, ("Checking", "Compiling"), False),
        (r"(?:error|warning)(?:\[\w+\])?: ", 0, ("error", "warning"), False),
        (r"(?i)HELLO world", 0, ("hello world",), True),
        (r"hello (?i:WORLD)", 0, ("hello world",), True),
        (r"HELLO", re.IGNORECASE, ("hello",), True),
        (r"x(?:abc)+y", 0, ("abc",), False),
        (r"--> \S+:\d+", 0, ("--> ",), False),
    ],
)
def test_required_literals(pattern: str, flags: int, strings: tuple[str, ...], fold: bool) -> None:
    lit = required(pattern, flags)
    assert lit is not None
    assert lit.strings == strings
    assert lit.fold == fold


@pytest.mark.parametrize(
    "pattern",
    [
        r"a*b",  # `b` alone is too short to be worth checking
        r"foo|bar|",  # an empty branch matches anything
        r"(?:abc)?x",  # an optional group requires nothing
        r"\d+\.\d+",
        r"[",  # not a regex at all: no prefilter, no error
        r"\p{L}+",  # the `regex` module's syntax only
    ],
)
def test_no_requirement(pattern: str) -> None:
    assert required(pattern) is None


# Patterns from pieces over a small alphabet, so that generated lines often match.
ATOMS = st.sampled_from(
    ["ab", "abc", "bca", "cab", "::", " ", "x", "XY", "a", "b", ".", r"\s", r"\S", r"\d", r"\w", "[ab]", "[^a]", r"\b"]
)


@st.composite
def patterns(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(["atom", "atom", "group", "alt", "repeat", "anchor", "ci"] if depth < 2 else ["atom"])
        )
        if kind == "atom":
            parts.append(draw(ATOMS))
        elif kind == "group":
            parts.append(f"(?:{draw(patterns(depth + 1))})")
        elif kind == "alt":
            parts.append(f"(?:{draw(patterns(depth + 1))}|{draw(patterns(depth + 1))})")
        elif kind == "repeat":
            parts.append(
                f"(?:{draw(patterns(depth + 1))}){draw(st.sampled_from(['*', '+', '?', '{2}', '{0,3}', '+?']))}"
            )
        elif kind == "anchor":
            parts.append(draw(st.sampled_from(["^", "$"])))
        else:
            parts.append(f"(?i:{draw(patterns(depth + 1))})")
    return "".join(parts)


LINES = st.lists(st.text(alphabet="abcXYxy:. 1", max_size=24), min_size=1, max_size=30)


@settings(max_examples=400, deadline=None)
@given(patterns(), LINES, st.sampled_from([0, re.IGNORECASE]))
def test_a_match_always_holds_a_required_literal(pattern: str, lines: list[str], flags: int) -> None:
    try:
        rx = re.compile(pattern, flags)
    except re.error:
        return
    lit = required(pattern, flags)
    if lit is None:
        return
    for line in lines:
        if rx.search(line) is None:
            continue
        hay = line.lower() if lit.fold else line
        assert any(s in hay for s in lit.strings), (pattern, line, lit)


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        (r"^FAILED ", 0, True),
        (r"\Aerror|^warning", 0, True),
        (r"(?:^a|^b)c", 0, True),
        (r"^a|b", 0, False),
        (r"^a", re.MULTILINE, False),
        (r"(?m)^a", 0, False),
        (r"x(?m:^a)|^b", 0, False),
        (r"(?=^a)a", 0, False),  # a lookaround is not an anchor this check follows
        (r"(?x) ^ a", 0, False),  # verbose text is not understood: plain search
    ],
)
def test_anchored(pattern: str, flags: int, expected: bool) -> None:
    assert anchored(pattern, flags) is expected


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        (r"\bloaded\s+active", 0, "loaded"),
        (r"\B--> \S+", 0, "--> "),
        (r"ab|cd", 0, None),  # two branches, two starts
        (r"\bxab|xac", 0, "xa"),  # the start every branch shares
        (r"a\d", 0, None),  # one character is not worth it
        (r"hello", re.IGNORECASE, None),
        (r"(?i)hello", 0, None),
        (r"he(?i:llo)", 0, "he"),
        (r"\x41\x42c", 0, "ABc"),
    ],
)
def test_prefix(pattern: str, flags: int, expected: str | None) -> None:
    assert prefix(pattern, flags) == expected


@settings(max_examples=400, deadline=None)
@given(patterns(), LINES, st.sampled_from([0, re.IGNORECASE]))
def test_anchored_and_prefix_never_change_a_search(pattern: str, lines: list[str], flags: int) -> None:
    """An anchored pattern's `match` finds what `search` finds; every match begins
    (after any word boundary) with the literal prefix."""
    try:
        rx = re.compile(pattern, flags)
    except re.error:
        return
    is_anchored = anchored(pattern, flags)
    start = prefix(pattern, flags)
    for line in lines:
        found = rx.search(line)
        if is_anchored:
            assert (found is None) == (rx.match(line) is None), (pattern, line)
        if found is not None and start is not None:
            assert line.startswith(start, found.start()), (pattern, line, start)
