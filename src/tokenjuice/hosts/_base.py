"""What every coding-agent host shares: install/uninstall/status of one command hook.

A host module subclasses `Host`, names its settings files and hook event, and turns
the host's hook payload into a response in `handle()`. Claude Code, Codex and Gemini
CLI keep hooks in the same JSON shape, so the editing lives here once.
"""

from __future__ import annotations

import os
import sys

from tokenjuice import _re as re
from tokenjuice.hosts import _settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import ClassVar


class HostStatus:
    """Where the hook is installed and what is wrong with it (for `tokenjuice doctor`)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.installed: list[dict[str, object]] = []
        self.problems: list[str] = []
        self.notes: list[str] = []

    @property
    def summary(self) -> str:
        if not self.installed:
            return "not installed" + (f" ({self.problems[0]})" if self.problems else "")
        where = ", ".join(f"{i['scope']} {i['path']}" for i in self.installed)
        state = "ok" if not self.problems else f"{len(self.problems)} problem(s)"
        return f"{state}: installed in {where}"

    def to_dict(self) -> dict[str, object]:
        return {
            "summary": self.summary,
            "installed": self.installed,
            "problems": self.problems,
            "notes": self.notes,
        }


class Change:
    """What install/uninstall did to one settings file."""

    def __init__(self, path: str, action: str, backup: str | None = None, diff: str = "") -> None:
        self.path = path
        self.action = action  # "installed", "updated", "unchanged", "removed", "absent"
        self.backup = backup
        self.diff = diff  # with dry_run: the change that would be made


def tokenjuice_command() -> str:
    """How to invoke this tokenjuice from a hook or a rewritten command (shell-quoted).

    The script that is running (so `~/venv/bin/tokenjuice install …` installs that one),
    else the `tokenjuice` on PATH, else this interpreter with `-m tokenjuice`.
    """
    from tokenjuice.command import shell_quote

    argv0 = sys.argv[0] if sys.argv else ""
    base = os.path.basename(argv0)
    if base.startswith("tokenjuice") and os.path.isfile(argv0) and os.access(argv0, os.X_OK):
        return shell_quote(os.path.abspath(argv0))
    from tokenjuice._fs import which

    found = which("tokenjuice")
    if found:
        return shell_quote(found)
    return f"{shell_quote(sys.executable)} -m tokenjuice"


class Host:
    """One coding-agent CLI that runs shell commands for a model."""

    name = ""
    title = ""
    event = ""
    matcher: str | None = None
    scopes: tuple[str, ...] = ("user", "project")
    # Extra fields of our hook entry (timeout units differ per host).
    entry_fields: ClassVar[Mapping[str, object]] = {}
    after_install = ""
    # What `doctor` asks the installed hook to rewrite: a command it routes through wrap.
    sample_command = "git status"

    # ---------------------------------------------------------------- locations

    def settings_path(self, scope: str, project_dir: str | None = None) -> str:
        raise NotImplementedError

    def _project_dir(self, project_dir: str | None) -> str:
        return os.path.abspath(project_dir or os.getcwd())

    # --------------------------------------------------------------- the entry

    def hook_command(self, exe: str | None = None) -> str:
        return f"{exe or tokenjuice_command()} hook {self.name}"

    def entry(self, command: str) -> dict[str, object]:
        return {"type": "command", "command": command, **self.entry_fields}

    def is_ours(self, command: str) -> bool:
        return "tokenjuice" in command and re.search(rf"\bhook\s+{re.escape(self.name)}\b", command) is not None

    # ------------------------------------------------------- install / uninstall

    def install(
        self, scope: str = "user", project_dir: str | None = None, *, path: str | None = None, dry_run: bool = False
    ) -> Change:
        path = path or self.settings_path(scope, project_dir)
        data, existed = _settings.load(path)
        before = _settings.find_hooks(data, self.event, self.is_ours)
        wanted = self.entry(self.hook_command())
        if len(before) == 1 and before[0] == wanted and self._matcher_ok(data):
            return Change(path, "unchanged")
        _settings.remove_hooks(data, self.event, self.is_ours)
        _settings.add_hook(data, self.event, self.matcher, wanted)
        self.prepare_settings(data)
        if dry_run:
            return Change(path, "updated" if before else "installed", diff=_settings.diff(path, data))
        backup = _settings.save(path, data, existed=existed)
        return Change(path, "updated" if before else "installed", backup)

    def _matcher_ok(self, data: dict[str, object]) -> bool:
        for group in _settings._groups(data, self.event):
            hooks = group.get("hooks")
            if isinstance(hooks, list) and any(
                isinstance(h, dict) and _settings._is_ours(h, self.is_ours) for h in hooks
            ):
                return group.get("matcher") == self.matcher
        return False

    def prepare_settings(self, data: dict[str, object]) -> None:
        """Host-specific settings the hook needs besides its entry (default: none)."""

    def uninstall(
        self, scope: str = "user", project_dir: str | None = None, *, path: str | None = None, dry_run: bool = False
    ) -> Change:
        path = path or self.settings_path(scope, project_dir)
        data, existed = _settings.load(path)
        if not existed:
            return Change(path, "absent")
        removed = _settings.remove_hooks(data, self.event, self.is_ours)
        if not removed:
            return Change(path, "absent")
        if dry_run:
            return Change(path, "removed", diff=_settings.diff(path, data))
        restored = _settings.restore(path, data)
        if restored is not None:
            return Change(path, restored)
        # Only our entries go: the file keeps the user's later edits, and the backup
        # the install made (stale by now) goes too, so nothing of ours stays behind.
        _settings.save(path, data, existed=True, backup=False)
        _settings.drop_backup(path)
        return Change(path, "removed")

    # ------------------------------------------------------------------ status

    def status(self, project_dir: str | None = None, *, live: bool = True) -> HostStatus:
        st = HostStatus(self.name)
        for scope in self.scopes:
            path = self.settings_path(scope, project_dir)
            try:
                data, existed = _settings.load(path)
            except _settings.SettingsError as exc:
                st.problems.append(str(exc))
                continue
            if not existed:
                continue
            for hook in _settings.find_hooks(data, self.event, self.is_ours):
                command = str(hook.get("command"))
                st.installed.append({"scope": scope, "path": path, "command": command})
                st.problems.extend(self._check_command(command, live=live))
            if st.installed:
                st.problems.extend(self.check_settings(data, path))
        return st

    def check_settings(self, data: dict[str, object], path: str) -> list[str]:
        """Host-specific problems in a settings file that has our hook (default: none)."""
        return []

    def _check_command(self, command: str, *, live: bool) -> list[str]:
        import shlex

        try:
            words = shlex.split(command)
        except ValueError:
            return [f"hook command cannot be parsed: {command}"]
        exe = words[0] if words else ""
        if os.path.isabs(exe):
            if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
                return [f"hook command points at a missing program: {exe} (re-run `tokenjuice install {self.name}`)"]
        else:
            from tokenjuice._fs import which

            if which(exe) is None:
                return [f"hook command `{exe}` is not on PATH (re-run `tokenjuice install {self.name}`)"]
        if not live:
            return []
        return self._live_check(command)

    def sample_payload(self, command: str, cwd: str) -> dict[str, object]:
        raise NotImplementedError

    def rewritten_command(self, response: Mapping[str, object]) -> str | None:
        raise NotImplementedError

    def _live_check(self, command: str) -> list[str]:
        """Run the installed hook on a sample payload, as the host would."""
        import json
        import subprocess
        import tempfile

        sample = self.sample_command
        # The hook says on stderr why it left a command alone.
        env = {**os.environ, "TOKENJUICE_HOOK_DEBUG": "1"}
        with tempfile.TemporaryDirectory(prefix="tokenjuice-doctor-") as cwd:
            payload = json.dumps(self.sample_payload(sample, cwd))
            try:
                proc = subprocess.run(
                    command,
                    shell=True,
                    input=payload,
                    capture_output=True,
                    text=True,
                    timeout=20,
                    cwd=cwd,
                    env=env,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                return ["hook did not answer within 20 s"]
        if proc.returncode != 0:
            err = (proc.stderr.strip().splitlines() or ["no message"])[-1]
            return [f"hook exited with {proc.returncode}: {err}"]
        try:
            response = json.loads(proc.stdout) if proc.stdout.strip() else {}
        except json.JSONDecodeError:
            return [f"hook printed something that is not JSON: {proc.stdout[:80]!r}"]
        rewritten = self.rewritten_command(response) if isinstance(response, dict) else None
        if not rewritten or " wrap " not in rewritten:
            why = (proc.stderr.strip().splitlines() or [""])[-1].removeprefix("tokenjuice hook: ")
            problem = f"hook answered but did not route `{sample}` through tokenjuice wrap"
            return [f"{problem} ({why})" if why else problem]
        return []

    # ----------------------------------------------------------------- the hook

    @staticmethod
    def pre_tool_use_input(payload: Mapping[str, object], tool: str = "Bash") -> dict[str, object] | None:
        """`tool_input` of a Claude-Code-style PreToolUse payload for `tool` (Codex uses the same)."""
        if payload.get("hook_event_name", "PreToolUse") != "PreToolUse" or payload.get("tool_name") != tool:
            return None
        tool_input = payload.get("tool_input")
        return tool_input if isinstance(tool_input, dict) else None

    @staticmethod
    def updated_command(response: Mapping[str, object]) -> object:
        """`hookSpecificOutput.updatedInput.command` of a PreToolUse answer, if any."""
        out = response.get("hookSpecificOutput")
        if isinstance(out, dict) and isinstance(out.get("updatedInput"), dict):
            return out["updatedInput"].get("command")
        return None

    def handle(self, payload: Mapping[str, object]) -> dict[str, object] | None:
        """The JSON response to a hook payload, or None to let the call run unchanged."""
        raise NotImplementedError
