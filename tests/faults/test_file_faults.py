"""Files tokenjuice reads that someone else controls (config.toml, a project's rules
folder) being damaged or hostile: not UTF-8, a FIFO, a link to /dev/zero, huge."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from tests.faults._util import assert_failed_open, tj

CONFIG_FAULTS = ["not UTF-8", "FIFO", "link to /dev/zero", "too large"]


def _damage(path: Path, fault: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if fault == "not UTF-8":
        path.write_bytes(b"# caf\xe9\n[redaction]\nallow = []\n")
    elif fault == "FIFO":
        os.mkfifo(path)
    elif fault == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")


@pytest.mark.parametrize("fault", CONFIG_FAULTS)
def test_a_damaged_config_never_stops_a_command(fault: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    _damage(home / "config" / "config.toml", fault)
    started = time.monotonic()
    p = tj("wrap", "--", sys.executable, "-c", "print('the command ran'); raise SystemExit(3)", home=home)
    text = assert_failed_open(p, 3)
    assert "the command ran" in text
    assert time.monotonic() - started < 60
    log = (home / "state" / "warnings.log").read_text()
    assert "config.toml" in log and "using defaults" in log
    r = tj("reduce", "-e", "4", home=home, stdin=b"reduced anyway\n")
    assert "reduced anyway" in assert_failed_open(r, 0)


RULE = {
    "id": "project/tool",
    "family": "tool",
    "match": {"argv0": ["tool"]},
    "filters": {"skipPatterns": ["^detail \\d+ of the greeting$"]},
}


@pytest.fixture
def hostile_project(tmp_path: Path) -> Path:
    """A trusted-to-be project whose rules folder also holds what a pull can bring."""
    root = tmp_path / "repo"
    rules = root / ".tokenjuice" / "rules"
    rules.mkdir(parents=True)
    (root / ".git").mkdir()
    (rules / "tool.json").write_text(json.dumps(RULE))
    (rules / "zero.json").symlink_to("/dev/zero")
    (rules / "random.json").symlink_to("/dev/urandom")
    os.mkfifo(rules / "pipe.json")
    (rules / "huge.json").write_bytes(b"[" + b" " * (5 << 20) + b"]")
    tool = root / "tool"
    body = (
        "print('tool says hi')\nfor i in range(300):\n    print('detail', i, 'of the greeting')\nraise SystemExit(9)\n"
    )
    tool.write_text(f"#!{sys.executable}\n{body}")
    tool.chmod(0o755)
    return root


def test_a_hostile_rules_folder_is_trusted_and_loaded_without_hanging(hostile_project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    started = time.monotonic()
    trusted = tj("trust", home=home, cwd=hostile_project, timeout=60)
    assert trusted.returncode == 0, trusted.stderr
    p = tj("wrap", "--", "./tool", home=home, cwd=hostile_project, timeout=60)
    text = assert_failed_open(p, 9)
    assert "tool says hi" in text
    assert "detail 150 of the greeting" not in text  # the regular rule file loaded and applied
    doc = tj("doctor", home=home, cwd=hostile_project, timeout=60)
    report = doc.stdout.decode()
    for name in ("zero.json", "random.json", "pipe.json"):
        assert f"{name}: cannot read: not a regular file" in report
    assert "huge.json: cannot read: larger than" in report
    assert time.monotonic() - started < 90


def test_retargeting_a_symlinked_rule_file_needs_trust_again(hostile_project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert tj("trust", home=home, cwd=hostile_project, timeout=60).returncode == 0
    assert ": trusted\n" in tj("trust", "--show", home=home, cwd=hostile_project, timeout=60).stdout.decode()
    rules = hostile_project / ".tokenjuice" / "rules"
    (rules / "zero.json").unlink()
    (rules / "zero.json").symlink_to("/dev/null")
    shown = tj("trust", "--show", home=home, cwd=hostile_project, timeout=60).stdout.decode()
    assert "changed since they were trusted" in shown
