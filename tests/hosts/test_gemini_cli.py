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


@pytest.fixture(autouse=True)
def trusted_tmp(tmp_path: Path, host_home: Path) -> Path:
    """Gemini CLI trusts the test's folder (it asks before git in one it does not)."""
    trust(host_home, {str(tmp_path): "TRUST_FOLDER"})
    return tmp_path


def trust(home: Path, folders: dict[str, str]) -> None:
    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps(folders))


def settings(home: Path, data: object) -> None:
    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps(data))


def policy(folder: Path, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rules.toml").write_text(text)


def rewritten(command: str, cwd: Path) -> str | None:
    out = HOST.handle(payload(command, cwd))
    return None if out is None else out["hookSpecificOutput"]["tool_input"]["command"]  # type: ignore[index]


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
    out = HOST.handle(payload("git shortlog -sn", tmp_path))
    assert out == {
        "hookSpecificOutput": {
            "hookEventName": "BeforeTool",
            "tool_input": {"command": out["hookSpecificOutput"]["tool_input"]["command"]},
        }  # type: ignore[index]
    }
    assert out["hookSpecificOutput"]["tool_input"]["command"].endswith(" wrap -- git shortlog -sn")  # type: ignore[index]
    assert HOST.handle({**payload("make", tmp_path), "tool_name": "read_file"}) is None


def test_end_to_end(tmp_path: Path) -> None:
    command = failing_script(tmp_path)
    result = run_hook("gemini-cli", payload(command, tmp_path))
    rewritten = json.loads(result.stdout)["hookSpecificOutput"]["tool_input"]["command"]
    ran = run_shell(rewritten, tmp_path)
    assert ran.returncode == 4
    assert ran.stdout.startswith("exit 4")
    assert "src/net.c:42:7: error" in ran.stdout


# ------------------------------------------- what Gemini CLI judges: never changed


@pytest.mark.parametrize(
    ("command", "control"),
    [
        ("git commit -m \"$(cat <<'EOF'\nfix\nEOF\n)\"", 'git commit -m "fix"'),
        ("git shortlog --max-count=`echo 3`", "git shortlog --max-count=3"),
        ("git shortlog --max-count=$((1 + 2))", "git shortlog --max-count=3"),
        ("diff <(git log -1) <(git log -2)", "diff a b"),
    ],
)
def test_substitutions_are_left_for_gemini_to_block(command: str, control: str, tmp_path: Path) -> None:
    # Gemini CLI refuses these itself, but only if it sees them: not inside `bash -c '…'`.
    assert rewritten(control, tmp_path) is not None
    assert rewritten(command, tmp_path) is None


ALLOWED = {"tools": {"allowed": ["run_shell_command(git log)"]}}
# Not a lone command: Gemini CLI's own heuristics read it like its rewrite, so only
# the rule or the trust under test decides.
GIT_LOG = "cd . && git log --stat"


@pytest.mark.parametrize(
    "data",
    [
        ALLOWED,
        {"tools": {"exclude": ["run_shell_command(git log)"]}},
        {"tools": {"confirmationRequired": ["ShellTool(git log)"]}},
        {"allowedTools": ["run_shell_command(git log)"]},  # the older top-level keys
        {"excludeTools": ["run_shell_command(git log --stat)"]},
    ],
)
def test_a_command_a_settings_rule_names_runs_as_written(data: object, host_home: Path, tmp_path: Path) -> None:
    settings(host_home, data)
    for command in ("git log --stat", "cd sub && git log --stat", "git status && git log --stat"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        assert rewritten(command, tmp_path) is None, command
    # Commands no rule names are rewritten as before.
    assert rewritten("cd . && git status", tmp_path) is not None


def test_settings_of_every_scope_count(host_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "proj"
    (project / "deep").mkdir(parents=True)
    assert rewritten(GIT_LOG, project / "deep") is not None
    # A project's settings, from a folder below it too.
    (project / ".gemini").mkdir()
    text = '// comments are fine\n{"tools": {"allowed": ["run_shell_command(git)"]}}'
    (project / ".gemini" / "settings.json").write_text(text)
    assert rewritten(GIT_LOG, project / "deep") is None
    (project / ".gemini" / "settings.json").unlink()
    # GEMINI_CLI_HOME moves the user's settings; the system settings file.
    alt = tmp_path / "alt"
    settings(alt, ALLOWED)
    monkeypatch.setenv("GEMINI_CLI_HOME", str(alt))
    trust(alt, {str(tmp_path): "TRUST_FOLDER"})
    assert rewritten(GIT_LOG, tmp_path) is None
    monkeypatch.delenv("GEMINI_CLI_HOME")
    system = tmp_path / "system.json"
    system.write_text(json.dumps(ALLOWED))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(system))
    assert rewritten(GIT_LOG, tmp_path) is None


@pytest.mark.parametrize(
    "rule",
    [
        'commandPrefix = "git log"\ndecision = "deny"',
        'commandPrefix = ["npm test", "git log"]\ndecision = "ask_user"',
        'commandRegex = "git (log|show)"\ndecision = "allow"',
        'argsPattern = "\\"command\\":\\"[^\\"]*--stat"\ndecision = "deny"',
    ],
)
def test_a_command_a_policy_rule_matches_runs_as_written(rule: str, host_home: Path, tmp_path: Path) -> None:
    policy(host_home / ".gemini" / "policies", f'[[rule]]\ntoolName = "run_shell_command"\n{rule}\npriority = 100\n')
    assert rewritten(GIT_LOG, tmp_path) is None
    assert rewritten("cd . && git diff --name-only", tmp_path) is not None


def test_policy_folders_the_hook_reads(host_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deny = '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git log"\ndecision = "deny"\npriority = 1\n'
    extra = tmp_path / "extra"
    policy(extra, deny)
    settings(host_home, {"policyPaths": [str(extra)]})
    assert rewritten(GIT_LOG, tmp_path) is None
    settings(host_home, {})
    policy(tmp_path / ".gemini" / "policies", deny)  # the workspace's own
    assert rewritten(GIT_LOG, tmp_path) is None
    (tmp_path / ".gemini" / "policies" / "rules.toml").unlink()
    policy(host_home / ".gemini" / "extensions" / "ext" / "policies", deny)
    assert rewritten(GIT_LOG, tmp_path) is None


def test_a_rule_matching_the_rewrite_keeps_the_command(host_home: Path, tmp_path: Path) -> None:
    # An allow rule for tokenjuice itself would let every rewritten command run unasked.
    rule = '[[rule]]\ntoolName = "*"\ncommandRegex = ".* wrap -- "\ndecision = "allow"\npriority = 5\n'
    policy(host_home / ".gemini" / "policies", rule)
    assert rewritten(GIT_LOG, tmp_path) is None


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        ({"tools": {"core": ["run_shell_command(git)"]}}, "restricts which shell commands"),
        ({"coreTools": ["ShellTool(npm)"]}, "restricts which shell commands"),
        ({"security": {"enableConseca": True}}, "Conseca"),
    ],
)
def test_whatever_judges_every_command_leaves_every_command(
    setup: object, why: str, host_home: Path, tmp_path: Path
) -> None:
    settings(host_home, setup)
    assert rewritten("cd . && git status", tmp_path) is None
    assert rewritten("python3 -c 'print(1)'", tmp_path) is None


@pytest.mark.parametrize(
    "text",
    [
        "[[rule]\nnot toml",
        '[[safety_checker]]\ntoolName = "run_shell_command"\npriority = 1\n'
        '[safety_checker.checker]\ntype = "external"\nname = "x"\n',
        # A backreference by name: JavaScript's spelling, not Python's.
        '[[rule]]\ntoolName = "run_shell_command"\nargsPattern = "git (?<n>x)\\\\k<n>"\n'
        'decision = "deny"\npriority = 1\n',
    ],
)
def test_a_policy_file_it_cannot_weigh_leaves_every_command(text: str, host_home: Path, tmp_path: Path) -> None:
    policy(host_home / ".gemini" / "policies", text)
    assert rewritten("cd . && git status", tmp_path) is None


def test_unreadable_settings_leave_every_command(host_home: Path, tmp_path: Path) -> None:
    (host_home / ".gemini").mkdir(exist_ok=True)
    (host_home / ".gemini" / "settings.json").write_text("{not json")
    assert rewritten("cd . && git status", tmp_path) is None


def test_rules_for_other_tools_change_nothing(host_home: Path, tmp_path: Path) -> None:
    settings(host_home, {"tools": {"allowed": ["read_file", "run_shell_command"], "exclude": ["web_fetch"]}})
    policy(
        host_home / ".gemini" / "policies",
        '[[rule]]\ntoolName = "read_file"\nargsPattern = "git"\ndecision = "deny"\npriority = 1\n'
        '[[rule]]\nmcpName = "srv"\ntoolName = "run"\ncommandPrefix = "git"\ndecision = "deny"\npriority = 1\n'
        '[[rule]]\ntoolName = "run_shell_command"\ndecision = "ask_user"\npriority = 1\n',
    )
    assert rewritten(GIT_LOG, tmp_path) is not None


@pytest.mark.parametrize(
    ("command", "control"),
    [
        # A lone command Gemini CLI may allow unasked (its known-safe programs).
        ("ls -la", "cd . && ls -la"),
        ("grep -rn TODO .", "cd . && grep -rn TODO ."),
        ("git log --stat", "git shortlog -sn"),
        ("git -C sub diff", "git -C sub shortlog"),
        # Dangerous (its first program, as Gemini CLI reads it): always asked.
        ("git -c core.pager=cat shortlog", "git shortlog"),
        ("git log --output=x && git status", "git log && git status"),
        ("find . -name '*.py' -delete && git status", "find . -name '*.py' && git status"),
        ("git shortlog 2>&1", "git shortlog"),  # a redirection: an allowed command is asked
    ],
)
def test_commands_gemini_heuristics_single_out(command: str, control: str, tmp_path: Path) -> None:
    assert rewritten(control, tmp_path) is not None
    assert rewritten(command, tmp_path) is None


def test_git_only_in_a_folder_gemini_trusts(host_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    assert rewritten(GIT_LOG, inner) is not None  # trusted through its parent
    trust(host_home, {str(tmp_path): "TRUST_FOLDER", str(inner): "DO_NOT_TRUST"})
    assert rewritten(GIT_LOG, inner) is None
    assert rewritten("python3 -c 'print(1)'", inner) is not None  # not git: no matter
    trust(host_home, {str(inner / "child"): "TRUST_PARENT"})
    assert rewritten(GIT_LOG, inner) is not None
    trust(host_home, {})
    assert rewritten(GIT_LOG, inner) is None
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    assert rewritten(GIT_LOG, inner) is not None
    monkeypatch.delenv("GEMINI_CLI_TRUST_WORKSPACE")
    settings(host_home, {"security": {"folderTrust": {"enabled": False}}})
    assert rewritten(GIT_LOG, inner) is not None
    monkeypatch.setenv("GEMINI_CLI_IDE_WORKSPACE_PATH", str(inner))  # an IDE answers first
    settings(host_home, {})
    trust(host_home, {str(inner): "TRUST_FOLDER"})
    assert rewritten(GIT_LOG, inner) is None


def test_doctor_sample_is_rewritten_in_a_fresh_folder(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    out = HOST.handle(HOST.sample_payload(HOST.sample_command, str(fresh)))
    assert out is not None and HOST.rewritten_command(out) is not None


def test_folder_trust_is_off_only_where_gemini_reads_it(
    host_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inner = tmp_path / "inner"
    (inner / ".gemini").mkdir(parents=True)
    trust(host_home, {})
    off = {"security": {"folderTrust": {"enabled": False}}}
    # A project cannot turn it off for itself.
    (inner / ".gemini" / "settings.json").write_text(json.dumps(off))
    assert rewritten(GIT_LOG, inner) is None
    # The user can; the system settings override the user's.
    settings(host_home, off)
    assert rewritten(GIT_LOG, inner) is not None
    system = tmp_path / "system.json"
    system.write_text(json.dumps({"security": {"folderTrust": {"enabled": True}}}))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(system))
    assert rewritten(GIT_LOG, inner) is None
