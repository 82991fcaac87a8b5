"""Claude Code: a PreToolUse hook on the Bash tool that routes commands through `wrap`.

Claude Code applies a hook's `updatedInput` only together with a permission decision,
and `allow` skips the user's permission prompt. So the hook never grants more than
the user already did: by default (`[hooks] claude_permission = "rules"`) it rewrites
a command only when the user's own permission rules already allow every part of it
(or the session runs with `bypassPermissions`), and leaves everything else to Claude
Code's normal prompt, unreduced. A command that matches a deny or ask rule, and
every command in plan mode, is never touched.

`"ask"` also rewrites commands that are not pre-approved and asks the user about the
wrapped command; `"allow"` approves every rewrite (only for users who allow all Bash
anyway). Settings: `$CLAUDE_CONFIG_DIR/settings.json` (default `~/.claude`), and the
project's `.claude/settings.json` and `.claude/settings.local.json`.
"""

from __future__ import annotations

import os

from tokenjuice.hosts._base import Host

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import ClassVar

    from tokenjuice.command import Token

POLICIES = ("rules", "ask", "allow")

# Segments that are harmless on their own and that Claude Code itself lets through.
_HARMLESS = frozenset({"cd", "pushd", "popd", "true", ":", "echo", "printf", "pwd"})


def config_home() -> str:
    return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")


def _managed_settings() -> list[str]:
    import sys

    if sys.platform == "darwin":
        return ["/Library/Application Support/ClaudeCode/managed-settings.json"]
    return ["/etc/claude-code/managed-settings.json"]


class ClaudeCode(Host):
    name = "claude-code"
    title = "Claude Code"
    event = "PreToolUse"
    matcher = "Bash"
    scopes = ("user", "project", "local")
    entry_fields: ClassVar[Mapping[str, object]] = {
        "timeout": 10,
        "statusMessage": "tokenjuice: routing the command through wrap",
    }
    after_install = "Takes effect in new Claude Code sessions (or after /hooks reload)."

    def settings_path(self, scope: str, project_dir: str | None = None) -> str:
        if scope == "user":
            return os.path.join(config_home(), "settings.json")
        base = os.path.join(self._project_dir(project_dir), ".claude")
        if scope == "project":
            return os.path.join(base, "settings.json")
        if scope == "local":
            return os.path.join(base, "settings.local.json")
        raise ValueError(f"claude-code has no scope {scope!r} (user, project, local)")

    def check_settings(self, data: dict[str, object], path: str) -> list[str]:
        if data.get("disableAllHooks") is True:
            return [f"{path} sets disableAllHooks: the hook never runs"]
        return []

    def sample_payload(self, command: str, cwd: str) -> dict[str, object]:
        return {
            "session_id": "tokenjuice-doctor",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "tokenjuice doctor"},
            "cwd": cwd,
            "permission_mode": "bypassPermissions",
        }

    def rewritten_command(self, response: Mapping[str, object]) -> str | None:
        cmd = self.updated_command(response)
        return cmd if isinstance(cmd, str) else None

    def handle(self, payload: Mapping[str, object]) -> dict[str, object] | None:
        from tokenjuice.hosts._hook import debug, login_shell, plan_for

        tool_input = self.pre_tool_use_input(payload)
        command = tool_input.get("command") if tool_input is not None else None
        if tool_input is None or not isinstance(command, str):
            return None
        if tool_input.get("run_in_background"):
            debug("left alone: background command (its output is read later)")
            return None
        # Claude Code runs commands in $CLAUDE_CODE_SHELL, else the login shell.
        shell = os.path.basename(os.environ.get("CLAUDE_CODE_SHELL") or "") or login_shell()
        plan = plan_for(command, shell, payload.get("cwd"))
        if plan.command is None:
            return None
        cwd = payload.get("cwd")
        project = os.environ.get("CLAUDE_PROJECT_DIR") or (cwd if isinstance(cwd, str) else None)
        mode = payload.get("permission_mode")
        decision, reason = decide(command, mode if isinstance(mode, str) else "default", project, policy())
        if decision is None:
            debug(f"left alone: {reason}")
            return None
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": decision,
                "permissionDecisionReason": f"tokenjuice reduces this command's output ({reason})",
                "updatedInput": {**tool_input, "command": plan.command},
            }
        }


HOST = ClaudeCode()


def policy() -> str:
    value = os.environ.get("TOKENJUICE_CLAUDE_PERMISSION")
    if value is None:
        from tokenjuice import config

        raw = config.section("hooks").get("claude_permission", "rules")
        value = raw if isinstance(raw, str) else "rules"
    value = value.strip().lower()
    if value not in POLICIES:
        from tokenjuice import _log

        _log.warn(f"unknown claude_permission {value!r} (rules, ask, allow); using 'rules'")
        return "rules"
    return value


# ---------------------------------------------------------------- permissions


def decide(command: str, mode: str, project_dir: str | None, policy: str = "rules") -> tuple[str | None, str]:
    """The permission decision to pair with a rewrite, or None to leave the command alone."""
    if mode == "plan":
        return None, "plan mode"
    if mode == "bypassPermissions":
        return "allow", "permissions bypassed for this session"
    allow, deny, ask = load_rules(project_dir)
    segments = split_segments(command)
    if segments is None:
        return None, "command not understood well enough to check permissions"
    for seg in segments:
        if any(matches(rule, seg) for rule in deny):
            return None, "a deny rule matches"
        if any(matches(rule, seg) for rule in ask):
            return None, "an ask rule matches"
    if policy == "allow":
        return "allow", "claude_permission = allow"
    if all(_harmless(seg) or any(matches(rule, seg) for rule in allow) for seg in segments):
        return "allow", "allowed by your permission rules"
    if policy == "ask":
        return "ask", "not pre-approved; Claude Code asks"
    return None, "not pre-approved by a permission rule; Claude Code asks as usual"


def _words(text: str) -> list[str] | None:
    """`shlex.split(text)` (None where it fails). Without a quote or a backslash it is
    the words between blanks: on every hook call, importing shlex (and `re`) would cost
    more than the rest of the permission check."""
    if not any(c in text for c in "\\'\""):
        # shlex's whitespace: space, tab, CR and newline.
        return [w for w in text.replace("\t", " ").replace("\r", " ").replace("\n", " ").split(" ") if w]
    import shlex

    try:
        return shlex.split(text)
    except ValueError:
        return None


class Segment:
    """One simple command of a command line: its words and its source text."""

    __slots__ = ("argv", "risky", "text")

    def __init__(self, argv: list[str], text: str, risky: bool) -> None:
        self.argv = argv
        self.text = text
        # Substitutions and file redirections can do more than the prefix says.
        self.risky = risky


def split_segments(command: str) -> list[Segment] | None:
    from tokenjuice.command import OP, REDIR, WORD, ShellSyntaxError, tokenize

    try:
        tokens = tokenize(command)
    except (ShellSyntaxError, RecursionError):
        return None
    segments: list[Segment] = []
    current: list[Token] = []

    def flush() -> None:
        words = [t for t in current if t.kind == WORD]
        if words:
            text = " ".join(command[current[0].start : current[-1].end].split())
            risky = any(t.kind not in (WORD, REDIR) for t in current)
            risky = risky or any(t.subs or _risky_word(command[t.start : t.end]) for t in current)
            risky = risky or any(_risky_redirect(t.value) for t in current if t.kind == REDIR)
            segments.append(Segment([t.value for t in words], text, risky))
        current.clear()

    for tok in tokens:
        if tok.kind == OP:
            flush()
            continue
        current.append(tok)
    flush()
    return segments


def _risky_word(raw: str) -> bool:
    return "$(" in raw or "`" in raw or "<(" in raw or ">(" in raw


def _risky_redirect(redir: str) -> bool:
    op = redir.lstrip("0123456789&")
    if not op.startswith(">"):
        return False
    target = op.lstrip(">|").strip()
    return not (target.startswith("&") or target == "/dev/null")


def _harmless(seg: Segment) -> bool:
    from tokenjuice.command import program_name

    return not seg.risky and program_name(seg.argv[0]) in _HARMLESS


def load_rules(project_dir: str | None) -> tuple[list[str], list[str], list[str]]:
    """Bash permission patterns (allow, deny, ask) from every settings file that applies."""
    from tokenjuice.hosts import _settings

    paths = [*_managed_settings(), os.path.join(config_home(), "settings.json")]
    if project_dir:
        paths += [
            os.path.join(project_dir, ".claude", "settings.json"),
            os.path.join(project_dir, ".claude", "settings.local.json"),
        ]
    allow: list[str] = []
    deny: list[str] = []
    ask: list[str] = []
    for path in paths:
        try:
            data, _ = _settings.load(path)
        except _settings.SettingsError:
            continue
        perms = data.get("permissions")
        if not isinstance(perms, dict):
            continue
        for key, out in (("allow", allow), ("deny", deny), ("ask", ask)):
            rules = perms.get(key)
            if isinstance(rules, list):
                out.extend(p for p in (_bash_pattern(r) for r in rules) if p is not None)
    return allow, deny, ask


def _bash_pattern(rule: object) -> str | None:
    if not isinstance(rule, str):
        return None
    rule = rule.strip()
    if rule == "Bash":
        return "*"
    if rule.startswith("Bash(") and rule.endswith(")"):
        return rule[5:-1].strip() or "*"
    return None


def matches(pattern: str, seg: Segment) -> bool:
    """Does a Bash permission pattern cover this segment?

    `*` covers everything. `prefix:*` covers commands whose words start with prefix's
    words. Other patterns with `*` are globs (a trailing ` *` also covers the bare
    command); anything else must equal the command.
    """
    if pattern == "*":
        return True
    if seg.risky:
        return False
    joined = " ".join(seg.argv)
    if pattern.endswith(":*"):
        prefix = pattern[:-2].strip()
        words = _words(prefix)
        if words is None:
            return joined == prefix or joined.startswith(prefix + " ")
        return seg.argv[: len(words)] == words
    if "*" in pattern:
        return any(
            _glob(pattern, text) or (pattern.endswith(" *") and _glob(pattern[:-2], text))
            for text in (joined, seg.text)
        )
    return pattern in (joined, seg.text)


def _glob(pattern: str, text: str) -> bool:
    """Does `text` match `pattern`, where `*` stands for any characters (newlines too)?

    Not a regex: `a*a*a*b` as `a.*a.*a.*b` backtracks polynomially, and the patterns come
    from the user's settings while the commands come from the model. Each part between
    stars is found leftmost after the previous one, which for `*`-only globs is exact.
    """
    if "*" not in pattern:
        return text == pattern
    head, *middle, tail = pattern.split("*")
    if len(text) < len(head) + len(tail) or not text.startswith(head) or not text.endswith(tail):
        return False
    pos, end = len(head), len(text) - len(tail)
    for part in middle:
        found = text.find(part, pos, end)
        if found < 0:
            return False
        pos = found + len(part)
    return True
