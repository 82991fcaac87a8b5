"""Codex CLI: hooks.json under $CODEX_HOME, and the PreToolUse rewrite end to end.

Payload and answer follow https://developers.openai.com/codex/hooks (PreToolUse):
stdin has session_id, transcript_path, cwd, hook_event_name, model, turn_id,
tool_name "Bash", tool_input {command}, tool_use_id; a rewrite is
hookSpecificOutput {hookEventName, permissionDecision: "allow", updatedInput}.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tokenjuice.hosts.codex import HOST

from ._util import failing_script, run_hook, run_shell


def payload(command: object, cwd: Path) -> dict[str, object]:
    return {
        "session_id": "0199a3c2-7b1e-7d40-9a55-2f0c1e2d3b4a",
        "transcript_path": str(cwd / "rollout.jsonl"),
        "cwd": str(cwd),
        "hook_event_name": "PreToolUse",
        "model": "gpt-5-codex",
        "turn_id": "turn-3",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "call_7f3a",
    }


def test_install_into_codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    change = HOST.install()
    assert change.path == str(tmp_path / "codex" / "hooks.json")
    data = json.loads(Path(change.path).read_text())
    group = data["hooks"]["PreToolUse"][0]
    assert group["matcher"] == "Bash"
    assert group["hooks"][0]["command"].endswith(" hook codex")
    assert HOST.install().action == "unchanged"
    assert HOST.uninstall().action == "deleted"


def test_project_scope(tmp_path: Path) -> None:
    assert HOST.install("project", str(tmp_path)).path == str(tmp_path / ".codex" / "hooks.json")


def test_disabled_hooks_feature_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path))
    HOST.install()
    (tmp_path / "config.toml").write_text("[features]\nhooks = false\n")
    assert any("turns hooks off" in p for p in HOST.status(live=False).problems)


def test_rewrite_answer_shape(tmp_path: Path) -> None:
    out = HOST.handle(payload("cargo test", tmp_path))
    assert out is not None
    spec = out["hookSpecificOutput"]
    assert isinstance(spec, dict)
    assert spec["permissionDecision"] == "allow"
    assert spec["updatedInput"]["command"].endswith(" wrap -- cargo test")


def test_argv_form_is_rewritten_inside(tmp_path: Path) -> None:
    out = HOST.handle(payload(["bash", "-lc", "cd web && npm test"], tmp_path))
    assert out is not None
    cmd = out["hookSpecificOutput"]["updatedInput"]["command"]  # type: ignore[index]
    assert cmd[:2] == ["bash", "-lc"] and cmd[2].startswith("cd web && ") and " wrap -- npm test" in cmd[2]
    assert HOST.handle(payload(["ls", "-la"], tmp_path)) is None


def test_end_to_end(tmp_path: Path) -> None:
    command = failing_script(tmp_path)
    result = run_hook("codex", payload(command, tmp_path))
    rewritten = json.loads(result.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    ran = run_shell(rewritten, tmp_path)
    assert ran.returncode == 4
    assert "src/net.c:42:7: error" in ran.stdout


def test_left_alone_prints_nothing(tmp_path: Path) -> None:
    result = run_hook("codex", payload("git log --oneline | head -5", tmp_path))
    assert result.returncode == 0 and result.stdout == b""
