"""Installing hooks into a host's settings: the backup keeps the original's permission
bits and goes on uninstall; a symlinked settings file stays a link; a backup of the
user's own is never touched."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tests.faults._util import tj

HOSTS = ["claude-code", "codex", "gemini-cli"]
SECRET = b'{\n  "env": {"ANTHROPIC_API_KEY": "sk-ant-not-a-real-key"},\n  "model": "opus"\n}\n'


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def _install(host: str, settings: Path, home: Path) -> str:
    p = tj("install", host, "--settings", str(settings), home=home)
    assert p.returncode == 0, p.stderr
    return p.stdout.decode()


def _uninstall(host: str, settings: Path, home: Path) -> str:
    p = tj("uninstall", host, "--settings", str(settings), home=home)
    assert p.returncode == 0, p.stderr
    return p.stdout.decode()


@pytest.mark.parametrize("host", HOSTS)
def test_a_private_settings_file_keeps_a_private_backup_until_uninstall(host: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = tmp_path / "settings.json"
    settings.write_bytes(SECRET)
    settings.chmod(0o600)
    _install(host, settings, home)
    backup = Path(f"{settings}.bak")
    assert backup.read_bytes() == SECRET
    assert _mode(backup) == 0o600 and _mode(settings) == 0o600
    assert "sk-ant-not-a-real-key" in settings.read_text()
    assert "restored" in _uninstall(host, settings, home)
    assert settings.read_bytes() == SECRET and _mode(settings) == 0o600
    assert not backup.exists()


@pytest.mark.parametrize("host", HOSTS)
def test_uninstall_after_later_edits_leaves_no_backup_either(host: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = tmp_path / "settings.json"
    settings.write_bytes(SECRET)
    settings.chmod(0o600)
    _install(host, settings, home)
    data = json.loads(settings.read_text())
    data["theme"] = "dark"
    settings.write_text(json.dumps(data))
    _uninstall(host, settings, home)
    assert json.loads(settings.read_text()) == {**json.loads(SECRET), "theme": "dark"}
    assert _mode(settings) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("settings")) == ["settings.json"]


@pytest.mark.parametrize("host", HOSTS)
def test_a_symlinked_settings_file_is_edited_through_the_link(host: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "settings.json"
    target.write_bytes(SECRET)
    target.chmod(0o600)
    link = tmp_path / "settings.json"
    link.symlink_to(target)
    _install(host, link, home)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert "hook" in target.read_text() and _mode(target) == 0o600
    assert sorted(p.name for p in dotfiles.iterdir()) == ["settings.json"]  # no temporary left there
    _uninstall(host, link, home)
    assert link.is_symlink() and target.read_bytes() == SECRET and _mode(target) == 0o600
    assert not Path(f"{link}.bak").exists()


@pytest.mark.parametrize("host", HOSTS)
def test_a_backup_of_the_users_own_is_never_touched(host: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = tmp_path / "settings.json"
    settings.write_bytes(SECRET)
    settings.chmod(0o600)
    mine = Path(f"{settings}.bak")
    mine.write_bytes(b"my own old settings\n")
    out = _install(host, settings, home)
    ours = Path(f"{settings}.bak.1")
    assert str(ours) in out
    assert mine.read_bytes() == b"my own old settings\n"
    assert ours.read_bytes() == SECRET and _mode(ours) == 0o600
    _uninstall(host, settings, home)
    assert settings.read_bytes() == SECRET
    assert mine.read_bytes() == b"my own old settings\n" and not ours.exists()


def test_a_backup_changed_since_is_no_longer_ours(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = tmp_path / "settings.json"
    settings.write_bytes(SECRET)
    _install("claude-code", settings, home)
    backup = Path(f"{settings}.bak")
    backup.write_bytes(b"edited by the user\n")
    data = json.loads(settings.read_text())
    data["theme"] = "dark"
    settings.write_text(json.dumps(data))
    _uninstall("claude-code", settings, home)
    assert backup.read_bytes() == b"edited by the user\n"


@pytest.mark.parametrize("fault", ["FIFO", "link to /dev/zero"])
def test_a_hook_call_never_hangs_on_a_settings_file_that_is_no_file(fault: str, tmp_path: Path) -> None:
    config = tmp_path / "claude"
    config.mkdir()
    settings = config / "settings.json"
    if fault == "FIFO":
        os.mkfifo(settings)
    else:
        settings.symlink_to("/dev/zero")
    payload = {
        "session_id": "s",
        "cwd": str(tmp_path),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git status"},
        "permission_mode": "bypassPermissions",
    }
    env = {"CLAUDE_CONFIG_DIR": str(config), "HOME": str(tmp_path)}
    p = tj("hook", "claude-code", home=tmp_path / "home", env=env, stdin=json.dumps(payload).encode(), timeout=60)
    assert p.returncode == 0, p.stderr
    assert " wrap " in p.stdout.decode()  # still routed through wrap
    doc = tj("doctor", "hooks", home=tmp_path / "home", env=env, timeout=60)
    assert "not a regular file" in doc.stdout.decode()
