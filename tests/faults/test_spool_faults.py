"""Huge outputs (spooled to disk) when the disk fills, a file-size limit bites, or
`wrap` is killed: the exit code and the output come back, nothing is left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.faults._util import TJ, assert_failed_open, emitter, leftovers, tj

# Spool past 1 MB instead of 8 MB: the same path, a smaller test.
SPOOL_AT = {"TOKENJUICE_SPOOL_THRESHOLD": str(1 << 20)}


@pytest.mark.parametrize("fault", ["disk full", "file-size limit"])
def test_spooling_past_a_full_disk_fails_open(fault: str, small_fs: Path | None, tmp_path: Path) -> None:
    script = emitter(tmp_path)
    home, fsize = tmp_path / "home", None
    if fault == "disk full" and small_fs is not None:
        home = small_fs  # 3 MB for a 6 MB output
    else:
        fsize = 1_500_000  # no mount here, or the limit itself: RLIMIT_FSIZE (EFBIG)
    p = tj("wrap", "--", sys.executable, str(script), str(6 << 20), "5", home=home, env=SPOOL_AT, fsize=fsize)
    text = assert_failed_open(p, 5)
    assert text.startswith("exit 5\n")
    # The tail and the diagnostic lines of the sample: the error and stderr's last word.
    assert "src/app/main.c:42:7: error: boom" in text
    assert "fatal: the build failed" in text
    reason = "No space left on device" if fsize is None else "File too large"
    assert f"full output not kept: {reason}" in text
    assert "tokenjuice cat" not in text  # no handle to bytes that were not kept
    assert leftovers(home) == []


def test_a_small_output_on_a_full_disk_fails_open(small_fs: Path | None, tmp_path: Path) -> None:
    if small_fs is None:
        pytest.skip("mounting a tmpfs is refused here (the file-size case covers the limit)")
    script = emitter(tmp_path)
    filler = small_fs / "filler"
    with open(filler, "wb") as f, pytest.raises(OSError, match="No space left"):  # noqa: PT012 - to the last byte
        while True:
            f.write(b"\0" * 65536)
            f.flush()
    p = tj("wrap", "--", sys.executable, str(script), "300000", "7", home=small_fs)
    text = assert_failed_open(p, 7)
    assert "src/app/main.c:42:7: error: boom" in text
    assert leftovers(small_fs) == []


def test_a_store_too_full_for_the_spooled_output_fails_open(roomy_fs: Path | None, tmp_path: Path) -> None:
    if roomy_fs is None:
        pytest.skip("mounting a tmpfs is refused here")
    script = emitter(tmp_path)
    # 64 MB less 54: room for the 8 MB spool file, not for the store's compressed copy too.
    with open(roomy_fs / "filler", "wb") as f:
        f.write(os.urandom(54 << 20))
    noise = "import base64, os; print(base64.b64encode(os.urandom(3 << 20)).decode())"
    cmd = f"{sys.executable} -c '{noise}'; {sys.executable} {script} 5000000 6"
    p = tj("wrap", "-c", "--", cmd, home=roomy_fs, env=SPOOL_AT)
    text = assert_failed_open(p, 6)
    assert "src/app/main.c:42:7: error: boom" in text
    assert "raw output not kept (store unavailable)" in text
    assert leftovers(roomy_fs) == []


def _spool_files(home: Path) -> list[Path]:
    spool = home / "state" / "spool"
    return sorted(spool.iterdir()) if spool.is_dir() else []


def test_spool_files_of_a_killed_wrap_are_reported_and_pruned(tmp_path: Path) -> None:
    home = tmp_path / "home"
    pidfile = tmp_path / "child.pid"
    # The child writes 30 MB, then waits: wrap is killed while it is spooling.
    child = (
        f"import os, sys, time; open({str(pidfile)!r}, 'w').write(str(os.getpid())); "
        "sys.stdout.write(('progress line ' * 7 + '\\n') * 300000); sys.stdout.flush(); "
        "time.sleep(60)"
    )
    (tmp_path / "home-tmp").mkdir()
    env = dict(os.environ, TOKENJUICE_HOME=str(home), TMPDIR=str(tmp_path / "home-tmp"), **SPOOL_AT)
    wrap = subprocess.Popen(
        [*TJ, "wrap", "--", sys.executable, "-c", child],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    child_pid = None
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            files = _spool_files(home)
            if files and files[0].stat().st_size > (16 << 20) and pidfile.exists():
                break
            time.sleep(0.05)
        else:
            pytest.fail("wrap never spooled the output")
        child_pid = int(pidfile.read_text())
        # While wrap writes it, the spool file is not an orphan.
        live = tj("doctor", "--json", home=home)
        assert "orphaned spool" not in live.stdout.decode()
        wrap.send_signal(signal.SIGKILL)
        wrap.wait(timeout=30)
    finally:
        if wrap.poll() is None:
            wrap.kill()
            wrap.wait(timeout=30)
        if child_pid is not None:  # the child wrap started outlives it: ours to end
            with contextlib.suppress(ProcessLookupError):
                os.kill(child_pid, signal.SIGKILL)
    left = _spool_files(home)
    assert len(left) == 1 and left[0].stat().st_size > (16 << 20)
    doc = tj("doctor", home=home)
    assert doc.returncode == 1
    assert "1 orphaned spool file" in doc.stdout.decode()
    pruned = tj("prune", home=home)
    assert pruned.returncode == 0, pruned.stderr
    assert "removed 1 orphaned spool file" in pruned.stdout.decode()
    assert _spool_files(home) == []
    assert "orphaned" not in tj("doctor", home=home).stdout.decode()
