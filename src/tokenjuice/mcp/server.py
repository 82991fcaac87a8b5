"""The MCP protocol side: the low-level SDK `Server`, its stdio transport and start-up.

Built on the official `mcp` SDK's low-level `Server`, so the input schemas the model
sees are exactly the ones in `schema`. The tools declare no output schema and return
text only (see `tools.Reply`), which the MCP specification allows: an output schema is
optional, and only a tool that declares one must return structured content.
Tool calls run in worker threads, concurrently.
"""

from __future__ import annotations

import threading
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
)

from tokenjuice import _log
from tokenjuice.mcp.schema import INSTRUCTIONS, tool_definitions
from tokenjuice.mcp.tools import (
    DEFAULT_MAX_READ_CHARS,
    DEFAULT_TIMEOUT_S,
    Reply,
    ToolArgError,
    Tools,
    error_reply,
)

SERVER_NAME = "tokenjuice"


def to_result(reply: Reply) -> CallToolResult:
    content: list[ContentBlock] = [TextContent(type="text", text=t) for t in reply.texts]
    return CallToolResult(content=content, is_error=reply.is_error)


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
        return to_result(reply)

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
    """`python -m tokenjuice.mcp [options]`: the same as `tokenjuice mcp`."""
    import argparse

    from tokenjuice.cli.commands import mcp as command
    from tokenjuice.cli.options import add_to

    parser = argparse.ArgumentParser(prog="python -m tokenjuice.mcp", description=command.HELP)
    add_to(parser, command.OPTIONS)
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
