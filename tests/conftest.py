"""Test isolation: every test gets its own config/state/cache dirs, so a developer's
own rules, artifacts or stats never change a result."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tokenjuice import _log

# CI replays the same examples every run (a landing must not depend on luck); locally
# each run explores new ones.
settings.register_profile("ci", derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("tjhome")
    monkeypatch.setenv("TOKENJUICE_HOME", str(home))
    monkeypatch.delenv("TOKENJUICE_STATE_DIR", raising=False)
    monkeypatch.delenv("TOKENJUICE_SESSION", raising=False)
    monkeypatch.delenv("TOKENJUICE_TOKENIZER", raising=False)
    _log.reset()
    return home
