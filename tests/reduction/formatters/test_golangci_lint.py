"""golangci-lint formatter on the synthesized fixtures."""

from __future__ import annotations

import re

from tests.reduction.formatters._lint import UNRELATED, body, folded_locations, reduced, run_formatter, signals

ISSUE_RE = re.compile(r"^\S+\.go:\d+:\d+: .+ \([\w-]+\)$")


def test_source_lines_and_pointers_go_stats_stay() -> None:
    fx, red = reduced("golangci-lint", "golangci-lint-run", "lint/golangci-lint")
    lines = body(red)
    assert not any(line.startswith(("\t", "func ")) or line.strip() == "^" for line in lines)
    issues = [line for line in lines if ISSUE_RE.match(line)]
    assert len(issues) + len(folded_locations(red.text)) == len(signals(fx, "issue"))
    assert signals(fx, "summary")[0] in lines
    assert lines[-1].startswith("* ")


def test_v1_output_keeps_its_log_warnings() -> None:
    _, red = reduced("golangci-lint", "golangci-lint-run-v1", "lint/golangci-lint")
    assert any(line.startswith("level=warning") for line in body(red))


def test_clean_run_and_unrelated_output() -> None:
    _, red = reduced("golangci-lint", "golangci-lint-clean", "lint/golangci-lint")
    assert red.text == "0 issues."
    assert run_formatter("golangci-lint", UNRELATED) is None
