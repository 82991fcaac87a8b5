"""install / uninstall / doctor hooks / guidance from the command line, as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TJ = [sys.executable, "-m", "tokenjuice"]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    return h


def tj(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME")}
    env["HOME"] = str(home)
    return subprocess.run([*TJ, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


@pytest.mark.parametrize(
    ("host", "rel"),
    [("claude-code", ".claude/settings.json"), ("codex", ".codex/hooks.json"), ("gemini-cli", ".gemini/settings.json")],
)
def test_install_doctor_uninstall(home: Path, host: str, rel: str) -> None:
    p = tj(home, "install", host)
    assert p.returncode == 0, p.stderr
    assert str(home / rel) in p.stdout
    assert tj(home, "install", host).stdout.startswith(f"{p.stdout.split(' hook ')[0]} hook already installed")
    doc = tj(home, "doctor", "hooks", "--json")
    assert doc.returncode == 0, doc.stdout + doc.stderr
    report = json.loads(doc.stdout)
    assert report["hooks"][host]["problems"] == []
    assert report["hooks"][host]["installed"][0]["path"] == str(home / rel)
    out = tj(home, "uninstall", host)
    assert out.returncode == 0 and "removed" in out.stdout
    assert not (home / rel).exists()


def test_project_install(home: Path, tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    p = tj(home, "install", "claude-code", "--project", cwd=proj)
    assert p.returncode == 0
    assert (proj / ".claude" / "settings.json").exists()
    assert tj(home, "install", "codex", "--local").returncode == 2  # codex has no local settings


def test_bad_settings_give_one_line_error(home: Path) -> None:
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text("{oops")
    p = tj(home, "install", "claude-code")
    assert p.returncode == 2
    assert p.stderr.startswith("tokenjuice: error: ") and p.stderr.count("\n") == 1
    assert (home / ".claude" / "settings.json").read_text() == "{oops"


def test_print_and_dry_run_change_nothing(home: Path) -> None:
    p = tj(home, "install", "gemini-cli", "--print")
    assert json.loads(p.stdout)["hooks"]["BeforeTool"][0]["matcher"] == "run_shell_command"
    d = tj(home, "install", "claude-code", "--dry-run")
    assert "would be installed" in d.stdout
    assert not (home / ".claude").exists()


def test_guidance_and_agents_md(home: Path, tmp_path: Path) -> None:
    g = tj(home, "guidance")
    assert g.returncode == 0 and "tokenjuice cat" in g.stdout
    agents = tmp_path / "AGENTS.md"
    agents.write_text("# Notes\n")
    assert "added" in tj(home, "install", "agents-md", "--file", str(agents)).stdout
    assert "unchanged" in tj(home, "install", "agents-md", "--file", str(agents)).stdout
    assert g.stdout in agents.read_text()
    dry = tj(home, "uninstall", "agents-md", "--file", str(agents), "--dry-run").stdout
    assert dry == f"guidance would be removed: {agents}\n" and g.stdout in agents.read_text()
    assert tj(home, "uninstall", "agents-md", "--file", str(agents)).stdout == f"guidance removed: {agents}\n"
    assert agents.read_text() == "# Notes\n"
    gone = tj(home, "uninstall", "agents-md", "--file", str(agents), "--dry-run").stdout
    assert gone == f"guidance absent: {agents}\n"


def test_dry_run_shows_the_change_and_makes_none(tmp_path: Path) -> None:
    import subprocess
    import sys

    settings = tmp_path / "claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "model": "opus"\n}\n')
    before = settings.read_bytes()
    env = {**__import__("os").environ, "CLAUDE_CONFIG_DIR": str(settings.parent), "HOME": str(tmp_path)}
    run = lambda *a: subprocess.run([sys.executable, "-m", "tokenjuice", *a], capture_output=True, text=True, env=env)  # noqa: E731
    dry = run("install", "claude-code", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would be installed" in dry.stdout
    added = [ln for ln in dry.stdout.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert any('"PreToolUse"' in ln for ln in added) and any("hook claude-code" in ln for ln in added)
    removed = [ln[1:].rstrip(",") for ln in dry.stdout.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    assert all(any(r == a[1:].rstrip(",") for a in added) for r in removed)  # the user's settings stay
    assert settings.read_bytes() == before
    assert run("install", "claude-code").returncode == 0
    undo = run("uninstall", "claude-code", "--dry-run")
    removed = [ln for ln in undo.stdout.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    assert any("hook claude-code" in ln for ln in removed)
    assert "hook claude-code" in settings.read_text()
