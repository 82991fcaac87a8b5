"""OpenAI Codex CLI: a PreToolUse hook on Bash that routes commands through `wrap`.

Codex applies `updatedInput` when the hook answers `permissionDecision: "allow"`. That
answer only says the hook has no objection: the rewritten command still runs inside
Codex's sandbox, under its approval policy. Codex asks the user to review new hooks
before running them (`/hooks`). Hooks live in `$CODEX_HOME/hooks.json` (default
`~/.codex`) or a project's `.codex/hooks.json`.
"""

from __future__ import annotations

import os

from tokenjuice.hosts._base import Host

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import ClassVar


def codex_home() -> str:
    return os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")


class Codex(Host):
    name = "codex"
    title = "Codex CLI"
    event = "PreToolUse"
    matcher = "Bash"
    entry_fields: ClassVar[Mapping[str, object]] = {
        "timeout": 10,
        "statusMessage": "tokenjuice: routing the command through wrap",
    }
    after_install = "Codex runs new hooks only after you review them: open /hooks in Codex and trust tokenjuice."

    def settings_path(self, scope: str, project_dir: str | None = None) -> str:
        if scope == "user":
            return os.path.join(codex_home(), "hooks.json")
        if scope == "project":
            return os.path.join(self._project_dir(project_dir), ".codex", "hooks.json")
        raise ValueError(f"codex has no scope {scope!r} (user, project)")

    def check_settings(self, data: dict[str, object], path: str) -> list[str]:
        conf = os.path.join(os.path.dirname(path), "config.toml")
        try:
            import tomllib

            with open(conf, "rb") as f:
                features = tomllib.load(f).get("features", {})
        except (OSError, ValueError):
            return []
        if isinstance(features, dict) and (features.get("hooks") is False or features.get("codex_hooks") is False):
            return [f"{conf} turns hooks off ([features] hooks = false)"]
        return []

    def sample_payload(self, command: str, cwd: str) -> dict[str, object]:
        return {
            "session_id": "tokenjuice-doctor",
            "turn_id": "doctor",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "doctor",
            "cwd": cwd,
            "model": "doctor",
            "permission_mode": "default",
        }

    def rewritten_command(self, response: Mapping[str, object]) -> str | None:
        cmd = self.updated_command(response)
        if isinstance(cmd, list) and cmd:
            cmd = cmd[-1]
        return cmd if isinstance(cmd, str) else None

    def handle(self, payload: Mapping[str, object]) -> dict[str, object] | None:
        from tokenjuice.hosts._hook import login_shell, plan_for

        tool_input = self.pre_tool_use_input(payload)
        if tool_input is None:
            return None
        command = tool_input.get("command")
        new: object
        if isinstance(command, str):
            plan = plan_for(command, login_shell(), payload.get("cwd"))
            if plan.command is None:
                return None
            new = plan.command
        elif (
            isinstance(command, list)
            and len(command) == 3
            and all(isinstance(c, str) for c in command)
            and command[1] in ("-c", "-lc")
        ):
            # The older argv form: ["bash", "-lc", "<script>"].
            plan = plan_for(command[2], command[0], payload.get("cwd"))
            if plan.command is None:
                return None
            new = [command[0], command[1], plan.command]
        else:
            return None
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "tokenjuice reduces this command's output",
                "updatedInput": {**tool_input, "command": new},
            }
        }


HOST = Codex()
