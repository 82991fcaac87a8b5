"""stylelint string-formatter reduction on captured fixtures."""

from __future__ import annotations

import re

from tests.reduction.formatters._lint import UNRELATED, body, reduced, run_formatter, signals

ITEM_RE = re.compile(r"^ {2}\d+:\d+ [✖⚠] \S")


def test_each_problem_keeps_mark_text_and_rule() -> None:
    fx, red = reduced("stylelint", "stylelint-string", "lint/stylelint")
    lines = body(red)
    assert len([line for line in lines if ITEM_RE.match(line)]) == len(signals(fx, "problem"))
    assert not any(re.search(r"\d+:\d+ {2,}", line) for line in lines)
    assert any(line.startswith("✖ ") and "problems" in line for line in lines)


def test_large_run_keeps_every_file_heading() -> None:
    fx, red = reduced("stylelint", "stylelint-large", "lint/stylelint")
    lines = body(red)
    assert all(f in lines for f in signals(fx, "file"))


def test_unrelated_output_is_declined() -> None:
    assert run_formatter("stylelint", UNRELATED) is None
    assert run_formatter("stylelint", "  1:5  warning  Unexpected var  no-var\n") is None
