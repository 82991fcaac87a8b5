"""Rule patterns: JavaScript regex syntax, risk analysis, and the time-bounded matcher."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

from tokenjuice import prefilter
from tokenjuice.patterns import (
    Budget,
    GuardedPattern,
    PatternError,
    PatternSpec,
    compile_any,
    parse_flags,
    risk,
    translate_js,
)


@pytest.mark.parametrize(
    ("js", "text", "group"),
    [
        (r"(?<file>[\w/]+\.py):(?<line>\d+)", "at src/app.py:12", "src/app.py"),
        (r"(?<w>\w+) \k<w>", "it is is fine", "is"),
        (r"a[^]b", "a\nb", None),
        (r"\u{1F600}", "smile 😀", None),
        (r"\cI", "a\tb", None),
        (r"\/usr\/bin", "/usr/bin/env", None),
        (r"(?<=v)\d+", "v12", None),
        (r"(?<!x)y", "ay", None),
    ],
)
def test_javascript_syntax_is_translated(js: str, text: str, group: str | None) -> None:
    m = re.search(translate_js(js), text)
    assert m is not None
    if group is not None:
        assert m.group(1) == group


def test_empty_class_never_matches() -> None:
    assert re.search(translate_js("a[]b"), "ab") is None


def test_flags() -> None:
    assert parse_flags("gimsuy") == re.I | re.M | re.S
    with pytest.raises(PatternError):
        parse_flags("q")


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        (r"^(a+)+$", "nested quantifiers"),
        (r"(x+x+)+y", "nested quantifiers"),
        (r"(a|aa)+$", "quantified alternation"),
        (r"(\w+)\s\1", "backreference"),
        (r".*foo.*bar", "several overlapping repeats"),
    ],
)
def test_risky_patterns_are_recognised(pattern: str, why: str) -> None:
    assert risk(pattern) == why


@pytest.mark.parametrize("pattern", [r"^E\s+", r"error", r"^\s*at .+\(.+:\d+\)$", r"^\S+:\d+:\d+: (?:error|warning):"])
def test_ordinary_patterns_are_safe(pattern: str) -> None:
    assert risk(pattern) is None


def test_risky_pattern_is_guarded_and_abandoned() -> None:
    spec = PatternSpec(r"^(a+)+$", "", "test: filters.skipPatterns[0]")
    m = spec.matcher(Budget(0.05))
    assert isinstance(m, GuardedPattern)
    for _ in range(3):
        assert m.search("a" * 40_000 + "!") is None
    assert m.abandoned


def test_catastrophic_pattern_never_hangs_a_process() -> None:
    """The whole reduction finishes although the rule's pattern would backtrack forever."""
    code = textwrap.dedent(
        """
        from tokenjuice.reduction.engine import Reducer
        from tokenjuice.rules.loader import RuleSet
        from tokenjuice.rules.rule import Rule
        rs = RuleSet()
        rs.add(Rule({"id": "evil", "family": "x", "match": {"argv0": ["evil"]},
                     "filters": {"skipPatterns": ["^(a+)+$", "^noise"]}}, "project", "evil.json"))
        out = "\\n".join(["noise"] * 50 + ["a" * (20000 + i) + "!" for i in range(20)] + ["keep me"])
        red = Reducer(rules=rs).reduce(out, command="evil")
        assert "keep me" in red.text
        assert "noise" not in red.text.split("\\n")[0]
        assert any("abandoned" in w for w in red.warnings), red.warnings
        print("ok")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
    assert "abandoned" in proc.stderr  # the warning went to stderr, not into the text


def test_compile_any_keeps_patterns_with_literals_together_and_skips_bad_ones() -> None:
    specs = [
        PatternSpec("^foo", "", "a"),
        PatternSpec("^b", "i", "b"),
        PatternSpec("bar$", "i", "c"),
        PatternSpec(r"\d+ms", "", "d"),
        PatternSpec(r"\s{3}x", "", "e"),
        PatternSpec("(", "", "f"),
    ]
    matchers = compile_any(specs, None)
    # Those with literals in one alternation (which then requires one of them), the
    # anchored one without in another, the unanchored ones without in a third, the
    # invalid one skipped.
    assert len(matchers) == 3
    literal, anchored, other = matchers
    assert literal.search("foo x") and literal.search("a BAR") and not literal.search("xfoo")
    assert prefilter.for_matcher(literal) is not None
    assert anchored.search("Bx") and not anchored.search("xb")
    assert other.search("took 12ms") and other.search("a   x") and not other.search("ms")


def test_invalid_pattern_error_names_the_field() -> None:
    with pytest.raises(PatternError, match=r"rules\.json: filters\.keepPatterns"):
        PatternSpec("(unclosed", "", "rules.json: filters.keepPatterns[2]").compile()
