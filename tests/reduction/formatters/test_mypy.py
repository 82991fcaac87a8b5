"""mypy formatter on captured fixtures."""

from __future__ import annotations

import re

from hypothesis import given, settings

from tests.reduction.formatters._forms import lines_of, reading
from tests.reduction.formatters._lint import UNRELATED, body, folded_locations, reduced, run_formatter, signals
from tokenjuice.reduction.formatters import mypy

FINDING_RE = re.compile(r"^\S+?:\d+: (?:error|note): ")


def test_default_output_keeps_every_error_and_the_summary() -> None:
    fx, red = reduced("mypy", "mypy-errors", "lint/mypy")
    assert body(red)[-1].startswith("Found 20 errors in 8 files")
    for code in signals(fx, "code"):
        assert code in red.text


def test_pretty_output_loses_excerpts_and_joins_wrapped_messages() -> None:
    _, pretty = reduced("mypy", "mypy-pretty", "lint/mypy")
    _, plain = reduced("mypy", "mypy-errors", "lint/mypy")
    lines = body(pretty)
    assert not any(line.startswith("    ") or re.match(r"^\s+\^~*$", line) for line in lines)
    # every error line ends with its [code], as in the default output
    assert all(line.rstrip().endswith("]") for line in lines if ": error: " in line)
    assert {" ".join(line.split()) for line in body(plain)} == {" ".join(line.split()) for line in lines}


def test_strict_repeats_fold_into_location_lists() -> None:
    _, red = reduced("mypy", "mypy-strict-large", "lint/mypy")
    lines = body(red)
    missing = [line for line in lines if "Function is missing a type annotation" in line]
    assert len(missing) == 1
    locations = folded_locations(red.text)
    assert len(locations) > 100
    assert all(re.match(r"^\S+\.py:\d+$", loc) for loc in locations)


def test_error_context_headings_go_with_their_folded_errors() -> None:
    _, red = reduced("mypy", "mypy-pretty-large", "lint/mypy")
    lines = body(red)
    # every kept `In function` heading is followed by an error it introduces
    for i, line in enumerate(lines):
        if ": note: In " in line:
            assert FINDING_RE.match(lines[i + 1]), lines[i : i + 2]
    assert "error context" in red.text.splitlines()[-1]


def test_unrelated_output_is_declined() -> None:
    assert run_formatter("mypy", UNRELATED) is None


@settings(max_examples=500, deadline=None)
@given(line=lines_of("a", ".py", ":", "12", ":5", ": ", "error", "note", "warning", " ", "\t", "C:\\", "x:y"))
def test_finding_pattern_reads_the_location_up_to_the_first_colon(line: str) -> None:
    # The path part cannot hold a `:`, so what follows it starts at the first one:
    # FINDING_RE takes the path possessively, where the lazy form tried the rest after
    # every character.
    lazy = re.compile(r"^(?P<loc>[^\s:][^:]*?(?::\d+){0,4}): (?P<sev>error|note|warning): (?P<msg>.*)$")
    assert reading(mypy.FINDING_RE.match(line)) == reading(lazy.match(line))
