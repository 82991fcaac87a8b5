"""Gemini CLI: a BeforeTool hook on run_shell_command that routes commands through `wrap`.

Gemini CLI merges `hookSpecificOutput.tool_input` into the tool's arguments; the hook
makes no decision. Gemini CLI then judges the command it was handed, the rewritten
one: its command-substitution block, its policy rules and its policy engine's
heuristics. So a command any of them could judge differently once rewritten runs
exactly as written (`_gemini_rules`): the hook never widens nor narrows what Gemini
CLI allows. Settings: `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini` when set)
or a project's `.gemini/settings.json`; the hook timeout is in milliseconds there.
"""

from __future__ import annotations

import os

from tokenjuice.hosts._base import Host

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import ClassVar


class GeminiCli(Host):
    name = "gemini-cli"
    title = "Gemini CLI"
    event = "BeforeTool"
    matcher = "run_shell_command"
    entry_fields: ClassVar[Mapping[str, object]] = {
        "name": "tokenjuice",
        "timeout": 10000,
        "description": "route shell commands through tokenjuice wrap (reduced output, full output kept locally)",
    }
    after_install = "Takes effect in new Gemini CLI sessions."
    # Not git: Gemini CLI asks before git in a folder it does not trust, and doctor's
    # sample folder is a fresh one.
    sample_command = "date"

    def settings_path(self, scope: str, project_dir: str | None = None) -> str:
        if scope == "user":
            # GEMINI_CLI_HOME replaces the home directory for everything Gemini CLI keeps.
            home = os.environ.get("GEMINI_CLI_HOME") or os.path.expanduser("~")
            return os.path.join(home, ".gemini", "settings.json")
        if scope == "project":
            return os.path.join(self._project_dir(project_dir), ".gemini", "settings.json")
        raise ValueError(f"gemini-cli has no scope {scope!r} (user, project)")

    def check_settings(self, data: dict[str, object], path: str) -> list[str]:
        hooks_config = data.get("hooksConfig")
        if isinstance(hooks_config, dict) and hooks_config.get("enabled") is False:
            return [f"{path} turns hooks off (hooksConfig.enabled = false)"]
        return []

    def sample_payload(self, command: str, cwd: str) -> dict[str, object]:
        return {
            "session_id": "tokenjuice-doctor",
            "transcript_path": "",
            "cwd": cwd,
            "hook_event_name": "BeforeTool",
            "timestamp": "2026-01-01T00:00:00Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "tokenjuice doctor"},
        }

    def rewritten_command(self, response: Mapping[str, object]) -> str | None:
        out = response.get("hookSpecificOutput")
        if isinstance(out, dict) and isinstance(out.get("tool_input"), dict):
            cmd = out["tool_input"].get("command")
            return cmd if isinstance(cmd, str) else None
        return None

    def handle(self, payload: Mapping[str, object]) -> dict[str, object] | None:
        from tokenjuice.hosts import _gemini_rules as gemini
        from tokenjuice.hosts._hook import debug, plan_for

        if payload.get("hook_event_name", "BeforeTool") != "BeforeTool":
            return None
        if payload.get("tool_name") != "run_shell_command":
            return None
        tool_input = payload.get("tool_input")
        if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
            return None
        command: str = tool_input["command"]
        if gemini.blocks_substitution(command):
            debug(f"Gemini CLI blocks its command substitution; left for it to refuse: {command[:200]!r}")
            return None
        cwd = payload.get("cwd")
        where = cwd if isinstance(cwd, str) and os.path.isdir(cwd) else None
        # Gemini CLI runs commands with `bash -c` on POSIX systems.
        plan = plan_for(command, "bash", where, substitutions=False)
        if plan.command is None:
            return None
        why = verdict_change(command, plan.command, tool_input, where)
        if why:
            debug(f"left alone, {why}: {command[:200]!r}")
            return None
        return {"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": plan.command}}}


def verdict_change(command: str, rewritten: str, tool_input: Mapping[str, object], cwd: str | None) -> str | None:
    """Why Gemini CLI could judge `rewritten` otherwise than `command` (None: it cannot)."""
    from tokenjuice.command import tokenize
    from tokenjuice.hosts import _gemini_rules as gemini

    rules = gemini.load(cwd)
    why = rules.matching(command, rewritten, tool_input)
    if why:
        return why
    return gemini.heuristics(tokenize(command), trusted=gemini.trusted(cwd, rules))


HOST = GeminiCli()
