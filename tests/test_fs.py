"""Atomic small-file writes: content and permissions land, and no temporary stays."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tokenjuice import _fs


def test_writes_new_file_with_default_mode(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "f.json"
    _fs.write_atomic(str(target), b"{}\n")
    assert target.read_bytes() == b"{}\n"
    assert target.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in target.parent.iterdir()) == ["f.json"]


def test_keeps_existing_mode_unless_given(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"old")
    target.chmod(0o600)
    _fs.write_atomic(str(target), b"new")
    assert (target.read_bytes(), target.stat().st_mode & 0o777) == (b"new", 0o600)
    _fs.write_atomic(str(target), b"newer", 0o640)
    assert (target.read_bytes(), target.stat().st_mode & 0o777) == (b"newer", 0o640)


def test_a_stale_temporary_name_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fs, "_seq", iter(range(5)))
    stale = tmp_path / f".tokenjuice-{os.getpid()}-0.tmp"
    stale.write_bytes(b"left by a crash")
    _fs.write_atomic(str(tmp_path / "f"), b"data")
    assert (tmp_path / "f").read_bytes() == b"data"
    assert stale.read_bytes() == b"left by a crash"


def test_failed_rename_leaves_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "a-directory"
    (target / "inside").mkdir(parents=True)
    with pytest.raises(OSError, match="a-directory"):
        _fs.write_atomic(str(target), b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-directory"]
