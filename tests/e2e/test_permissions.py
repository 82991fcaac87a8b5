"""The hook never lets a command run that the host would not have run, and never
rewrites where the user's own rules do not already allow the command.

Each row runs the same host twice with the same permission settings and flags, with
and without the hook, and judges the hooked run against the other (judge.py):
`UNCHANGED` means the hook stayed out of the way and the model got the baseline's
result (a refusal or the raw output), `REDUCED` that the command went through wrap.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Homes
from tests.e2e.hosts import REFUSED, Host, cache_root
from tests.e2e.judge import REDUCED, UNCHANGED, Case, judge, results_of, script_steps, wraps
from tests.e2e.scripted_model import Script
from tokenjuice.store.fallback import fallback_root

pytestmark = pytest.mark.e2e

COMMAND = "git log --stat"


@dataclass(frozen=True)
class Rules:
    """A permission setup: settings merged into the host's settings file, policy files
    (name -> TOML, in the host's user policy folder), the flags of the session (None:
    the battery's unattended flags), and what the hooked run must do. `refused`: the
    host refuses the command itself (checked on the baseline, so the row proves the
    hook keeps a refused command refused)."""

    id: str
    settings: dict[str, Any]
    flags: tuple[str, ...] | None
    expect: str
    policies: tuple[tuple[str, str], ...] = ()
    refused: bool = False
    command: str = COMMAND


CLAUDE = [
    Rules("no-allow-rule", {}, (), UNCHANGED),
    # The read-back (`tokenjuice cat ID`) needs a rule of its own outside bypass mode.
    Rules("allow-rule", {"permissions": {"allow": ["Bash(git log:*)", "Bash(tokenjuice cat:*)"]}}, (), REDUCED),
    Rules("allow-rule-for-another-command", {"permissions": {"allow": ["Bash(git status:*)"]}}, (), UNCHANGED),
    Rules("ask-rule", {"permissions": {"allow": ["Bash(git:*)"], "ask": ["Bash(git log:*)"]}}, (), UNCHANGED),
    Rules("deny-rule", {"permissions": {"allow": ["Bash"], "deny": ["Bash(git log:*)"]}}, (), UNCHANGED),
    Rules("plan-mode", {"permissions": {"allow": ["Bash(git log:*)"]}}, ("--permission-mode", "plan"), UNCHANGED),
    Rules("bypass-permissions", {}, ("--dangerously-skip-permissions",), REDUCED),
]
BUILD = "python3 build.py"
BUILD_DENIED = """[[rule]]
toolName = "run_shell_command"
commandPrefix = "python3"
decision = "deny"
priority = 100
"""
GIT_LOG_DENIED = """[[rule]]
toolName = "run_shell_command"
commandPrefix = "git log"
decision = "deny"
priority = 100
"""
# Without a terminal, Gemini CLI refuses what it would ask about.
GIT_LOG_ASKED = """[[rule]]
toolName = "run_shell_command"
commandRegex = "git (log|show)"
decision = "ask_user"
priority = 100
"""
GEMINI = [
    # Without any allowed shell command it does not offer the shell tool at all here.
    Rules("another-command-allowed", {"tools": {"allowed": ["run_shell_command(git status)"]}}, (), UNCHANGED),
    # Gemini CLI judges the command the hook hands back, and its allow rule for `git log`
    # does not match `tokenjuice wrap -- git log`: a rewrite would turn the allowed
    # command into a refused one (asked, in a terminal). A command a rule matches runs
    # as written, so the model gets what it gets without the hook.
    Rules(
        "allowed-command",
        {"tools": {"allowed": ["run_shell_command(git log)", "run_shell_command(tokenjuice cat)"]}},
        (),
        UNCHANGED,
    ),
    # Deny and ask rules in YOLO mode, which allows everything else: a rewritten
    # command would slip past them. Gemini CLI 0.61 does not apply a `tools.exclude`
    # entry with a command (its deny rule is for a tool of that literal name), so that
    # command runs; the hook still leaves it as written, to the host's own verdict.
    Rules("excluded-command", {"tools": {"exclude": ["run_shell_command(git log)"]}}, None, UNCHANGED),
    Rules("policy-deny", {}, None, UNCHANGED, policies=(("deny.toml", GIT_LOG_DENIED),), refused=True),
    Rules("policy-ask", {}, None, UNCHANGED, policies=(("ask.toml", GIT_LOG_ASKED),), refused=True),
    # A lone `git log --stat` stays as written for Gemini CLI (test_battery's LONE_SAFE):
    # the rows that rewrite run a failing build.
    Rules("yolo", {}, None, REDUCED, command=BUILD),
    Rules("shell-tool-allowed", {"tools": {"allowed": ["run_shell_command"]}}, (), REDUCED, command=BUILD),
    Rules("build-denied", {}, None, UNCHANGED, policies=(("deny.toml", BUILD_DENIED),), refused=True, command=BUILD),
]


def _merge(path: Path, extra: dict[str, Any]) -> None:
    data = json.loads(path.read_text()) if path.exists() else {}
    for key, value in extra.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    path.write_text(json.dumps(data, indent=2))


SETTINGS: dict[str, Callable[[Path], Path]] = {
    "claude-code": lambda home: home / ".claude" / "settings.json",
    "gemini-cli": lambda home: home / ".gemini" / "settings.json",
}


POLICIES: dict[str, Callable[[Path], Path]] = {"gemini-cli": lambda home: home / ".gemini" / "policies"}


def run_pair(host: Host, homes: Homes, workspaces: Callable[[], Path], rules: Rules) -> None:
    bare, hooked = homes.make(host, "bare"), homes.make(host, "hooked")
    for home in (bare, hooked):
        _merge(SETTINGS[host.name](home), rules.settings)
        for name, text in rules.policies:
            folder = POLICIES[host.name](home)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text)
    case = Case(rules.id, rules.command, rules.expect)
    base_ws, hook_ws = workspaces(), workspaces()
    with ThreadPoolExecutor(2) as pool:
        base = pool.submit(host.run, Script([rules.command]), home=bare, cwd=base_ws, flags=rules.flags)
        with_hook = pool.submit(host.run, Script(script_steps(case)), home=hooked, cwd=hook_ws, flags=rules.flags)
        base_session, hooked_session = base.result(), with_hook.result()
    if rules.refused:
        baseline = host.outcome(results_of(base_session, 1)[0])
        assert baseline.exit_code == REFUSED, f"the host ran the command it should refuse: {baseline}"
    judge(host, case, base_session, hooked_session, wraps(), (base_ws, hook_ws))


@pytest.mark.parametrize("rules", CLAUDE, ids=lambda r: r.id)
def test_claude_code_permission_rules(
    claude_code: Host, rules: Rules, homes: Homes, workspaces: Callable[[], Path]
) -> None:
    run_pair(claude_code, homes, workspaces, rules)


@pytest.mark.parametrize("rules", GEMINI, ids=lambda r: r.id)
def test_gemini_cli_confirmation(
    gemini_cli: Host, rules: Rules, homes: Homes, workspaces: Callable[[], Path], known_gap: Callable[[str, str], None]
) -> None:
    known_gap(gemini_cli.name, rules.id)
    run_pair(gemini_cli, homes, workspaces, rules)


def test_codex_runs_only_reviewed_hooks(codex: Host, homes: Homes, workspaces: Callable[[], Path]) -> None:
    """Codex runs a new hook only once the user trusts it (/hooks); until then commands
    run as if it were not there."""
    host = codex
    bare, untrusted = homes.get(host, "bare"), homes.make(host, "hooked", trust=False)
    case = Case("untrusted-hook", COMMAND, UNCHANGED)
    base_ws, hook_ws = workspaces(), workspaces()
    base = host.run(Script([COMMAND]), home=bare, cwd=base_ws)
    hooked = host.run(Script([COMMAND]), home=untrusted, cwd=hook_ws)
    judge(host, case, base, hooked, wraps(), (base_ws, hook_ws))


def test_codex_sandbox_keeps_every_line_within_reach(
    codex: Host,
    homes: Homes,
    workspaces: Callable[[], Path],
    monkeypatch: pytest.MonkeyPatch,
    known_gap: Callable[[str, str], None],
) -> None:
    """Under Codex's workspace-write sandbox (its `--full-auto` setting) the wrapped
    command cannot write outside the workspace and the temp folder, where tokenjuice's
    store usually is. Whatever tokenjuice does then, the model must still be able to
    get every line: the raw output, or a reduction whose handle reads them back (wrap
    keeps it in the store's fallback folder in the temp folder, and `tokenjuice cat`,
    sandboxed too, reads it there)."""
    known_gap(codex.name, "workspace-write-sandbox")
    store = Path(tempfile.mkdtemp(prefix="store-", dir=cache_root()))
    monkeypatch.setenv("TOKENJUICE_HOME", str(store))
    spare = fallback_root(str(store / "state"))
    try:
        flags = ("--sandbox", "workspace-write")
        case = Case("workspace-write-sandbox", COMMAND, REDUCED)
        base_ws, hook_ws = workspaces(), workspaces()
        base = codex.run(Script([COMMAND]), home=homes.get(codex, "bare"), cwd=base_ws, flags=flags)
        hooked = codex.run(Script(script_steps(case)), home=homes.get(codex, "hooked"), cwd=hook_ws, flags=flags)
        if codex.outcome(results_of(hooked, 1)[0]) != codex.outcome(results_of(base, 1)[0]):
            judge(codex, case, base, hooked, wraps(), (base_ws, hook_ws))
    finally:
        shutil.rmtree(store, ignore_errors=True)
        if spare:
            shutil.rmtree(spare, ignore_errors=True)
