"""tsc: one line per diagnostic in plain or --pretty layout; excerpts, related-location
lines and the summary table dropped; identical messages grouped."""

from __future__ import annotations

import re

import pytest

from tests.helpers import reducer
from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter
from tokenjuice.rules.fixtures import fixture_run

IDS = ["tsc-errors", "tsc-errors-pretty-color", "tsc-noemit-errors", "tsc-large-pretty", "tsc-build-verbose-success"]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    reduced("tsc", fid, "build/tsc")


def test_pretty_output_folds_to_one_line_per_error() -> None:
    fx, red = reduced("tsc", "tsc-errors-pretty-color", "build/tsc")
    headers = re.findall(r"^\S+:\d+:\d+ - error TS\d+: .*$", raw(fx), re.M)
    assert headers
    for h in headers:
        assert h in red.text
    # Related information folds to `file:line:col: message` under its error.
    related = re.findall(r"^ {4}(The expected type comes from .*)$", raw(fx), re.M)
    assert related
    for msg in related:
        assert re.search(rf"^  \S+:\d+:\d+: {re.escape(msg)}$", red.text, re.M)
    assert "~" not in red.text
    assert "Errors  Files" not in red.text
    assert re.search(r"^Found \d+ errors in \d+ files\.$", red.text, re.M)


def test_plain_output_is_left_as_it_is() -> None:
    fx, _ = reduced("tsc", "tsc-errors", "build/tsc")
    red = reducer().reduce_run(fixture_run(fx))
    assert red.text == f"exit {fx['exitCode']}\n" + raw(fx)


def test_large_pretty_run_groups_repeated_errors() -> None:
    fx, red = reduced("tsc", "tsc-large-pretty", "build/tsc")
    n = raw(fx).count("error TS2345: Argument of type 'number'")
    assert n == 40
    assert red.text.count("error TS2345: Argument of type 'number'") == 1
    assert f"({n}×)" in red.text
    assert "'email' is declared here." in red.text  # the first one's related information
    assert red.reduced_chars < red.raw_chars * 0.15


def test_accounting_and_unrelated_output() -> None:
    fx, _ = reduced("tsc", "tsc-errors-pretty-color", "build/tsc")
    lines = raw(fx).splitlines()
    out = run_formatter("tsc", raw(fx), exit_code=2)
    assert out is not None and accounted(out, len(lines))
    assert run_formatter("tsc", UNRELATED) is None
