"""Small filesystem helpers: atomic writes (content and permissions land, no temporary
stays) and finding a program on PATH as shutil does."""

from __future__ import annotations

import os
import signal
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


# ---------------------------------------------------------------------------- which


def _program(path: Path, executable: bool = True) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755 if executable else 0o644)
    return path


def test_which_finds_what_shutil_finds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    a, b, c = (tmp_path / n for n in ("a", "b", "c"))
    for d in (a, b, c):
        d.mkdir()
    _program(a / "plain", executable=False)  # not executable: skipped
    _program(b / "plain")
    (a / "dir").mkdir()  # a directory of that name: skipped
    _program(c / "dir")
    _program(a / "first")
    _program(b / "first")
    _program(tmp_path / "here")
    monkeypatch.chdir(tmp_path)
    paths = [
        os.pathsep.join(map(str, (a, b, c))),
        os.pathsep.join(map(str, (a, a, c))),
        os.pathsep.join(("", str(a))),  # an empty entry is the current directory
        "",
    ]
    names = ["plain", "dir", "first", "here", "missing", str(b / "plain"), str(a / "plain"), "./here", "sh"]
    for path in paths:
        monkeypatch.setenv("PATH", path)
        for name in names:
            assert _fs.which(name) == shutil.which(name), (path, name)
    monkeypatch.setenv("PATH", os.pathsep.join(map(str, (a, b, c))))
    assert _fs.which("plain") == str(b / "plain")
    assert _fs.which("first") == str(a / "first")
    assert _fs.which("dir") == str(c / "dir")
    monkeypatch.delenv("PATH")
    assert _fs.which("sh") == shutil.which("sh")


# ------------------------------------------------------------------ bounded reads


def test_read_regular_reads_a_file_through_a_link(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"content")
    (tmp_path / "link").symlink_to(target)
    assert _fs.read_regular(str(tmp_path / "link"), 100) == b"content"


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/urandom", "directory", "too large"])
def test_read_regular_refuses_what_would_hang_or_never_end(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "thing"
    if kind == "fifo":
        os.mkfifo(path)  # no writer: a plain open would block forever
    elif kind == "directory":
        path.mkdir()
    elif kind == "too large":
        path.write_bytes(b"x" * 101)
    else:
        path.symlink_to(kind)

    def hung(_sig: int, _frame: object) -> None:
        raise TimeoutError("read_regular blocked")

    old = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, 10)  # a regression must fail, not hang the suite
    try:
        with pytest.raises(_fs.NotRegularFile) as err:
            _fs.read_regular(str(path), 100)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert err.value.reason == ("larger than 100 bytes" if kind == "too large" else "not a regular file")
    assert str(path) in str(err.value)


def test_read_regular_raises_what_open_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        _fs.read_regular(str(tmp_path / "missing"), 100)
