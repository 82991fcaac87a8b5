"""esbuild: [ERROR]/[WARNING] folded with their location, notes kept for errors, excerpts
dropped, identical warnings grouped."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter, signals

IDS = ["esbuild-errors", "esbuild-warnings-success", "esbuild-warnings-color", "esbuild-many-warnings-large"]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    reduced("esbuild", fid, "build/esbuild")


def test_errors_fold_location_and_keep_notes() -> None:
    fx, red = reduced("esbuild", "esbuild-errors", "build/esbuild")
    for loc in signals(fx, "error_location"):
        assert re.search(rf"^{re.escape(loc)}: ✘ \[ERROR\] ", red.text, re.M), loc
    assert "│" not in red.text and "╵" not in red.text
    # A note's own location is folded into the note.
    assert re.search(r'^  The name "money" was originally exported here: src/money\.js:\d+:\d+$', red.text, re.M)
    assert "as external to exclude it from the bundle" in red.text


def test_warning_notes_go_and_colour_is_irrelevant() -> None:
    fx, plain = reduced("esbuild", "esbuild-warnings-success", "build/esbuild")
    assert "Floating-point equality" in raw(fx) and "Floating-point equality" not in plain.text
    _, color = reduced("esbuild", "esbuild-warnings-color", "build/esbuild")
    untimed = lambda t: re.sub(r"Done in \d+ms", "", t)  # noqa: E731 - the runs' timings differ
    assert untimed(color.text) == untimed(plain.text)
    assert "⚡ Done in" in plain.text


def test_many_warnings_grouped() -> None:
    fx, red = reduced("esbuild", "esbuild-many-warnings-large", "build/esbuild")
    n = raw(fx).count("[impossible-typeof]")
    assert n == 50
    assert red.text.count("[impossible-typeof]") == 1
    assert f"[impossible-typeof] ({n}×):" in red.text
    assert red.reduced_chars < red.raw_chars * 0.15


def test_accounting_and_unrelated_output() -> None:
    fx, _ = reduced("esbuild", "esbuild-errors", "build/esbuild")
    lines = raw(fx).splitlines()
    out = run_formatter("esbuild", raw(fx), exit_code=1)
    assert out is not None and accounted(out, len(lines))
    assert run_formatter("esbuild", UNRELATED) is None
