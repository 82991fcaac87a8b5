"""The warnings log in a state directory someone else can write to: never followed
through a link, never appended to a file that is not ours, always 0600."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from tests.faults._util import assert_failed_open, tj

CMD = [sys.executable, "-c", "print('done'); raise SystemExit(2)"]


def _home_with_a_warning(tmp_path: Path) -> Path:
    """A home whose config makes every run warn (and so write the log)."""
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "config.toml").write_bytes(b"# caf\xe9\n")
    (home / "state").mkdir(mode=0o700)
    return home


def test_the_log_is_private_even_with_the_store_off(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "config.toml").write_bytes(b"# caf\xe9\n")
    p = tj("wrap", "--", *CMD, home=home, env={"TOKENJUICE_STORE": "0"})
    assert "done" in assert_failed_open(p, 2)
    log = home / "state" / "warnings.log"
    assert "not UTF-8" in log.read_text()
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "state").stat().st_mode) == 0o700


def test_a_symlink_in_place_of_the_log_is_not_followed(tmp_path: Path) -> None:
    home = _home_with_a_warning(tmp_path)
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    (home / "state" / "warnings.log").symlink_to(victim)
    assert "done" in assert_failed_open(tj("wrap", "--", *CMD, home=home), 2)
    assert victim.read_text() == "precious\n"


def test_a_hard_link_in_place_of_the_log_is_not_written(tmp_path: Path) -> None:
    home = _home_with_a_warning(tmp_path)
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    os.link(victim, home / "state" / "warnings.log")
    assert "done" in assert_failed_open(tj("wrap", "--", *CMD, home=home), 2)
    assert victim.read_text() == "precious\n"


def test_a_log_someone_else_owns_is_not_written(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to someone else")
    home = _home_with_a_warning(tmp_path)
    log = home / "state" / "warnings.log"
    log.write_text("theirs\n")
    os.chown(log, 65534, 65534)
    assert "done" in assert_failed_open(tj("wrap", "--", *CMD, home=home), 2)
    assert log.read_text() == "theirs\n"


def test_an_open_log_is_made_private(tmp_path: Path) -> None:
    home = _home_with_a_warning(tmp_path)
    log = home / "state" / "warnings.log"
    log.write_text("older warning\n")
    log.chmod(0o644)
    assert "done" in assert_failed_open(tj("wrap", "--", *CMD, home=home), 2)
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert log.read_text().startswith("older warning\n") and "not UTF-8" in log.read_text()
