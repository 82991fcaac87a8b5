"""The backtracking proof: the catastrophic families are risky, ordinary patterns are
safe, what it cannot read is risky, and what it proves safe really runs fast."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokenjuice.backtrack import NOT_UNDERSTOOD, risk
from tokenjuice.backtrack.charsets import CATEGORY, DISJOINT, INSIDE, CharSet, cased, overlaps
from tokenjuice.rules.loader import load_rules

RISKY = [
    # nested repeats, bounded ones counted as repeats
    ("^(a+)+$", "nested quantifiers"),
    ("(x+x+)+y", "nested quantifiers"),
    ("(a{1,999}){1,999}$", "nested quantifiers"),
    ("(a{2,3}){2,30}$", "nested quantifiers"),
    ("(?:a\\w*)+!", "nested quantifiers"),
    ("(\\d+)*$", "nested quantifiers"),
    ("(.*a){12}", "nested quantifiers"),
    ("^(\\w+\\s?)*$", "nested quantifiers"),
    ("(?:\\s*,\\s*)+;", "nested quantifiers"),
    # alternation under a quantifier, counted or not, overlapping alternatives
    ("(a|aa)+$", "quantified alternation"),
    ("(a|aa){1,999}$", "quantified alternation"),
    ("(?:ab|a)*c", "quantified alternation"),
    ("(x|x)*y", "quantified alternation"),
    ("(?:a|[ab])+$", "quantified alternation"),
    ("(\\w|\\d)+$", "quantified alternation"),
    ("(?:\\s|\\t)+x", "quantified alternation"),
    ("(?i:a|A)+$", "quantified alternation"),
    ("(?i)(?:k|\u212a)+$", "quantified alternation"),
    ("(a|b|ab)*c", "quantified alternation"),
    # a group that can match nothing, repeated
    ("(a?){30}a{30}", "ambiguous repeated group"),
    # backreferences and conditionals
    ("(\\w+)\\s\\1", "backreference"),
    ("(?P<x>a+)(?P=x)", "backreference"),
    ("(a)?(?(1)b|c)", "backreference"),
    # polynomial: several repeats that can trade characters
    (".*foo.*bar", "several overlapping repeats"),
    ("\\w+.*error", "several overlapping repeats"),
    ("a*a*a*$", "several overlapping repeats"),
    ("^.*a.*b.*c$", "several overlapping repeats"),
    ("(?=.*a.*b.*c)", "several overlapping repeats"),
    # what the proof cannot read fails closed
    ("(?x) a+ b", NOT_UNDERSTOOD),
    ("(?a)\\w+", NOT_UNDERSTOOD),
    ("\\N{EM DASH}+", NOT_UNDERSTOOD),
    ("\\p{L}+", NOT_UNDERSTOOD),
    ("(unclosed", NOT_UNDERSTOOD),
    ("[z-a]", NOT_UNDERSTOOD),
    ("a**", NOT_UNDERSTOOD),
    ("+a", NOT_UNDERSTOOD),
]


@pytest.mark.parametrize(("pattern", "why"), RISKY)
def test_risky_patterns(pattern: str, why: str) -> None:
    assert risk(pattern) == why


def test_flags_that_change_what_classes_mean_are_not_understood() -> None:
    assert risk("\\w+", re.VERBOSE) == NOT_UNDERSTOOD
    assert risk("\\w+", re.ASCII) == NOT_UNDERSTOOD
    # Under IGNORECASE a letter stands for every character with a case: still proven
    # where letters meet digits or punctuation, risky (conservatively) where they meet.
    assert risk("(?:a|A)+$", re.IGNORECASE) == "quantified alternation"
    assert risk("(?:1|2|-)+$", re.IGNORECASE) is None
    assert risk("(?:-[a-z]+)+:\\w+$", re.IGNORECASE) is None


SAFE = [
    "^E\\s+",
    "error",
    "^\\s*at .+\\(.+:\\d+\\)$",
    "^\\S+:\\d+:\\d+: (?:error|warning):",
    "(?:-[a-z]+)*",
    "^(\\d{1,3}\\.){3}\\d{1,3}$",
    "(?:\\s+\\w+)*$",
    "(?:(?!foo).)*bar",
    "(?:ab|cd)+$",
    "(?:a|b)+$",
    "[\\w-]+@[\\w-]+(\\.[\\w-]+)+$",
    "(?<=v)\\d+",
    "(?P<file>[\\w/]+\\.py):(?P<line>\\d+)",
    "\\x41\\u00e9\\U0001f600[\\0-\\x1f]",
    "a{,5}b{2,}c{3}",
    "\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d",
    "^Completed [\\d.]+ \\w*i?B/[~\\d.]+ \\w*i?B",
    "(?#a comment)x",
    "a{x}",
]


@pytest.mark.parametrize("pattern", SAFE)
def test_ordinary_patterns_are_proven_safe(pattern: str) -> None:
    assert risk(pattern) is None
    re.compile(pattern)


def test_every_builtin_pattern_is_proven_safe() -> None:
    rs = load_rules(None, user=False, project=False)
    unproven = []
    for rule in rs.rules:
        specs = [*rule.pipeline().all_specs(), *(s for s in (rule.command_regex, rule.output_regex) if s)]
        unproven += [(spec.where, spec.source) for spec in specs if risk(spec.python, spec.flags)]
    assert unproven == []


def test_overlaps_of_character_sets() -> None:
    letters, digits = CharSet([(ord("a"), ord("z"))]), CharSet(cats="d")
    newline, not_newline = CharSet([(10, 10)]), CharSet([(10, 10)], neg=True)
    assert not overlaps(letters, digits)
    assert not overlaps(newline, not_newline)
    assert overlaps(not_newline, CharSet(neg=True))
    assert overlaps(CharSet(cats="w"), digits)
    assert not overlaps(CharSet(cats="s"), CharSet(cats="w"))
    assert not overlaps(CharSet(cats="s"), CharSet(cats="s", neg=True))
    assert overlaps(CharSet([(0, 0x10FFFF)]), letters)  # too large to enumerate: unsure


ALL = [chr(i) for i in range(0x110000) if not 0xD800 <= i < 0xE000]


@pytest.mark.slow
def test_class_facts_hold_for_every_code_point() -> None:
    member = {c: [f(ch) for ch in ALL] for c, f in CATEGORY.items()}
    for a, b in DISJOINT:
        assert not any(x and y for x, y in zip(member[a], member[b], strict=True)), (a, b)
    for a, insides in INSIDE.items():
        for b in insides:
            assert all(y for x, y in zip(member[a], member[b], strict=True) if x), (a, b)
    for c in "dDsSwW":
        rx = re.compile("\\" + c)
        assert [bool(rx.fullmatch(ch)) for ch in ALL] == member[c], c


@pytest.mark.slow
def test_ignorecase_only_relates_characters_that_have_a_case() -> None:
    with_case = [ch for ch in ALL if cased(ch)]
    every_cased = re.compile("[" + "".join(f"\\U{ord(ch):08x}" for ch in with_case) + "]", re.IGNORECASE)
    assert [ch for ch in ALL if not cased(ch) and every_cased.fullmatch(ch)] == []


# --------------------------------------------------------------- proven safe runs fast

ATOMS = ["a", "b", "ab", "[ab]", "\\w", "\\s", "\\d", ".", "[^b]", "\\S", " ", "x", "[a-c]", "\\W", "(?!a)"]
QUANTIFIERS = ["*", "+", "?", "{1,5}", "{0,9}", "{2}", "{1,100}", "*?", "+?", ""]


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    seq = st.lists(inner, min_size=1, max_size=3).map("".join)
    alt = st.lists(inner, min_size=2, max_size=3).map("|".join)
    group = st.one_of(seq, alt).map(lambda body: f"(?:{body})")
    return st.tuples(group, st.sampled_from(QUANTIFIERS)).map("".join) | seq


patterns = st.tuples(
    st.sampled_from(["", "^"]),
    st.recursive(st.sampled_from(ATOMS), _extend, max_leaves=16),
    st.sampled_from(["", "$", "!", "c"]),
).map("".join)
INPUTS = ["a" * 200 + "!", "ab" * 100 + "!", " a" * 100 + "!", "a b" * 70 + "\0", "x" * 200, "1a" * 100]


class _TooSlow(Exception):
    pass


@contextmanager
def _limit(seconds: float) -> Iterator[None]:
    def stop(_sig: int, _frame: object) -> None:
        raise _TooSlow

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(patterns)
def test_what_is_proven_safe_never_backtracks_catastrophically(pattern: str) -> None:
    try:
        rx = re.compile(pattern)
    except re.error:
        return
    if risk(pattern) is not None:
        return
    for text in INPUTS:
        # Exponential work on 200 characters would take ages; what the proof allows
        # (a few overlapping repeats) takes milliseconds.
        try:
            with _limit(5.0):
                rx.search(text)
        except _TooSlow:
            pytest.fail(f"{pattern!r} was proven safe but took over 5 s on {text[:12]!r}…")
