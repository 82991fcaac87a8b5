"""tokenjuice as an MCP server over stdio: tools `run`, `read_output` and `reduce`.

Built on the official `mcp` SDK's low-level `Server`, so the input schemas the model
sees are exactly the ones written here. The tools declare no output schema and return
text only (see `Reply`), which the MCP specification allows: an output schema is
optional, and only a tool that declares one must return structured content. Needs the `mcp` extra
(`pip install 'tokenjuice[mcp]'`); nothing else in tokenjuice imports this module.

Tool calls run in worker threads, concurrently. Each worker thread gets its own
`ToolExecutor` (and so its own reducer and artifact-store connection): SQLite
connections must stay in the thread that opened them.

Start it with `tokenjuice mcp` or `python -m tokenjuice.mcp_server`.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    ContentBlock,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)

from tokenjuice import _log
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

SERVER_NAME = "tokenjuice"
DEFAULT_TIMEOUT_S = 600.0
DEFAULT_MAX_READ_CHARS = 32_000
MAX_GREP_CONTEXT = 100
# A model-written regex must not pin a worker thread: the whole search gets this long.
GREP_BUDGET_S = 5.0
GREP_LINE_MAX = 2000  # characters of one grep result line
# `shell_tool` reports a timeout with exit status 124 (see tokenjuice.process).
EXIT_TIMEOUT = 124
TOOL_NAME = "exec"  # the tool name the reducer and the ledger see, as for `tokenjuice wrap`

INSTRUCTIONS = (
    "Run shell commands with the `run` tool: its output comes back reduced (noise dropped, errors, "
    "failures and summaries kept, secrets masked). When a result says lines were omitted, read them with "
    "`read_output` and the handle it names instead of running the command again."
)


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

    def to_result(self) -> CallToolResult:
        content: list[ContentBlock] = [TextContent(type="text", text=t) for t in self.texts]
        return CallToolResult(content=content, is_error=self.is_error)


def error_reply(message: str) -> Reply:
    return Reply([message], is_error=True)


# ---------------------------------------------------------------------- schemas


def tool_definitions(default_timeout_s: float, max_read_chars: int) -> list[Tool]:
    """The three tools as listed to the client (descriptions carry the live limits)."""
    run_schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "command": {
                "type": "string",
                "minLength": 1,
                "description": (
                    "The command line, run as `$SHELL -c COMMAND` (pipes, &&, redirections and globs work), "
                    'e.g. "pytest -q tests/unit" or "cd web && npm run build".'
                ),
            },
            "cwd": {
                "type": "string",
                "description": "Directory to run in: absolute, or relative to the server's working directory "
                "(the default).",
            },
            "timeout_s": {
                "type": "number",
                "exclusiveMinimum": 0,
                "description": f"Kill the command and its children after this many seconds "
                f"(default {default_timeout_s:g}). A timeout gives exit status 124 and says so.",
            },
        },
        "required": ["command"],
        "additionalProperties": False,
    }
    read_schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "handle": {
                "type": "string",
                "description": "The handle named by a run or reduce result: 12 hex digits (a unique prefix of "
                "at least 4 also works).",
            },
            "lines": {
                "type": "string",
                "description": 'Line range "A-B", 1-based and inclusive, e.g. "120-180"; "A-" reads to the '
                'end, "-B" from the start, "A" one line.',
            },
            "head": {"type": "integer", "minimum": 0, "description": "The first N lines."},
            "tail": {"type": "integer", "minimum": 0, "description": "The last N lines."},
            "grep": {
                "type": "string",
                "description": "Regular expression (Python syntax) searched line by line. Matching lines come "
                "back as `N:line`, context lines as `N-line`, groups divided by `--`; lines over "
                f"{GREP_LINE_MAX:,} characters are cut (read them whole with lines).",
            },
            "context": {
                "type": "integer",
                "minimum": 0,
                "maximum": MAX_GREP_CONTEXT,
                "description": "With grep: this many lines of context before and after each match (default 0).",
            },
            "ignore_case": {
                "type": "boolean",
                "description": "With grep: match regardless of case (default false).",
            },
        },
        "required": ["handle"],
        "additionalProperties": False,
    }
    reduce_schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "text": {
                "type": "string",
                "description": "The output to reduce (stdout and stderr as they were printed).",
            },
            "command": {
                "type": "string",
                "description": 'The command that produced it, e.g. "cargo build"; it chooses the reduction '
                "rule. Without it a generic reduction applies.",
            },
            "exit_code": {
                "type": "integer",
                "description": "Its exit status (default 0). Non-zero keeps failure detail and puts `exit N` first.",
            },
        },
        "required": ["text"],
        "additionalProperties": False,
    }
    return [
        Tool(
            name="run",
            title="Run a shell command (reduced output)",
            description=(
                "Run a shell command and get its output reduced for reading. Use it for builds, tests, linters, "
                "installs, git and logs: noise (progress, passing tests, repeated and boilerplate lines) is "
                "dropped; errors, warnings, failures and summaries are always kept; secrets are masked. Runs "
                "`$SHELL -c COMMAND` in `cwd` with empty stdin (nothing interactive) and kills it after "
                f"`timeout_s` seconds (default {default_timeout_s:g}).\n"
                "Result: the reduced output. Its first line is `exit N` when the command failed with status N "
                "(no such line: it exited 0; `exit 124 (timed out ...)`: the timeout killed it). A failing "
                "command is a normal result, not a tool error. When lines were dropped, the last line counts "
                "them and names a handle: call read_output with it to read the exact original lines (a range, "
                "head, tail or regex search) instead of running the command again."
            ),
            input_schema=run_schema,
            annotations=ToolAnnotations(
                title="Run a shell command",
                read_only_hint=False,
                destructive_hint=True,
                idempotent_hint=False,
                open_world_hint=True,
            ),
        ),
        Tool(
            name="read_output",
            title="Read stored original output",
            description=(
                "Read the exact original output behind a handle from run or reduce (including the lines the "
                "reduction dropped) without running anything again. Give the handle and at most one of: `lines` "
                '("A-B"), `head` (N), `tail` (N) or `grep` (regex, with optional `context` and `ignore_case`); '
                "with none, the output from its start. Lines come back verbatim (secrets stay masked) and are "
                "never reduced again; grep results are numbered `N:line` (match) and `N-line` (context). At most "
                f"{max_read_chars:,} characters per call; a last line in brackets says which lines were shown "
                "and how to read on. An unknown or expired handle is a tool error."
            ),
            input_schema=read_schema,
            annotations=ToolAnnotations(
                title="Read stored output", read_only_hint=True, idempotent_hint=True, open_world_hint=False
            ),
        ),
        Tool(
            name="reduce",
            title="Reduce given output",
            description=(
                "Reduce output you already have (a pasted log, another tool's result) the way run reduces "
                "command output: noise dropped, errors and failures kept, secrets masked. Give the text and, "
                "when known, the command that produced it and its exit code: they choose the rule. Returns the "
                "reduced text; when lines were dropped, its last line names a handle for read_output."
            ),
            input_schema=reduce_schema,
            annotations=ToolAnnotations(
                title="Reduce output",
                read_only_hint=False,
                destructive_hint=False,
                idempotent_hint=True,
                open_world_hint=False,
            ),
        ),
    ]


# ------------------------------------------------------------------- arguments


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
    """`"A-B"` → (A, B); `"A-"` → (A, None); `"-B"` → (1, B); `"A"` → (A, A)."""
    m = re.fullmatch(r"\s*(\d*)\s*(-?)\s*(\d*)\s*", spec)
    if m is None or not (m.group(1) or m.group(3)):
        raise ToolArgError(f'lines takes "A-B" (e.g. "120-180"), "A-", "-B" or "A", not {spec!r}')
    a, dash, b = m.groups()
    start = int(a) if a else 1
    end = int(b) if b else (None if dash else start)
    if start < 1 or (end is not None and end < start):
        raise ToolArgError(f"lines {spec!r} is empty or starts before line 1")
    return start, end


# ---------------------------------------------------------------- line reading


class _Taker:
    """Collects lines until the character cap; remembers what it left out."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.first: int | None = None
        self.last: int | None = None
        self.full = False

    def take(self, n: int, text: str) -> bool:
        """Add line `n`; False (and `full`) once it does not fit."""
        if self.full:
            return False
        if self.size + len(text) > self.cap:
            self.full = True
            if self.parts:
                return False
            # A single line longer than the cap: its start is better than nothing.
            text = text[: self.cap] + "…[line cut]\n"
        self.parts.append(text)
        self.size += len(text)
        if self.first is None:
            self.first = n
        self.last = n
        return not self.full

    def text(self) -> str:
        return "".join(self.parts)


def _decoded(chunks: Iterable[bytes]) -> Iterable[tuple[int, str]]:
    from tokenjuice.store.slicing import numbered

    for n, raw in numbered(chunks):
        yield n, raw.decode("utf-8", "replace")


def read_slice(
    chunks: Iterable[bytes],
    *,
    start: int = 1,
    end: int | None = None,
    tail: int | None = None,
    cap: int = DEFAULT_MAX_READ_CHARS,
) -> tuple[str, int | None, int | None, int, bool]:
    """(text, first shown, last shown, total lines, truncated) of lines start..end, or the last `tail`."""
    total = 0
    if tail is not None:
        window: deque[tuple[int, str]] = deque()
        size = 0
        for n, line in _decoded(chunks):
            total = n
            window.append((n, line))
            size += len(line)
            # Keep only what could still be returned: the last `tail` lines within the cap.
            while window and (len(window) > tail or (size > cap and len(window) > 1)):
                size -= len(window.popleft()[1])
        if not window or tail == 0:
            return "", None, None, total, False
        if size > cap:  # one line longer than the cap
            n, line = window[0]
            return line[:cap] + "…[line cut]\n", n, n, total, True
        first = window[0][0]
        return "".join(line for _, line in window), first, window[-1][0], total, first > max(1, total - tail + 1)
    taker = _Taker(cap)
    cut = False
    for n, line in _decoded(chunks):
        total = n
        if n < start or (end is not None and n > end):
            continue
        if not taker.take(n, line):
            cut = True
    return taker.text(), taker.first, taker.last, total, cut or taker.full


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
    import regex

    try:
        rx = regex.compile(pattern, regex.IGNORECASE if ignore_case else 0)
    except regex.error as exc:
        raise ToolArgError(f"invalid grep pattern {pattern!r}: {exc}") from None
    deadline = time.monotonic() + budget_s
    line_max = min(GREP_LINE_MAX, cap // 2)
    out: list[str] = []
    size = 0
    before: deque[tuple[int, str]] = deque(maxlen=context or None)
    after = 0
    last_printed = 0
    first: int | None = None
    matches = 0
    total = 0
    stopped: str | None = None

    def emit(n: int, sep: str, line: str) -> bool:
        nonlocal size, last_printed, first
        if len(line) > line_max:
            # A match inside a huge (minified, base64) line: its start; lines=N reads all of it.
            line = line[:line_max] + "…[line cut]"
        piece = f"{n}{sep}{line}\n"
        if size + len(piece) > cap:
            return False
        out.append(piece)
        size += len(piece)
        last_printed = n
        if first is None:
            first = n
        return True

    for n, raw in _decoded(chunks):
        total = n
        if stopped is not None:
            continue  # keep counting lines for the total
        line = raw[:-1] if raw.endswith("\n") else raw
        left = deadline - time.monotonic()
        try:
            hit = left > 0 and rx.search(line, timeout=left) is not None
        except TimeoutError:
            hit = False
            left = 0
        if left <= 0:
            stopped = f"search stopped at line {n}: the pattern took over {budget_s:g}s"
            continue
        if hit:
            pending = [(bn, "-", bl) for bn, bl in before]
            before.clear()
            group = [*pending, (n, ":", line)]
            # As in grep(1): `--` divides context groups; bare matches carry their numbers.
            if context and last_printed and group[0][0] > last_printed + 1:
                group.insert(0, (0, "", ""))
            ok = True
            for gn, sep, gl in group:
                if gn == 0:
                    if size + 3 > cap:
                        ok = False
                        break
                    out.append("--\n")
                    size += 3
                elif not emit(gn, sep, gl):
                    ok = False
                    break
            if not ok:
                stopped = f"cut at {cap:,} characters before line {n}"
                continue
            matches += 1
            after = context
        elif after > 0:
            if not emit(n, "-", line):
                stopped = f"cut at {cap:,} characters before line {n}"
                continue
            after -= 1
        elif context:
            before.append((n, line))
    return "".join(out), matches, first, (last_printed or None), total, stopped


# ------------------------------------------------------------------ the tools


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


# ---------------------------------------------------------------- the server


def build_server(tools: Tools | None = None) -> Server[Any]:
    """The low-level MCP server with the three tools."""
    from tokenjuice import __version__

    impl = tools or Tools()
    listing = tool_definitions(impl.default_timeout_s, impl.max_read_chars)
    handlers = impl.handlers()

    async def list_tools(ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None) -> ListToolsResult:
        return ListToolsResult(tools=listing)

    async def call_tool(ctx: ServerRequestContext[Any], params: CallToolRequestParams) -> CallToolResult:
        handler = handlers.get(params.name)
        if handler is None:
            # An unknown tool is a protocol error (the spec's choice), not a tool result.
            raise MCPError(INVALID_PARAMS, f"unknown tool {params.name!r}; tools: {', '.join(handlers)}")
        arguments = dict(params.arguments or {})
        try:
            reply = await anyio.to_thread.run_sync(handler, arguments)
        except ToolArgError as exc:
            reply = error_reply(str(exc))
        except Exception as exc:  # noqa: BLE001 - the model gets an error result; the server stays up
            _log.warn(f"mcp tool {params.name!r} failed: {type(exc).__name__}: {exc}")
            reply = error_reply(f"tokenjuice internal error in {params.name}: {type(exc).__name__}: {exc}")
        return reply.to_result()

    return Server(
        SERVER_NAME,
        version=__version__,
        title="tokenjuice",
        description="Run shell commands with reduced output; read back what was dropped.",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _warm_up() -> None:
    # An exact tokenizer (TOKENJUICE_TOKENIZER=o200k) is slow to load: pay it before the first call.
    from tokenjuice.tokens import counter

    try:
        counter().count("")
    except Exception as exc:  # noqa: BLE001 - counting falls back later by itself
        _log.debug(f"tokenizer warm-up skipped: {exc}")


class _AnswerUnreadable:
    """The transport's read stream, minus the lines it could not read.

    The SDK hands an unreadable line (not JSON, a lone `\\udXXX` escape, not a JSON-RPC
    message) to the server as an exception, and the server answers nothing: a client
    waiting for that request's reply would wait forever. Each one gets a JSON-RPC error
    here instead: -32700 (parse error) or -32600 (invalid request), with the request's
    id when the line still shows one, else null.
    """

    def __init__(self, inner: Any, write_stream: Any) -> None:
        self._inner = inner
        self._write = write_stream

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            reply = _error_message(item)
            if reply is not None:
                await self._write.send(reply)

    def __aiter__(self) -> _AnswerUnreadable:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _AnswerUnreadable:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _error_message(exc: Exception) -> Any:
    """The JSON-RPC error answering a line the transport could not read."""
    import json

    from mcp.shared.message import SessionMessage
    from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

    errors = getattr(exc, "errors", None)
    details = [d for d in (errors() if callable(errors) else []) if isinstance(d, dict)]
    first = details[0] if details else {}
    line = first.get("input")
    if isinstance(line, str) and not line.strip():
        return None  # a blank line is no message at all
    parsed: Any = None
    if first.get("type") == "json_invalid" and isinstance(line, str):
        try:
            parsed = json.loads(line)  # Python's parser takes the lone surrogates the SDK refuses
        except (ValueError, RecursionError):
            parsed = None
    else:  # valid JSON, no JSON-RPC message: some error quotes the whole object
        parsed = next((d["input"] for d in details if isinstance(d.get("input"), dict)), None)
    raw_id = parsed.get("id") if isinstance(parsed, dict) else None
    ident = raw_id if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) else None
    if first.get("type") == "json_invalid":
        code, why = PARSE_ERROR, f"Parse error: {first.get('msg', 'invalid JSON')}"
    else:
        code, why = INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message"
    _log.warn(f"mcp: unreadable message answered with error {code}: {why}")
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=ident, error=ErrorData(code=code, message=why)))


async def serve(tools: Tools | None = None) -> None:
    """Serve MCP on this process's stdin/stdout until the client disconnects."""
    server = build_server(tools)
    threading.Thread(target=_warm_up, name="tokenjuice-warm-up", daemon=True).start()
    async with stdio_server() as (read_stream, write_stream):
        reader = _AnswerUnreadable(read_stream, write_stream)
        await server.run(reader, write_stream, server.create_initialization_options())


def run_stdio(
    *, cwd: str | None = None, default_timeout_s: float | None = None, max_read_chars: int | None = None
) -> None:
    tools = Tools(
        cwd=cwd,
        default_timeout_s=DEFAULT_TIMEOUT_S if default_timeout_s is None else default_timeout_s,
        max_read_chars=DEFAULT_MAX_READ_CHARS if max_read_chars is None else max_read_chars,
    )
    anyio.run(serve, tools)


def main(argv: list[str] | None = None) -> int:
    """`python -m tokenjuice.mcp_server [options]`: the same as `tokenjuice mcp`."""
    import argparse

    from tokenjuice.cli.commands import mcp as command

    parser = argparse.ArgumentParser(prog="python -m tokenjuice.mcp_server", description=command.HELP)
    command.add_arguments(parser)
    args = parser.parse_args(argv)
    from tokenjuice.cli.main import EXIT_USAGE, UserError

    try:
        return command.run(args)
    except UserError as exc:
        import sys

        sys.stderr.write(f"tokenjuice: error: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
