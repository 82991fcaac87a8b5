"""Helpers for the test-runner formatter tests (unittest, jest, go test, …)."""

from __future__ import annotations

import re
from typing import Any

from tests.helpers import lost, reduce_fixture
from tokenjuice.model import Reduction
from tokenjuice.reduction.formatters import FormatInput, FormatOutput, get

UNRELATED = """\
total 48
drwxr-xr-x  5 dev dev 4096 Mar  3 10:12 .
-rw-r--r--  1 dev dev 1204 Mar  3 10:12 README.md
-rw-r--r--  1 dev dev  310 Mar  3 10:12 setup.cfg
Compressing objects: 100% (12/12), done.
Writing objects: 100% (14/14), 2.31 KiB | 2.31 MiB/s, done.
"""


def run_formatter(name: str, text: str, exit_code: int = 0) -> FormatOutput | None:
    """Call the formatter `name` directly on raw text (no rule filters)."""
    from tokenjuice.model import ToolRun

    lines = text.splitlines()
    run = ToolRun(tool_name="exec", command="x", combined=text, exit_code=exit_code)
    return get(name)(FormatInput(lines, [1] * len(lines), run, None, {}))  # type: ignore[arg-type]


def reduced(family: str, fixture_id: str, rule: str) -> tuple[dict[str, Any], Reduction]:
    """Reduce a captured fixture; its rule must be chosen and no signal lost."""
    fx, red = reduce_fixture(family, fixture_id)
    assert red.rule_id == rule
    assert not lost(fx, red.text), lost(fx, red.text)
    return fx, red


def signals(fx: dict[str, Any], kind: str) -> list[str]:
    return [s["text"] for s in fx.get("signals") or [] if isinstance(s, dict) and s.get("kind") == kind]


def body(red: Reduction) -> str:
    """The reduced text without the exit/facts header and the omission footer."""
    lines = red.text.splitlines()
    return "\n".join(ln for ln in lines[1:] if not ln.startswith("[… "))


def count(pattern: str, text: str) -> int:
    return len(re.findall(pattern, text, re.M))
