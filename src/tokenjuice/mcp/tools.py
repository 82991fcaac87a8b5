"""The MCP tools `run`, `read_output` and `reduce`: arguments checked, replies as text.

Blocking code, called in the server's worker threads, and free of the MCP SDK (the
server turns a `Reply` into the protocol's result). Each worker thread gets its own
`ToolExecutor` (and so its own reducer and artifact-store connection): SQLite
connections must stay in the thread that opened them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tokenjuice import _re as re
from tokenjuice.redact import default_redactor
from tokenjuice.runtime import (
    InterceptorContext,
    ToolCall,
    ToolExecutor,
    ToolOutput,
    ToolResult,
    create_interceptor,
    shell_tool,
)
from tokenjuice.store.readback import (
    DIVIDER,
    LINE_CUT,
    Cursor,
    EmptyRangeError,
    PatternError,
    RangeSyntaxError,
    SearchTimeout,
    format_record,
    grep_groups,
    parse_range,
    read_slice,
    searcher,
)

DEFAULT_TIMEOUT_S = 600.0
DEFAULT_MAX_READ_CHARS = 32_000
MAX_GREP_CONTEXT = 100
# A model-written regex must not pin a worker thread: the whole search gets this long.
GREP_BUDGET_S = 5.0
GREP_LINE_MAX = 2000  # characters of one grep result line
# `shell_tool` reports a timeout with exit status 124 (see tokenjuice.process).
EXIT_TIMEOUT = 124
TOOL_NAME = "exec"  # the tool name the reducer and the ledger see, as for `tokenjuice wrap`


class ToolArgError(ValueError):
    """Bad tool arguments: reported to the model as a tool error, in one sentence."""


class Reply:
    """What one tool call returns, before it becomes a `CallToolResult`.

    Text only, with no output schema and no structured content: Claude Code and Codex
    hand the model a result's structured content instead of its text when there is
    any, and the model must read the reduced output itself. Every fact a caller needs
    is in the text: the `exit N` first line, the footer naming the handle, the status
    line of a read.
    """

    __slots__ = ("is_error", "texts")

    def __init__(self, texts: list[str], *, is_error: bool = False) -> None:
        self.texts = texts
        self.is_error = is_error


def error_reply(message: str) -> Reply:
    return Reply([message], is_error=True)


def _check_keys(args: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(k for k in args if k not in allowed)
    if unknown:
        raise ToolArgError(f"unknown argument {', '.join(map(repr, unknown))}; this tool takes: {', '.join(allowed)}")


def _str_arg(args: Mapping[str, Any], key: str, *, required: bool = False) -> str | None:
    v = args.get(key)
    if v is None:
        if required:
            raise ToolArgError(f"missing required argument {key!r}")
        return None
    if not isinstance(v, str):
        raise ToolArgError(f"{key!r} must be a string, not {type(v).__name__}")
    return v


def _int_arg(args: Mapping[str, Any], key: str, *, minimum: int | None = None) -> int | None:
    v = args.get(key)
    if v is None:
        return None
    n: int | None = None
    # Models sometimes send 20.0 or "20" for an integer; take them when unambiguous.
    if isinstance(v, bool):
        n = None
    elif isinstance(v, int):
        n = v
    elif (isinstance(v, float) and v.is_integer()) or (isinstance(v, str) and re.fullmatch(r"\s*-?\d+\s*", v)):
        n = int(v)
    if n is None:
        raise ToolArgError(f"{key!r} must be an integer, not {v!r}")
    if minimum is not None and n < minimum:
        raise ToolArgError(f"{key!r} must be at least {minimum}, not {n}")
    return n


def _number_arg(args: Mapping[str, Any], key: str) -> float | None:
    v = args.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise ToolArgError(f"{key!r} must be a number, not {v!r}")
    try:
        x = float(v)
    except ValueError:
        raise ToolArgError(f"{key!r} must be a number, not {v!r}") from None
    if not x > 0 or x == float("inf"):
        raise ToolArgError(f"{key!r} must be a positive number of seconds, not {v!r}")
    return x


def _bool_arg(args: Mapping[str, Any], key: str) -> bool:
    v = args.get(key)
    if v is None:
        return False
    if not isinstance(v, bool):
        raise ToolArgError(f"{key!r} must be true or false, not {v!r}")
    return v


def parse_lines(spec: str) -> tuple[int, int | None]:
    """The `lines` argument as (start, end or None); see `readback.parse_range`."""
    try:
        return parse_range(spec)
    except RangeSyntaxError:
        raise ToolArgError(f'lines takes "A-B" (e.g. "120-180"), "A-", "-B" or "A", not {spec!r}') from None
    except EmptyRangeError:
        raise ToolArgError(f"lines {spec!r} is empty or starts before line 1") from None


# ---------------------------------------------------------------- line reading


def grep_lines(
    chunks: Iterable[bytes],
    pattern: str,
    *,
    context: int = 0,
    ignore_case: bool = False,
    cap: int = DEFAULT_MAX_READ_CHARS,
    budget_s: float = GREP_BUDGET_S,
) -> tuple[str, int, int | None, int | None, int, str | None]:
    """(text, matches, first, last, total lines, why it stopped early or None), like `tokenjuice grep`."""
    try:
        hit = searcher(pattern, ignore_case=ignore_case, limit_s=budget_s, bound_all=True)
    except PatternError as exc:
        raise ToolArgError(f"invalid grep pattern {pattern!r}: {exc}") from None
    line_max = min(GREP_LINE_MAX, cap // 2)
    out: list[str] = []
    size = 0
    first: int | None = None
    last = 0
    matches = 0
    stopped: str | None = None
    lines = Cursor(chunks)
    try:
        for group in grep_groups(lines, hit, context):
            for record in group:
                n, sep, text = record
                if record != DIVIDER and len(text) > line_max:
                    # A match inside a huge (minified, base64) line: its start; lines=N reads all of it.
                    text = text[:line_max] + LINE_CUT
                piece = format_record((n, sep, text))
                if size + len(piece) > cap:
                    stopped = f"cut at {cap:,} characters before line {group[-1][0]}"
                    break
                out.append(piece)
                size += len(piece)
                if record != DIVIDER:
                    last = n
                    first = n if first is None else first
            if stopped is not None:
                break
            if group[-1][1] == ":":
                matches += 1
    except SearchTimeout:
        stopped = f"search stopped at line {lines.at}: the pattern took over {budget_s:g}s"
    total = lines.drain()  # every line counts, searched or not
    return "".join(out), matches, first, (last or None), total, stopped


class RedactCommand:
    """Masks secrets in the call's command line before the reducer sees it.

    The executor redacts the output only, and the reducer under it is told not to redact
    again, so a token typed into the command itself would reach the artifact store's
    `command` column (and rule selection) as given. The command has already run by
    now: only what is kept about it changes.
    """

    order = 0  # before the tokenjuice interceptor (100)

    def intercept(self, ctx: InterceptorContext, text: str) -> str | None:
        command = ctx.arguments.get("command")
        redactor = default_redactor()
        if isinstance(command, str) and redactor is not None:
            clean, found = redactor.redact(command)
            if found:
                ctx.arguments["command"] = clean
        return None


class Tools:
    """The tool implementations (blocking; called in worker threads)."""

    def __init__(
        self,
        *,
        cwd: str | None = None,
        default_timeout_s: float = DEFAULT_TIMEOUT_S,
        max_read_chars: int = DEFAULT_MAX_READ_CHARS,
    ) -> None:
        self.cwd = os.path.abspath(cwd or os.getcwd())
        self.default_timeout_s = default_timeout_s
        self.max_read_chars = max_read_chars
        self._local = threading.local()

    def executor(self) -> ToolExecutor:
        """This thread's executor (its reducer holds a SQLite connection)."""
        ex: ToolExecutor | None = getattr(self._local, "executor", None)
        if ex is None:
            ex = ToolExecutor({TOOL_NAME: shell_tool}, interceptors=[RedactCommand(), create_interceptor(cwd=self.cwd)])
            self._local.executor = ex
        return ex

    def handlers(self) -> dict[str, Callable[[Mapping[str, Any]], Reply]]:
        return {"run": self.run, "read_output": self.read_output, "reduce": self.reduce}

    # -- run

    def run(self, args: Mapping[str, Any]) -> Reply:
        _check_keys(args, ("command", "cwd", "timeout_s"))
        command = _str_arg(args, "command", required=True)
        assert command is not None
        if not command.strip():
            raise ToolArgError("'command' is empty")
        cwd = self.cwd
        given = _str_arg(args, "cwd")
        if given:
            cwd = os.path.normpath(os.path.join(self.cwd, os.path.expanduser(given)))
            if not os.path.isdir(cwd):
                raise ToolArgError(f"cwd {given!r} is not a directory (resolved to {cwd})")
        timeout = _number_arg(args, "timeout_s") or self.default_timeout_s
        result = self.executor().execute(TOOL_NAME, {"command": command, "cwd": cwd, "timeout_s": timeout})
        note = f"timed out after {timeout:g}s; killed"
        timed_out = result.exit_code == EXIT_TIMEOUT and f"[{note}]" in result.raw_output[-(len(note) + 8) :]
        text = result.content
        if timed_out:
            text = _state_timeout(text, note)
        return self._reduced_reply(result, text)

    # -- reduce

    def reduce(self, args: Mapping[str, Any]) -> Reply:
        _check_keys(args, ("text", "command", "exit_code"))
        text = _str_arg(args, "text", required=True)
        assert text is not None
        command = _str_arg(args, "command")
        exit_code = _int_arg(args, "exit_code")
        arguments: dict[str, Any] = {"cwd": self.cwd}
        if command:
            arguments["command"] = command
        result = self.executor().process(
            ToolCall(TOOL_NAME, arguments), ToolOutput(text, exit_code=0 if exit_code is None else exit_code)
        )
        return self._reduced_reply(result, result.content)

    def _reduced_reply(self, result: ToolResult, text: str) -> Reply:
        red = result.reduction
        handle: str | None = getattr(red, "artifact", None) if red is not None else None
        if handle:
            text = _point_to_read_output(text, handle)
        return Reply([text if text.strip() else "(no output)"])

    # -- read_output

    def read_output(self, args: Mapping[str, Any]) -> Reply:
        _check_keys(args, ("handle", "lines", "head", "tail", "grep", "context", "ignore_case"))
        ident = _str_arg(args, "handle", required=True)
        assert ident is not None
        lines = _str_arg(args, "lines")
        head = _int_arg(args, "head", minimum=0)
        tail = _int_arg(args, "tail", minimum=0)
        pattern = _str_arg(args, "grep")
        chosen = [k for k, v in (("lines", lines), ("head", head), ("tail", tail), ("grep", pattern)) if v is not None]
        if len(chosen) > 1:
            raise ToolArgError(f"give at most one of lines, head, tail, grep (got {', '.join(chosen)})")
        context = _int_arg(args, "context", minimum=0)
        ignore_case = _bool_arg(args, "ignore_case")
        if pattern is None and (context is not None or ignore_case):
            raise ToolArgError("'context' and 'ignore_case' go with 'grep'")
        if context is not None and context > MAX_GREP_CONTEXT:
            raise ToolArgError(f"'context' is at most {MAX_GREP_CONTEXT}")
        if pattern == "":
            raise ToolArgError("'grep' is empty")
        start, end = parse_lines(lines) if lines is not None else (1, None)
        if head is not None:
            start, end = 1, head

        from tokenjuice.store.artifacts import Store, StoreError

        store = Store()
        try:
            try:
                aid = store.resolve(ident.strip().strip("'\"`"))
            except KeyError as exc:
                reason = exc.args[0] if exc.args else f"no artifact {ident!r}"
                raise ToolArgError(
                    f"{reason}; a handle is the 12-hex-digit id named in a run or reduce result"
                ) from None
            chunks = store.iter_bytes(aid)
            cap = self.max_read_chars
            if pattern is not None:
                text, matches, first, last, total, stopped = grep_lines(
                    chunks, pattern, context=context or 0, ignore_case=ignore_case, cap=cap
                )
                plural = "s" if matches != 1 else ""
                if stopped:
                    status = (
                        f"[{matches} matching line{plural} shown; {stopped} of {total:,}; narrow the pattern"
                        f" · handle {aid}]"
                    )
                elif matches:
                    status = f"[{matches} matching line{plural} of {total:,} · handle {aid}]"
                else:
                    status = f"[no line of {total:,} matches {pattern!r} · handle {aid}]"
            else:
                if tail is not None:
                    asked = f"tail {tail}"
                elif head is not None:
                    asked = f"head {head}"
                elif lines is not None:
                    asked = f"lines {lines.strip()}"
                else:
                    asked = "the output"
                text, first, last, total, cut = read_slice(chunks, start=start, end=end, tail=tail, cap=cap)
                status = _slice_status(aid, total, first, last, cut, asked, end, tail, cap)
        except StoreError as exc:
            return error_reply(str(exc))
        finally:
            store.close()
        return Reply([text, status] if text else [status])


def _state_timeout(text: str, note: str) -> str:
    """`exit 124 (timed out after 5s; killed)` as the first line, as `tokenjuice wrap` says it."""
    lines = text.split("\n")
    if f"[{note}]" in lines:
        # shell_tool's own marker at the end of the output: the first line says it now.
        del lines[len(lines) - 1 - lines[::-1].index(f"[{note}]")]
    if lines and lines[0] == f"exit {EXIT_TIMEOUT}":
        lines[0] = f"exit {EXIT_TIMEOUT} ({note})"
    else:
        lines.insert(0, f"exit {EXIT_TIMEOUT} ({note})")
    return "\n".join(lines)


def _point_to_read_output(text: str, handle: str) -> str:
    """Make the footer's pointer name this server's tool rather than the CLI."""
    body, nl, last = text.rpartition("\n")
    cli = f"full output: tokenjuice cat {handle}"
    mcp = f"full output: read_output handle={handle}"
    if cli in last:
        return f"{body}{nl}{last.replace(cli, mcp)}"
    if mcp in text:
        return text
    return f"{text}\n[{mcp}]"


def _slice_status(
    aid: str,
    total: int,
    first: int | None,
    last: int | None,
    cut: bool,
    asked: str,
    end: int | None,
    tail: int | None,
    cap: int,
) -> str:
    """The bracketed last block of a read: what was shown, and how to read on when cut."""
    if first is None or last is None:
        return f"[nothing in {asked}: the output has {total:,} line{'s' if total != 1 else ''} · handle {aid}]"
    shown = f"lines {first:,}-{last:,} of {total:,}"
    if not cut:
        return f"[{shown} · handle {aid}]"
    if tail is not None:
        how = f"read the rest with lines={max(1, total - tail + 1)}-{first - 1}"
    else:
        upto = min(end, total) if end is not None else total
        # last >= upto: a single over-long line was cut
        how = f"line {last} is longer than that" if last >= upto else f"read on with lines={last + 1}-{upto}"
    return f"[cut at {cap:,} characters: {shown}; {how} · handle {aid}]"
