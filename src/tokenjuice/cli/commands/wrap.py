"""`tokenjuice wrap [--raw] [--tee] [--timeout S] -- CMD …`: run, reduce, exit like CMD.

The reduced text goes to stdout; `--tee` also streams the raw output live to stderr
(the terminal). The exit status is the command's (128+N when killed by signal N, 124
on `--timeout`).
"""

from __future__ import annotations

from tokenjuice.cli import _io
from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import HIDDEN, flag, rest, value

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from tokenjuice.model import ToolRun


OPTIONS = (
    flag("--raw", help="print the output unreduced (exit code still stated)"),
    flag("--tee", help="also show the raw output live on stderr"),
    value("--timeout", convert=float, metavar="S", help="terminate the command after S seconds"),
    flag(
        "-c",
        "--shell",
        help="run CMD as one shell command line, e.g. 'cd x && make' ($SHELL when POSIX-like, else bash)",
    ),
    value("--cwd", metavar="DIR", help="run in DIR"),
    value("--tool-name", default="exec", metavar="NAME", help=HIDDEN),
    value("--session", metavar="ID", help="session id for grouping (default $TOKENJUICE_SESSION)"),
    *_io.BUDGET_OPTIONS,
    rest("cmd", metavar="-- CMD …", help="the command to run"),
)


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    cmd = list(args.cmd)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not cmd:
        raise UserError("wrap needs a command: tokenjuice wrap -- CMD [ARGS…]")
    if args.shell and len(cmd) != 1:
        cmd = [" ".join(cmd)]
    # `not t > 0` also refuses nan, which no comparison would stop at.
    if args.timeout is not None and not 0 < args.timeout < float("inf"):
        raise UserError(f"--timeout must be a positive number of seconds, not {args.timeout:g}")
    _io.check_budget_arguments(args)
    if args.cwd is not None and not os.path.isdir(args.cwd):
        raise UserError(f"no such directory: {args.cwd}")

    from tokenjuice.process import run_command
    from tokenjuice.reduction.engine import Reducer
    from tokenjuice.spooling import SpoolSink

    session = args.session or os.environ.get("TOKENJUICE_SESSION")
    reducer = Reducer(
        cwd=args.cwd or os.getcwd(),
        max_inline_chars=args.max_chars,
        max_inline_tokens=args.max_tokens,
        density_threshold=args.density_threshold,
    )
    # Past a few MB the output is spooled to disk (secrets replaced on the way) and
    # only a sample stays in memory, so any size of output runs in bounded memory.
    sink = SpoolSink(redact=_byte_redactor(reducer))
    from tokenjuice.cli import _progress

    progress = _progress.Progress() if _progress.wanted(args.tee) else None
    try:
        captured = run_command(
            cmd,
            shell=args.shell,
            cwd=args.cwd,
            tee=args.tee,
            timeout=args.timeout,
            tool_name=args.tool_name,
            session_id=session,
            sink=sink,
            on_chunk=progress.chunk if progress else None,
            on_tick=progress.tick if progress else None,
            # One pipe, as the agent's own shell tool has it: `tokenjuice cat` gives the
            # bytes in the order they were written, an error line where it was printed.
            merge_stderr=True,
        )
        if progress:
            progress.clear()  # before anything else is printed
        run_ = captured.run
        if run_.cwd is None:
            run_.cwd = os.getcwd()
        # TOKENJUICE_RAW=1 is how an agent asks for one command's raw output.
        raw = args.raw or os.environ.get("TOKENJUICE_RAW", "").strip().lower() not in ("", "0", "false", "no", "off")
        try:
            red = reducer.reduce_run(run_, bypass=raw)
            text, verbatim = red.text, red.verbatim
        except Exception as exc:  # noqa: BLE001 - fail open: the command ran, its output goes out
            text, verbatim = _unreduced(run_, exc), False
    finally:
        if progress:
            progress.clear()
        sink.discard()
    _io.write_text(text, verbatim=verbatim)
    sys.stdout.flush()
    return captured.exit_code


def _byte_redactor(reducer: object) -> Callable[[bytes], bytes] | None:
    redactor = reducer._redactor()  # type: ignore[attr-defined]
    if redactor is None:
        return None

    def redact(data: bytes) -> bytes:
        return redactor.redact_bytes(data)[0]  # type: ignore[no-any-return]

    return redact


def _unreduced(run_: ToolRun, exc: Exception) -> str:
    """The captured output as it is, with its exit code, when reducing it failed."""
    from tokenjuice import _log
    from tokenjuice.reduction.inline import exit_line

    _log.warn(f"reduction failed ({type(exc).__name__}: {exc}); passing the output unreduced")
    note = run_.metadata.get("exit_note")
    parts = [exit_line(run_.exit_code, note if isinstance(note, str) else None)]
    spool = run_.metadata.get("spooled")
    if spool is not None:
        parts.append(
            f"[{spool.total_bytes:,} bytes of output: only its head, its tail and its diagnostic lines"
            " are shown, and the full output was not kept]"
        )
    parts.append(run_.combined or "")
    return "\n".join(p for p in parts if p is not None)
