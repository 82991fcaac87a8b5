"""flake8 formatter on captured fixtures."""

from __future__ import annotations

import re

from tests.helpers import load, reducer
from tests.reduction.formatters._lint import UNRELATED, body, reduced, run_formatter, signals
from tokenjuice.rules.fixtures import fixture_run


def test_show_source_excerpts_go_and_statistics_stay() -> None:
    fx, red = reduced("flake8", "flake8-show-source-statistics", "lint/flake8")
    assert red.text.splitlines()[1] == "63 findings"  # the facts line, from the rule's counter
    lines = body(red)[1:]
    # every line is a finding, a folded location list, a statistics line or the count
    shapes = re.compile(r"^\S+:\d+:\d+: [A-Z]+\d+ |^  … same at \d+ more: |^    \S+:\d+:\d+|^\d+\s+[A-Z]+\d+ |^\d+$")
    assert all(shapes.match(line) for line in lines), [line for line in lines if not shapes.match(line)]
    for stat in signals(fx, "statistic"):
        n, code = stat.split()
        assert any(re.match(rf"^{n}\s+{code} ", line) for line in lines)
    assert lines[-1] == signals(fx, "count")[0]


def test_default_and_show_source_keep_the_same_findings() -> None:
    _, plain = reduced("flake8", "flake8-errors", "lint/flake8")
    _, source = reduced("flake8", "flake8-show-source-statistics", "lint/flake8")
    assert set(body(plain)) <= set(body(source))


def test_silent_success_is_empty() -> None:
    _, red = reduced("flake8", "flake8-clean", "lint/flake8")
    assert red.text == "flake8: no findings"
    # The engine gives the (empty) output back: the message would only make it longer.
    assert reducer().reduce_run(fixture_run(load("flake8", "flake8-clean"))).text == ""


def test_unrelated_output_is_declined() -> None:
    assert run_formatter("flake8", UNRELATED) is None
