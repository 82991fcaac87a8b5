"""ESLint stylish formatter on captured fixtures."""

from __future__ import annotations

import re

from hypothesis import example, given, settings

from tests.helpers import load, reducer
from tests.reduction.formatters._forms import lines_of
from tests.reduction.formatters._lint import UNRELATED, body, reduced, run_formatter, signals
from tokenjuice.reduction.formatters import eslint, stylelint
from tokenjuice.rules.fixtures import fixture_run

ITEM_RE = re.compile(r"^ {2}\d+:\d+ (?:error|warning) \S")


def test_problems_lose_their_padding_but_not_their_text() -> None:
    fx, red = reduced("eslint", "eslint-stylish", "lint/eslint")
    lines = body(red)
    items = [line for line in lines if ITEM_RE.match(line)]
    assert len(items) == len(signals(fx, "problem"))
    # one space between position, severity and message; two before the rule
    assert not any(re.search(r"\d+:\d+ {2,}", line) for line in items)
    for f in signals(fx, "file"):
        assert f in lines
    assert lines[-2].startswith("✖ ") and "potentially fixable" in lines[-1]


def test_colour_changes_nothing() -> None:
    _, plain = reduced("eslint", "eslint-stylish", "lint/eslint")
    _, color = reduced("eslint", "eslint-stylish-color", "lint/eslint")
    assert body(plain) == body(color)


def test_warnings_survive_a_passing_run_and_the_limit_message_a_failing_one() -> None:
    fx, red = reduced("eslint", "eslint-warnings-only", "lint/eslint")
    assert fx["exitCode"] == 0
    assert sum(1 for line in body(red) if ITEM_RE.match(line)) == len(signals(fx, "problem"))
    _, red = reduced("eslint", "eslint-max-warnings", "lint/eslint")
    assert body(red)[-1] == "ESLint found too many warnings (maximum: 0)."


def test_a_crash_keeps_its_error_without_node_internals() -> None:
    _, red = reduced("eslint", "eslint-config-crash", "lint/eslint")
    assert "node:internal" not in red.text
    assert "Cannot find package 'eslint-plugin-missing'" in red.text


def test_clean_run_and_unrelated_output() -> None:
    _, red = reduced("eslint", "eslint-clean", "lint/eslint")
    assert red.text == "eslint: no problems"
    # The engine gives the (empty) output back: the message would only make it longer.
    assert reducer().reduce_run(fixture_run(load("eslint", "eslint-clean"))).text == ""
    assert run_formatter("eslint", UNRELATED) is None


def _stylish(m: re.Match[str] | None) -> str | None:
    if m is None:
        return None
    rule = m.group("rule")
    return f"  {m.group('pos')} {m.group('sev')} {m.group('msg')}" + (f"  {rule}" if rule else "")


@settings(max_examples=800, deadline=None)
@given(
    rest=lines_of("Unexpected", " ", "  ", "\t", "x", "no-console", "a  b", max_size=8),
    sev=lines_of("error", "warning", "✖", "⚠", " ", max_size=2),
)
@example(rest="Bad  rule", sev="error")
@example(rest="Bad \t  rule", sev="✖")
@example(rest="Bad  two  rules", sev="warning")
@example(rest="  rule", sev="error")
def test_problem_lines_read_as_the_item_patterns(rest: str, sev: str) -> None:
    line = f"  3:7  {sev}  {rest}"
    for item, head in ((eslint.ESLINT_ITEM_RE, eslint.ESLINT_HEAD_RE), (stylelint.ITEM_RE, stylelint.HEAD_RE)):
        got = head.match(line)
        assert (got and eslint.item_text(got)) == _stylish(item.match(line)), line
