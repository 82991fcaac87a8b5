"""webpack: ERROR blocks keep message and importer, resolver traces, code frames, module
listings and progress dropped; emitted assets and the compiled line kept."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter

IDS = ["webpack-errors", "webpack-errors-details-color", "webpack-progress-large", "webpack-size-warnings"]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    reduced("webpack", fid, "build/webpack")


def test_resolver_traces_and_code_frames_go() -> None:
    fx, red = reduced("webpack", "webpack-errors-details-color", "build/webpack")
    text = raw(fx)
    assert "doesn't exist" in text and "doesn't exist" not in red.text
    assert re.search(r"^> \d+ \|", text, re.M) and not re.search(r"^> \d+ \|", red.text, re.M)
    assert len(re.findall(r"^ERROR in ", red.text, re.M)) == len(re.findall(r"^ERROR in ", text, re.M))
    assert " @ ./src/index.js" in red.text
    assert "You may need an appropriate loader" not in red.text


def test_progress_and_module_listing_go() -> None:
    fx, red = reduced("webpack", "webpack-progress-large", "build/webpack")
    assert raw(fx).count("[webpack.Progress]") > 100
    assert "[webpack.Progress]" not in red.text
    assert "[built]" not in red.text
    assert re.search(r"^asset main\.js ", red.text, re.M)
    assert "compiled successfully" in red.text


def test_size_warnings_keep_assets_not_advice() -> None:
    _, red = reduced("webpack", "webpack-size-warnings", "build/webpack")
    assert "WARNING in asset size limit" in red.text
    assert "  main.js (" in red.text
    assert "code-splitting" not in red.text


def test_accounting_and_unrelated_output() -> None:
    fx, _ = reduced("webpack", "webpack-errors", "build/webpack")
    lines = raw(fx).splitlines()
    out = run_formatter("webpack", raw(fx), exit_code=1)
    assert out is not None and accounted(out, len(lines))
    assert run_formatter("webpack", UNRELATED) is None
