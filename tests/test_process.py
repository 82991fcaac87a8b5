"""Running a child: which shell runs `--shell` command lines, and how the child is
started (posix_spawn, or subprocess where that is needed) so it sees the same world."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tokenjuice import process
from tokenjuice.process import run_command, shell_program


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


# ------------------------------------------------------- how the child is started

# A child that reports what it was given: output on both streams in order, its stdin,
# its process group, and which of our descriptors it can see.
_PROBE = """
import os, sys
print("out one", flush=True)
print("err one", file=sys.stderr, flush=True)
print("stdin:", sys.stdin.read(), flush=True)
print("own group:", os.getpgrp() == os.getpid(), flush=True)
print("fd open:", [fd for fd in map(int, sys.argv[1:]) if os.path.exists(f"/proc/self/fd/{fd}")], flush=True)
print("err two", file=sys.stderr, flush=True)
sys.exit(3)
"""


@contextlib.contextmanager
def _stdin(data: bytes) -> Iterator[None]:
    """Our fd 0 reads `data` for a while (what a child inherits as its stdin)."""
    saved = os.dup(0)
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    os.dup2(r, 0)
    os.close(r)
    try:
        yield
    finally:
        os.dup2(saved, 0)
        os.close(saved)


@pytest.fixture(params=["spawn", "popen"])
def start(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "popen":
        monkeypatch.setattr(process, "_inherited_fds", lambda: None)  # forces subprocess
    calls: list[str] = []
    real_popen = process._popen
    monkeypatch.setattr(process, "_popen", lambda *a: calls.append("popen") or real_popen(*a))
    request.node.popen_calls = calls
    return str(request.param)


def test_both_ways_of_starting_give_the_child_the_same_world(
    start: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    r, w = os.pipe()
    os.set_inheritable(r, True)  # inherited by us: Popen would not pass it on
    keep = os.open(tmp_path, os.O_RDONLY)  # not inheritable, like every file Python opens
    try:
        with _stdin(b"from our stdin"):
            cap = run_command([sys.executable, "-c", _PROBE, str(r), str(keep)], stdin_devnull=True)
            passed = run_command([sys.executable, "-c", "import sys; print(sys.stdin.read())"])
    finally:
        for fd in (r, w, keep):
            os.close(fd)
    assert passed.run.stdout == "from our stdin\n"  # stdin passed through by default
    assert bool(request.node.popen_calls) == (start == "popen")
    run = cap.run
    assert cap.exit_code == 3
    assert run.stdout.splitlines()[0] == "out one"
    assert run.stderr == "err one\nerr two\n"
    assert "stdin: \n" in run.stdout  # /dev/null
    assert "own group: True" in run.stdout
    assert "fd open: []" in run.stdout
    # Arrival order across the two streams is kept.
    assert run.combined.index("out one") < run.combined.index("err one") < run.combined.index("err two")


def test_the_child_does_not_inherit_our_ignored_sigpipe(start: str) -> None:
    # Python ignores SIGPIPE (and SIGXFSZ); a child must get them back at their
    # defaults, as Popen's restore_signals does, or `yes | head` would complain of
    # broken pipes. grep reports its own ignored signals (bit N-1 for signal N).
    cap = run_command(["grep", "^SigIgn:", "/proc/self/status"])
    mask = int(cap.run.stdout.split()[1], 16)
    assert not mask & (1 << (signal.SIGPIPE - 1))
    assert not mask & (1 << (signal.SIGXFSZ - 1))


def test_exit_codes_and_signals_are_the_same_both_ways(start: str) -> None:
    cap = run_command([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"])
    assert cap.exit_code == 128 + 9 and cap.signal == 9
    cap = run_command([sys.executable, "-c", "raise SystemExit(42)"])
    assert cap.exit_code == 42 and cap.signal is None
    cap = run_command(["definitely-not-a-program-xyz"])
    assert cap.exit_code == 127 and "command not found" in cap.run.stderr


def test_a_program_that_cannot_run_is_126_both_ways(start: str, tmp_path: Path) -> None:
    script = tmp_path / "not-executable"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    cap = run_command([str(script)])
    assert cap.exit_code == 126 and "permission denied" in cap.run.stderr


def test_a_working_directory_of_its_own_goes_through_subprocess(tmp_path: Path) -> None:
    cap = run_command([sys.executable, "-c", "import os; print(os.getcwd())"], cwd=str(tmp_path))
    assert cap.exit_code == 0 and cap.run.stdout.strip() == str(tmp_path)


def test_a_command_run_from_a_worker_thread_leaves_signals_alone() -> None:
    # Agents run tools from thread pools; only the main thread may set signal handlers.
    import threading

    got: list[int] = []
    before = signal.getsignal(signal.SIGTERM)
    t = threading.Thread(target=lambda: got.append(run_command([sys.executable, "-c", "exit(5)"]).exit_code))
    t.start()
    t.join(60)
    assert got == [5]
    assert signal.getsignal(signal.SIGTERM) is before


# ------------------------------------------- a failure inside tokenjuice while reading


class _FailingSink(process.Sink):
    """An in-memory sink that raises on its third chunk of bytes."""

    def __init__(self) -> None:
        super().__init__()
        self.chunks = 0

    def feed_bytes(self, stream: int, data: bytes) -> None:
        self.chunks += 1
        if self.chunks == 3:
            raise RuntimeError("sink bug")
        super().feed_bytes(stream, data)


_CHATTY = "import sys, time\nfor i in range(6):\n    print(f'line {i}', flush=True); time.sleep(0.05)\nsys.exit(5)\n"


def test_a_sink_that_fails_costs_neither_the_output_nor_the_exit_code() -> None:
    sink = _FailingSink()
    cap = run_command([sys.executable, "-c", _CHATTY], sink=sink)
    assert sink.chunks >= 3  # it did fail
    assert cap.exit_code == 5
    assert all(f"line {i}" in cap.run.combined for i in range(6))
    assert "could not be captured" not in cap.run.combined  # nothing was lost
    assert cap.run.raw_bytes == b"".join(f"line {i}\n".encode() for i in range(6))


def test_an_error_while_reading_stops_and_reaps_the_child(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    script = (
        f"import os, time\nopen({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
        "print('up', flush=True)\ntime.sleep(60)\n"
    )

    def explode(stream: int, data: bytes) -> None:
        raise RuntimeError("bug while pumping")

    with pytest.raises(RuntimeError, match="bug while pumping"):
        run_command([sys.executable, "-c", script], on_chunk=explode, stdin_devnull=True)
    pid = int(pidfile.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped: not even a zombie is left


# Bulk to stdout, one line to stderr, bulk again: all of it written before a reader of
# two pipes wakes up, which then cannot tell where the stderr line went.
_BURST = (
    "import os\n"
    "os.write(1, b''.join(b'compiling %d ... ok\\n' % i for i in range(6000)))\n"
    "os.write(2, b'src/net.c:42:7: error: unknown type name\\n')\n"
    "os.write(1, b''.join(b'linking %d ... ok\\n' % i for i in range(6000)))\n"
    "raise SystemExit(2)\n"
)


def test_merged_stderr_keeps_the_write_order_both_ways(start: str) -> None:
    one_pipe = subprocess.run([sys.executable, "-c", _BURST], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout
    cap = run_command([sys.executable, "-c", _BURST], merge_stderr=True)
    assert cap.exit_code == 2
    assert cap.run.raw_bytes == one_pipe
    assert cap.run.combined == one_pipe.decode()
    assert cap.run.stderr == ""


def test_wrap_keeps_the_bytes_in_the_order_they_were_written(tmp_path: Path) -> None:
    env = {**os.environ, "TOKENJUICE_HOME": str(tmp_path / "home")}
    tj = [sys.executable, "-m", "tokenjuice"]
    wrapped = subprocess.run([*tj, "wrap", "--", sys.executable, "-c", _BURST], capture_output=True, env=env)
    assert wrapped.returncode == 2
    handle = wrapped.stdout.decode().rstrip().rsplit(" ", 1)[1].rstrip("]")
    back = subprocess.run([*tj, "cat", handle], capture_output=True, env=env)
    one_pipe = subprocess.run([sys.executable, "-c", _BURST], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout
    assert back.stdout == one_pipe
    assert one_pipe.splitlines().index(b"src/net.c:42:7: error: unknown type name") == 6000
