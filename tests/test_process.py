"""Which shell runs `--shell` command lines."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tokenjuice.process import shell_program


def test_posix_login_shell_is_used_and_fish_is_not() -> None:
    assert shell_program({"SHELL": "/bin/zsh"}) == "/bin/zsh"
    assert shell_program({"SHELL": "/usr/bin/fish"}) == (shutil.which("bash") or "/bin/sh")
    assert shell_program({}) == (shutil.which("bash") or "/bin/sh")
    assert shell_program({"SHELL": "/usr/bin/fish", "TOKENJUICE_SHELL": "/bin/sh"}) == "/bin/sh"


def test_wrap_shell_line_under_a_fish_login(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    env = {**os.environ, "SHELL": "/usr/bin/fish"}
    p = subprocess.run(
        [sys.executable, "-m", "tokenjuice", "wrap", "-c", "cd sub && pwd && exit 5"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert p.returncode == 5
    assert p.stdout.startswith("exit 5\n") and p.stdout.rstrip().endswith("/sub")


def test_missing_directory_is_named_not_blamed_on_the_program(tmp_path: Path) -> None:
    from tokenjuice.runtime import shell_tool

    out = shell_tool("ls", cwd=str(tmp_path / "nope"))
    assert out.exit_code == 1
    assert "no such directory" in out.output and "not found" not in out.output
