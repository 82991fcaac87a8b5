"""Formatters on input they were not written for: every captured output, cut and
shuffled, and read as another tool's output. A formatter that fails costs the rule
its formatter (and once it has accepted a stream, the whole reduction): none may.

This is how a listing of `/` was found to crash the path-listing formatter (`/` was
its own subdirectory)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.helpers import all_fixture_paths, reducer
from tokenjuice import _log
from tokenjuice.model import ToolRun
from tokenjuice.reduction import formatting
from tokenjuice.rules.fixtures import fixture_run, load_fixture


def _mutate(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    k = rng.randrange(7)
    i = rng.randrange(len(lines))
    if k == 0:
        del lines[i]
    elif k == 1:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    elif k == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif k == 3:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif k == 4:
        lines[i] = "/" + lines[i]
    elif k == 5:
        lines.insert(i, rng.choice(["/", "", " ", ":", "error:", "-->", "│", "\t"]))
    else:
        lines = lines[i:]
    return "\n".join(lines)


@pytest.mark.parametrize("seed", [1, 2])
def test_no_formatter_fails_on_cut_or_foreign_output(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    failures: list[str] = []

    def formatter_failed(rule: Any, exc: Exception) -> None:
        failures.append(f"{rule.formatter}: {type(exc).__name__}: {exc}")

    warn = _log.warn

    def record(msg: str, *args: Any, **kwargs: Any) -> None:
        if "reduction failed" in msg:
            failures.append(msg)
        warn(msg, *args, **kwargs)

    monkeypatch.setattr(formatting, "failed", formatter_failed)
    monkeypatch.setattr(_log, "warn", record)
    rng = random.Random(seed)
    runs = [fixture_run(load_fixture(p)) for p in all_fixture_paths()]
    r = reducer()
    for run in runs:
        text = run.combined
        for _ in range(rng.randrange(1, 6)):
            text = _mutate(rng, text)
        r.reduce_run(ToolRun(command=run.command, argv=run.argv, combined=text, exit_code=run.exit_code))
        other = rng.choice(runs)
        code = rng.choice([0, 1, other.exit_code])
        r.reduce_run(ToolRun(command=other.command, argv=other.argv, combined=text, exit_code=code))
    assert not failures, failures[:5]
