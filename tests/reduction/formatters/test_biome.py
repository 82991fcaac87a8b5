"""Biome formatter on captured fixtures."""

from __future__ import annotations

import re

from tests.reduction.formatters._lint import UNRELATED, body, folded_locations, reduced, run_formatter, signals

DIAG_RE = re.compile(r"^(\S+?(?::\d+:\d+)?) (?:error|warning|info) [\w/]+(?: \([A-Z ]+\))?: \S")


def test_each_diagnostic_is_one_line_without_frames() -> None:
    fx, red = reduced("biome", "biome-check", "lint/biome")
    lines = body(red)
    assert not any("│" in line or "━" in line for line in lines)
    diags = [line for line in lines if DIAG_RE.match(line)]
    assert len(diags) + len(folded_locations(red.text)) == len(signals(fx, "location"))
    assert "Checked 7 files" in red.text
    assert lines[-1] == "error: Some errors were emitted while running checks."


def test_colour_changes_nothing() -> None:
    _, plain = reduced("biome", "biome-check", "lint/biome")
    _, color = reduced("biome", "biome-check-color", "lint/biome")
    strip = re.compile(r"in \d+m?s")
    assert [strip.sub("", x) for x in body(plain)] == [strip.sub("", x) for x in body(color)]


def test_diagnostic_limit_notice_stays() -> None:
    _, red = reduced("biome", "biome-lint-limit", "lint/biome")
    assert "The number of diagnostics exceeds the limit allowed" in red.text
    assert len([line for line in body(red) if DIAG_RE.match(line)]) + len(folded_locations(red.text)) == 20


def test_unrelated_output_is_declined() -> None:
    assert run_formatter("biome", UNRELATED) is None
