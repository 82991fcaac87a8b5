"""Shared test helpers: captured fixtures and the built-in-only reducer."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from tokenjuice.model import Reduction
from tokenjuice.reduction.engine import Reducer
from tokenjuice.rules.fixtures import fixture_run, iter_fixture_files, load_fixture, lost_signals

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def reducer() -> Reducer:
    """Built-in rules only (user and project layers never apply in tests), no store."""
    return Reducer(user_rules=False, project_rules=False, store=False, record=False)


@cache
def formatting_reducer() -> Reducer:
    """`reducer()` that shows what the rule made of any output, however small: the
    engine's never-worse check (raw output back when a text saves too little) is off,
    for tests of what a formatter makes of a small captured output."""
    return Reducer(user_rules=False, project_rules=False, store=False, record=False, min_saved_tokens=-1)


def fixture_path(family: str, fixture_id: str) -> Path:
    for suffix in (".json", ".json.gz"):
        p = FIXTURES / family / f"{fixture_id}{suffix}"
        if p.exists():
            return p
    raise FileNotFoundError(f"no fixture {family}/{fixture_id}")


def load(family: str, fixture_id: str) -> dict[str, Any]:
    return load_fixture(fixture_path(family, fixture_id))


def reduce_fixture(family: str, fixture_id: str) -> tuple[dict[str, Any], Reduction]:
    fx = load(family, fixture_id)
    return fx, formatting_reducer().reduce_run(fixture_run(fx))


def all_fixture_paths() -> list[Path]:
    return list(iter_fixture_files(FIXTURES))


def lost(fx: dict[str, Any], text: str) -> list[Any]:
    """Signals of `fx` the text lost (a bulk one in a raw range the text states is not lost)."""
    return lost_signals(fx.get("signals") or [], text, fixture_run(fx).combined)
