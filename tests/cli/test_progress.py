"""`wrap` shows a live status line to a person at a terminal, and nothing to an agent."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

import pytest

SLOW = "import time\nfor i in range(30):\n    print('step', i, flush=True)\n    time.sleep(0.1)\n"


def _read_all(fd: int, proc: subprocess.Popen[bytes]) -> bytes:
    out = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        elif proc.poll() is not None:
            break
    return out


@pytest.mark.parametrize("terminal", [True, False])
def test_status_line_only_on_a_terminal(terminal: bool, tmp_path: os.PathLike[str]) -> None:
    cmd = [sys.executable, "-m", "tokenjuice", "wrap", "--", sys.executable, "-c", SLOW]
    if terminal:
        leader, follower = os.openpty()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL)
        os.close(follower)
        err = _read_all(leader, proc)
        os.close(leader)
        out = proc.stdout.read() if proc.stdout else b""
        proc.wait(timeout=60)
    else:
        done = subprocess.run(cmd, capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
        out, err = done.stdout, done.stderr
    assert b"step 29" in out
    if terminal:
        assert b"running" in err and b" lines" in err
        assert err.endswith(b"\r\x1b[K")  # cleared before the result
    else:
        assert err == b""
