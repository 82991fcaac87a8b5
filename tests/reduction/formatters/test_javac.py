"""javac: one line per diagnostic, symbol/location details for errors, source and caret
lines dropped, identical diagnostics grouped."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter, signals

IDS = ["javac-errors", "javac-errors-default-lint", "javac-lint-warnings-large", "javac-api-change-many-errors"]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    reduced("javac", fid, "build/javac")


def test_errors_keep_details_and_lose_source_lines() -> None:
    fx, red = reduced("javac", "javac-errors", "build/javac")
    text = raw(fx)
    assert "symbol: method parseCount(String[])" in red.text  # double spaces squeezed
    assert "location: class App" in red.text
    assert not re.search(r"^\s*\^\s*$", red.text, re.M)
    assert "int x = parseCount(args);" in text
    assert "int x = parseCount(args);" not in red.text
    # Warnings keep their header only: the type-variable explanation goes.
    assert "E extends Object declared in interface List" in text
    assert "E extends Object declared in interface List" not in red.text
    assert red.text.splitlines()[1] == "4 errors, 3 warnings"


def test_many_errors_group_by_message_and_first_detail() -> None:
    fx, red = reduced("javac", "javac-api-change-many-errors", "build/javac")
    # Two kinds of "cannot find symbol" (balance, close) stay apart.
    assert "symbol: method balance(String)" in red.text
    assert "symbol: method close()" in red.text
    assert len(re.findall(r"^error: cannot find symbol \(\d+×\), first at ", red.text, re.M)) == 2
    for loc in signals(fx, "error_location"):
        assert loc in red.text
    assert red.reduced_chars < red.raw_chars * 0.3


def test_lint_warnings_grouped_and_counts_kept() -> None:
    fx, red = reduced("javac", "javac-lint-warnings-large", "build/javac")
    n = raw(fx).count("warning: [rawtypes] found raw type: List\n")
    assert f"warning: [rawtypes] found raw type: List ({n}×):" in red.text
    assert re.search(r"^\d+ warnings$", red.text, re.M)


def test_accounting_and_unrelated_output() -> None:
    fx, _ = reduced("javac", "javac-errors", "build/javac")
    lines = raw(fx).splitlines()
    out = run_formatter("javac", raw(fx), exit_code=1)
    assert out is not None and accounted(out, len(lines))
    assert run_formatter("javac", UNRELATED) is None
