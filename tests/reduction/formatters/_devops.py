"""Shared helpers for the devops/cloud formatter tests."""

from __future__ import annotations

from typing import Any

from tests.helpers import load
from tokenjuice.reduction.formatters import FormatInput
from tokenjuice.rules.fixtures import fixture_run


def raw_lines(fx: dict[str, Any]) -> list[str]:
    return [ln.rstrip() for ln in fx["combined"].splitlines()]


def fi_for(family: str, fixture_id: str, options: dict[str, Any] | None = None) -> FormatInput:
    """The formatter input for a fixture's raw lines (no rule filters applied)."""
    fx = load(family, fixture_id)
    lines = raw_lines(fx)
    return FormatInput(lines, [1] * len(lines), fixture_run(fx), None, options or {})  # type: ignore[arg-type]


def fi_text(text: str, exit_code: int = 0, options: dict[str, Any] | None = None) -> FormatInput:
    from tokenjuice.model import ToolRun

    lines = text.splitlines()
    run = ToolRun(tool_name="exec", command="x", combined=text, exit_code=exit_code)
    return FormatInput(lines, [1] * len(lines), run, None, options or {})  # type: ignore[arg-type]
