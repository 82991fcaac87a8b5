"""Run a child process and capture its output the way an agent would have seen it.

stdout and stderr are read as they arrive (one `select` loop), decoded incrementally as
UTF-8 (a character split across reads is not mangled), and recorded in arrival order
with a per-chunk channel tag. Writes to the two pipes that land between two reads have
no order any reader can tell, so with `merge_stderr` both go to one pipe, as an agent
host's shell tool has them: the bytes come back in exactly the order they were
written, all tagged stdout. stdin is passed through. SIGINT/SIGTERM/SIGHUP reach the
child; `timeout` terminates it (then kills it) and says so. The exit status follows
shell conventions: the child's code, 128+N when killed by signal N, 124 on timeout,
127 when the program does not exist, 126 when it cannot be executed.

A failure inside tokenjuice while the output is read never costs the command: a sink
that raises is replaced by a plain in-memory one (the child runs on, and its output
and exit code come back), and any other error stops and reaps the child before it
propagates, so no child outlives `wrap`.

The child is started with `os.posix_spawnp` where that does what `subprocess.Popen`
would (no working directory or environment of its own to give it): importing
`subprocess` (with `selectors`, `threading` and `locale`) costs a `tokenjuice wrap`
call more than the rest of starting the child and reading its output.
"""

from __future__ import annotations

import codecs
import os
import signal
import time

from tokenjuice.model import STDERR, STDOUT, ToolRun

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable, Mapping, Sequence
    from types import FrameType
    from typing import Any

READ_SIZE = 65536
TERM_GRACE_S = 3.0
DRAIN_AFTER_EXIT_S = 1.0
EXIT_TIMEOUT = 124
EXIT_NOT_EXECUTABLE = 126
EXIT_NOT_FOUND = 127


class Captured:
    __slots__ = ("error", "exit_code", "run", "signal", "timed_out")

    def __init__(
        self, run: ToolRun, exit_code: int, *, timed_out: bool = False, sig: int | None = None, error: str | None = None
    ) -> None:
        self.run = run
        self.exit_code = exit_code
        self.timed_out = timed_out
        self.signal = sig
        self.error = error


class Sink:
    """Receives decoded output as it arrives; the default keeps everything in memory."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.interleave: list[list[int]] = []
        self.out: list[str] = []
        self.err: list[str] = []
        self.raw: list[bytes] = []  # the bytes in arrival order, for a byte-exact artifact

    def feed_bytes(self, channel: int, data: bytes) -> None:
        self.raw.append(data)

    def feed(self, channel: int, text: str) -> None:
        if not text:
            return
        self.parts.append(text)
        (self.out if channel == STDOUT else self.err).append(text)
        if self.interleave and self.interleave[-1][0] == channel:
            self.interleave[-1][1] += len(text)
        else:
            self.interleave.append([channel, len(text)])

    def to_run(self, **kw: object) -> ToolRun:
        return ToolRun(
            stdout="".join(self.out),
            stderr="".join(self.err),
            combined="".join(self.parts),
            interleave=[(s, n) for s, n in self.interleave],
            raw_bytes=b"".join(self.raw),
            **kw,  # type: ignore[arg-type]
        )


# Shells that read the POSIX-style command lines agents and users write.
_POSIX_SHELLS = frozenset({"bash", "zsh", "sh", "dash", "ksh", "mksh", "ash", "yash", "busybox"})


def shell_program(env: Mapping[str, str] | None = None) -> str:
    """The shell for `--shell` command lines: $TOKENJUICE_SHELL, else $SHELL when it is
    POSIX-like (a fish or nu login shell would misread `a && b`), else bash, else sh."""
    e = env if env is not None else os.environ
    explicit = e.get("TOKENJUICE_SHELL")
    if explicit:
        return explicit
    login = e.get("SHELL") or ""
    if login and os.path.basename(login) in _POSIX_SHELLS:
        return login
    from tokenjuice._fs import which

    return which("bash") or "/bin/sh"


def run_command(
    argv: Sequence[str],
    *,
    shell: bool = False,
    cwd: str | None = None,
    tee: bool = False,
    timeout: float | None = None,
    sink: Sink | None = None,
    tool_name: str = "exec",
    session_id: str | None = None,
    on_chunk: Callable[[int, bytes], None] | None = None,
    on_tick: Callable[[], None] | None = None,
    env: Mapping[str, str] | None = None,
    stdin_devnull: bool = False,
    merge_stderr: bool = False,
) -> Captured:
    """Run `argv` (or, with `shell`, the shell command `argv[0]`) and capture it.

    stdin is inherited (passed through) unless `stdin_devnull`; `merge_stderr`: stderr
    on the stdout pipe (one channel, in write order).
    """
    sink = sink or Sink()
    command_text = argv[0] if shell else _join(argv)
    if shell:
        popen_args: Sequence[str] = [shell_program(env), "-c", argv[0]]
    else:
        popen_args = list(argv)
    own_group = stdin_devnull or not _stdin_is_tty()
    t0 = time.monotonic()

    def not_started(msg: str, code: int) -> Captured:
        run = ToolRun(
            tool_name=tool_name,
            command=command_text,
            argv=argv,
            cwd=cwd,
            stderr=msg + "\n",
            exit_code=code,
            session_id=session_id,
        )
        return Captured(run, code, error=msg)

    if cwd is not None and not os.path.isdir(cwd):
        # Popen would blame the program ("not found") for the missing directory.
        return not_started(f"cannot run in {cwd}: no such directory", 1)
    try:
        proc = _start(popen_args, cwd, env, stdin_devnull, own_group, merge_stderr)
    except FileNotFoundError:
        return not_started(f"command not found: {popen_args[0]}", EXIT_NOT_FOUND)
    except PermissionError:
        return not_started(f"permission denied: {popen_args[0]}", EXIT_NOT_EXECUTABLE)
    except OSError as exc:
        return not_started(f"cannot run {popen_args[0]}: {exc.strerror or exc}", EXIT_NOT_EXECUTABLE)

    def send(sig: int) -> None:
        try:
            if own_group:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
        except (ProcessLookupError, PermissionError):
            pass

    received: list[int] = []

    def forward(signum: int, _frame: FrameType | None) -> None:
        received.append(signum)
        if signum == signal.SIGINT and not own_group:
            return  # the terminal already delivered it to the child's process group
        send(signum)

    old_handlers = {}
    try:
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            old_handlers[s] = signal.signal(s, forward)
    except ValueError:
        pass  # not the main thread (a tool pool): signals stay where they are
    timed_out = False
    guard = _GuardedSink(sink)
    try:
        timed_out = _pump(proc, guard, tee, timeout, t0, send, on_chunk, on_tick)
        rc = proc.wait()
    except BaseException:
        _stop(proc, send)
        raise
    finally:
        proc.close()
        for s, h in old_handlers.items():
            signal.signal(s, h)
    sink = guard
    duration_ms = (time.monotonic() - t0) * 1000
    sig = -rc if rc < 0 else None
    if timed_out:
        exit_code = EXIT_TIMEOUT
    elif rc < 0:
        exit_code = 128 + (-rc)
    else:
        exit_code = rc
    run = sink.to_run(
        tool_name=tool_name,
        command=command_text,
        argv=list(argv) if not shell else None,
        cwd=cwd,
        exit_code=exit_code,
        duration_ms=duration_ms,
        session_id=session_id,
    )
    if timed_out:
        run.metadata["exit_note"] = f"timed out after {timeout:g}s; killed"
    elif sig is not None:
        run.metadata["exit_note"] = f"killed by {_signal_name(sig)}"
    return Captured(run, exit_code, timed_out=timed_out, sig=sig)


def _stop(proc: _Child, send: Callable[[int], None]) -> None:
    """Kill the child (and its group) and reap it: nothing of ours outlives us."""
    try:
        if proc.poll() is None:
            send(signal.SIGKILL)
        proc.wait()
    except Exception:  # noqa: BLE001 - already gone, or not ours to reap
        pass


class _GuardedSink(Sink):
    """Forwards to `inner` until it raises; then keeps the rest in memory itself."""

    def __init__(self, inner: Sink) -> None:
        super().__init__()
        self.inner = inner
        self.error: str | None = None

    def _fail(self, exc: Exception) -> None:
        from tokenjuice import _log

        self.error = f"{type(exc).__name__}: {exc}"
        _log.warn(f"capturing the output failed ({self.error}); keeping the rest in memory", key="sink-failed")

    def feed_bytes(self, channel: int, data: bytes) -> None:
        if self.error is None:
            try:
                self.inner.feed_bytes(channel, data)
                return
            except Exception as exc:  # noqa: BLE001 - the command's output still comes back
                self._fail(exc)
        super().feed_bytes(channel, data)

    def feed(self, channel: int, text: str) -> None:
        if self.error is None:
            try:
                self.inner.feed(channel, text)
                return
            except Exception as exc:  # noqa: BLE001 - the command's output still comes back
                self._fail(exc)
        super().feed(channel, text)

    def to_run(self, **kw: object) -> ToolRun:
        head: ToolRun | None = None
        try:
            head = self.inner.to_run(**kw)
        except Exception as exc:  # noqa: BLE001 - build it from what we hold
            if self.error is None:
                self._fail(exc)
        if self.error is None and head is not None:
            return head
        rest = super().to_run(**kw)
        # The sink that failed may hold only a sample (a spooled output), or nothing.
        lost = head is None or head.metadata.get("spooled") is not None
        text = (head.combined if head is not None else "") + rest.combined
        if lost:
            text = f"[tokenjuice: part of the output could not be captured ({self.error})]\n" + text
        raw = None
        if not lost and head is not None and head.raw_bytes is not None and rest.raw_bytes is not None:
            raw = head.raw_bytes + rest.raw_bytes
        return ToolRun(stdout=text, stderr="", combined=text, raw_bytes=raw, **kw)  # type: ignore[arg-type]


def _signal_name(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


class _Child:
    """A started child: its pid and the read ends of its stdout and stderr pipes (no
    stderr pipe when stderr shares stdout's)."""

    def __init__(self, pid: int, out_fd: int, err_fd: int | None) -> None:
        self.pid = pid
        self.out_fd = out_fd
        self.err_fd = err_fd
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                self.returncode = 0  # reaped elsewhere (SIGCHLD ignored): as Popen says
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            try:
                _, status = os.waitpid(self.pid, 0)
                self.returncode = os.waitstatus_to_exitcode(status)
            except ChildProcessError:
                self.returncode = 0
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def close(self) -> None:
        for fd in (self.out_fd, self.err_fd):
            if fd is None:
                continue
            try:  # noqa: SIM105 - contextlib is an import this path does without
                os.close(fd)
            except OSError:
                pass


class _PopenChild(_Child):
    """The same, started by `subprocess.Popen` (a working directory or an environment
    of its own, or no `posix_spawnp` here)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        super().__init__(proc.pid, proc.stdout.fileno(), proc.stderr.fileno() if proc.stderr is not None else None)
        self.proc = proc

    def poll(self) -> int | None:
        self.returncode = self.proc.poll()
        return self.returncode

    def wait(self) -> int:
        self.returncode = self.proc.wait()
        return self.returncode

    def send_signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    def close(self) -> None:
        for f in (self.proc.stdout, self.proc.stderr):
            if f is not None:
                f.close()


def _start(
    args: Sequence[str],
    cwd: str | None,
    env: Mapping[str, str] | None,
    stdin_devnull: bool,
    own_group: bool,
    merge_stderr: bool = False,
) -> _Child:
    """Start `args` with stdout and stderr on pipes (one pipe when `merge_stderr`), as
    `subprocess.Popen` would: the program looked up on PATH, stdin inherited (or
    /dev/null), no other descriptor passed on, SIGPIPE and SIGXFSZ back to their
    defaults, in a process group of its own when `own_group`. Raises what Popen raises
    when the program cannot run."""
    spawn = getattr(os, "posix_spawnp", None)
    close = _inherited_fds() if spawn is not None and cwd is None and env is None else None
    if close is None:
        return _popen(args, cwd, env, stdin_devnull, own_group, merge_stderr)
    out_r, out_w = os.pipe()
    err_r, err_w = (out_r, out_w) if merge_stderr else os.pipe()
    if min(out_r, out_w, err_r, err_w) < 3:
        # A standard stream of ours is closed and a pipe took its number: Popen
        # untangles that case; it is not worth doing again here.
        for fd in {out_r, out_w, err_r, err_w}:
            os.close(fd)
        return _popen(args, cwd, env, stdin_devnull, own_group, merge_stderr)
    actions: list[tuple[Any, ...]] = [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_DUP2, err_w, 2)]
    if stdin_devnull:
        actions.append((os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0))
    actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in close]
    try:
        assert spawn is not None
        pid = spawn(
            args[0],
            list(args),
            os.environ,
            file_actions=actions,
            setpgroup=0 if own_group else None,
            setsigdef=(signal.SIGPIPE, signal.SIGXFSZ),
        )
    except BaseException:
        for fd in {out_r, err_r}:
            os.close(fd)
        raise
    finally:
        for fd in {out_w, err_w}:
            os.close(fd)
    return _Child(pid, out_r, None if merge_stderr else err_r)


def _inherited_fds() -> list[int] | None:
    """Our descriptors above 2 that a child would inherit (Popen closes them in the
    child), or None when they cannot be listed here."""
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return None
    out = []
    for name in names:
        fd = int(name)
        if fd > 2:
            try:
                if os.get_inheritable(fd):
                    out.append(fd)
            except OSError:
                pass  # the descriptor the listing used, closed again
    return sorted(out)


def _popen(
    args: Sequence[str],
    cwd: str | None,
    env: Mapping[str, str] | None,
    stdin_devnull: bool,
    own_group: bool,
    merge_stderr: bool = False,
) -> _Child:
    import subprocess

    proc = subprocess.Popen(
        args,
        stdin=subprocess.DEVNULL if stdin_devnull else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
        cwd=cwd,
        env=dict(env) if env is not None else None,
        process_group=0 if own_group else None,
    )
    return _PopenChild(proc)


def _pump(
    proc: _Child,
    sink: Sink,
    tee: bool,
    timeout: float | None,
    t0: float,
    send: Callable[[int], None],
    on_chunk: Callable[[int, bytes], None] | None,
    on_tick: Callable[[], None] | None = None,
) -> bool:
    import select

    poller = select.poll()
    decoders = {
        STDOUT: codecs.getincrementaldecoder("utf-8")(errors="replace"),
        STDERR: codecs.getincrementaldecoder("utf-8")(errors="replace"),
    }
    channels = {proc.out_fd: STDOUT}
    if proc.err_fd is not None:
        channels[proc.err_fd] = STDERR
    for fd in channels:
        poller.register(fd, select.POLLIN)  # hang-ups and errors are always reported
    timed_out = False
    term_sent_at: float | None = None
    exited_at: float | None = None
    open_fds = len(channels)
    while open_fds:
        if on_tick is not None:
            on_tick()
        now = time.monotonic()
        wait = 0.25
        if timeout is not None and not timed_out:
            left = t0 + timeout - now
            if left <= 0:
                timed_out = True
                term_sent_at = now
                send(signal.SIGTERM)
            else:
                wait = min(wait, left)
        if term_sent_at is not None and now - term_sent_at > TERM_GRACE_S and proc.poll() is None:
            send(signal.SIGKILL)
            term_sent_at = now + 3600
        if exited_at is None and proc.poll() is not None:
            exited_at = now
        if exited_at is not None and now - exited_at > DRAIN_AFTER_EXIT_S:
            break  # a grandchild holds the pipes open; the command itself is done
        for fd, _ in poller.poll(wait * 1000):
            channel = channels[fd]
            try:
                data = os.read(fd, READ_SIZE)
            except OSError:
                data = b""
            if not data:
                poller.unregister(fd)
                open_fds -= 1
                sink.feed(channel, decoders[channel].decode(b"", final=True))
                continue
            if tee:
                _tee(data)
            if on_chunk is not None:
                on_chunk(channel, data)
            sink.feed_bytes(channel, data)
            sink.feed(channel, decoders[channel].decode(data))
    for channel, dec in decoders.items():
        sink.feed(channel, dec.decode(b"", final=True))
    return timed_out


def _tee(data: bytes) -> None:
    try:  # noqa: SIM105 - contextlib is an import this path does without
        os.write(2, data)
    except OSError:
        pass


def _stdin_is_tty() -> bool:
    try:
        return os.isatty(0)
    except (OSError, ValueError):
        return False


def _join(argv: Sequence[str]) -> str:
    from tokenjuice.command import shell_quote  # `shlex.join`, without importing `re`

    return " ".join(map(shell_quote, argv))
