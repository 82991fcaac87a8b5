"""Gemini CLI: a BeforeTool hook on run_shell_command, end to end.

Payload and answer follow https://geminicli.com/docs/hooks/reference (BeforeTool):
stdin has session_id, transcript_path, cwd, hook_event_name, timestamp, tool_name,
tool_input; `hookSpecificOutput.tool_input` is merged over the model's arguments.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tokenjuice.hosts.gemini_cli import HOST

from ._util import failing_script, run_hook, run_shell


def payload(command: str, cwd: Path) -> dict[str, object]:
    return {
        "session_id": "a1b2c3",
        "transcript_path": str(cwd / "chat.json"),
        "cwd": str(cwd),
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-11-29T10:00:00.000Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command, "description": "build", "dir_path": str(cwd)},
    }


def test_install_user_settings_and_gemini_cli_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host_home: Path
) -> None:
    assert HOST.install().path == str(host_home / ".gemini" / "settings.json")
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "alt"))
    change = HOST.install()
    assert change.path == str(tmp_path / "alt" / ".gemini" / "settings.json")
    group = json.loads(Path(change.path).read_text())["hooks"]["BeforeTool"][0]
    assert group["matcher"] == "run_shell_command"
    assert group["hooks"][0]["timeout"] == 10000  # milliseconds in Gemini CLI


def test_answer_merges_only_the_command(tmp_path: Path) -> None:
    out = HOST.handle(payload("git log --oneline", tmp_path))
    assert out == {
        "hookSpecificOutput": {
            "hookEventName": "BeforeTool",
            "tool_input": {"command": out["hookSpecificOutput"]["tool_input"]["command"]},
        }  # type: ignore[index]
    }
    assert out["hookSpecificOutput"]["tool_input"]["command"].endswith(" wrap -- git log --oneline")  # type: ignore[index]
    assert HOST.handle({**payload("make", tmp_path), "tool_name": "read_file"}) is None


def test_end_to_end(tmp_path: Path) -> None:
    command = failing_script(tmp_path)
    result = run_hook("gemini-cli", payload(command, tmp_path))
    rewritten = json.loads(result.stdout)["hookSpecificOutput"]["tool_input"]["command"]
    ran = run_shell(rewritten, tmp_path)
    assert ran.returncode == 4
    assert ran.stdout.startswith("exit 4")
    assert "src/net.c:42:7: error" in ran.stdout
