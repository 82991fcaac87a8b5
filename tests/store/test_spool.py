"""Spool files: created locked by their writer; orphaned once the writer is gone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tokenjuice.store import spool


@pytest.fixture(autouse=True)
def _own_temporary_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The fallback place is the temporary directory: this test's own, not the machine's.
    import tempfile

    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_a_spool_file_being_written_is_not_an_orphan() -> None:
    f, path = spool.create()
    try:
        assert os.path.dirname(path) == spool.spool_dir()
        assert os.path.basename(path).startswith(f"wrap-{os.getpid()}-")
        f.write(b"data")
        assert spool.orphans() == []
    finally:
        f.close()
        os.unlink(path)


def test_the_state_directory_is_created_private() -> None:
    f, path = spool.create()
    f.close()
    os.unlink(path)
    for d in (spool.spool_dir(), os.path.dirname(spool.spool_dir())):
        assert os.stat(d).st_mode & 0o777 == 0o700


def _planted(name: str, data: bytes = b"x" * 10) -> Path:
    d = Path(spool.spool_dir())
    d.mkdir(parents=True, exist_ok=True)
    path = d / name
    path.write_bytes(data)
    return path


def test_an_unlocked_file_of_a_gone_writer_is_an_orphan_and_pruned() -> None:
    path = _planted(f"wrap-{_dead_pid()}-abc.out", b"y" * 1000)
    found = spool.orphans()
    assert [(o.path, o.size) for o in found] == [(str(path), 1000)]
    assert spool.remove_orphans() == (1, 1000)
    assert not path.exists()


def test_an_unlocked_file_of_a_live_pid_is_not_an_orphan_until_old() -> None:
    path = _planted(f"wrap-{os.getpid()}-abc.out")
    assert spool.orphans() == []  # created a moment ago: its writer may not have locked it yet
    old = time.time() - spool.PID_REUSE_AGE_S - 60
    os.utime(path, (old, old))
    assert [o.path for o in spool.orphans()] == [str(path)]  # the pid was reused since


def test_a_killed_writer_not_reaped_yet_counts_as_gone() -> None:
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with open(f"/proc/{zombie.pid}/stat", "rb") as f:
            if f.read().rpartition(b")")[2].split()[0] == b"Z":
                break
        time.sleep(0.01)
    try:
        path = _planted(f"wrap-{zombie.pid}-abc.out")
        assert [o.path for o in spool.orphans()] == [str(path)]
    finally:
        zombie.wait()


def test_links_and_other_names_are_never_taken_for_orphans(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep")
    d = Path(spool.spool_dir())
    d.mkdir(parents=True, exist_ok=True)
    (d / f"wrap-{_dead_pid()}-lnk.out").symlink_to(victim)
    _planted("unrelated.out")
    _planted(f"wrap-{_dead_pid()}-abc.txt")
    assert spool.orphans() == []
    spool.remove_orphans()
    assert victim.read_text() == "keep"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to someone else")
def test_someone_elses_files_are_not_ours_to_prune() -> None:
    path = _planted(f"wrap-{_dead_pid()}-abc.out")
    os.chown(path, 65534, 65534)
    assert spool.orphans() == []
