"""Helpers for the lint / type-checker / format-checker formatter tests."""

from __future__ import annotations

import re
from typing import Any

from tests.helpers import lost, reduce_fixture
from tokenjuice.model import Reduction
from tokenjuice.reduction import batches
from tokenjuice.reduction.formatters import FormatInput, FormatOutput, get

UNRELATED = """\
total 48
drwxr-xr-x  5 dev dev 4096 Mar  3 10:12 .
-rw-r--r--  1 dev dev 1204 Mar  3 10:12 README.md
Compressing objects: 100% (12/12), done.
error: failed to push some refs to 'origin'
"""

# `… same at N more: a.py:3, b.py:9` and its continuation lines
SAME_AT_RE = re.compile(r"^ {2}… same at \d+ more: | {4}\S")


def run_formatter(name: str, text: str, exit_code: int = 0, argv: list[str] | None = None) -> FormatOutput | None:
    """Call formatter `name` directly on raw text, prepared as the engine prepares it."""
    from tokenjuice.command import analyze
    from tokenjuice.model import ToolRun

    batch = batches.prepare(text, {})
    run = ToolRun(tool_name="exec", command=" ".join(argv or ["x"]), combined=text, exit_code=exit_code)
    cmd = analyze(" ".join(argv), argv, None) if argv else None
    return get(name)(FormatInput(batch.text, batch.weights, run, cmd, {}))  # type: ignore[arg-type]


def reduced(family: str, fixture_id: str, rule: str) -> tuple[dict[str, Any], Reduction]:
    """Reduce a captured fixture; its rule must be chosen and no signal lost."""
    fx, red = reduce_fixture(family, fixture_id)
    assert red.rule_id == rule
    missing = lost(fx, red.text)
    assert not missing, missing[:5]
    return fx, red


def signals(fx: dict[str, Any], kind: str) -> list[str]:
    return [s["text"] for s in fx.get("signals") or [] if isinstance(s, dict) and s.get("kind") == kind]


def body(red: Reduction) -> list[str]:
    """The reduced lines without the exit/facts header and the omission footer."""
    lines = red.text.splitlines()
    return [ln for ln in lines if not ln.startswith(("exit ", "[… ")) and ln]


def folded_locations(text: str) -> list[str]:
    """Every location listed in the `… same at N more:` lines."""
    out: list[str] = []
    for line in text.splitlines():
        if SAME_AT_RE.match(line):
            rest = line.split(": ", 1)[1] if "same at" in line else line
            out.extend(loc.strip() for loc in rest.split(", ") if loc.strip())
    return out
