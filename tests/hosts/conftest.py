"""Hosts tests run against throwaway home/config directories, never the real ones."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def host_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in (
        "CLAUDE_CONFIG_DIR",
        "CLAUDE_PROJECT_DIR",
        "CODEX_HOME",
        "GEMINI_CLI_HOME",
        "TOKENJUICE_HOOK",
        "TOKENJUICE_CLAUDE_PERMISSION",
        "TOKENJUICE_RAW",
        "TOKENJUICE_HOOK_DEBUG",
    ):
        monkeypatch.delenv(var, raising=False)
    from tokenjuice import config

    config.reset()
    return home
