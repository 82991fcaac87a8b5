"""A scripted stand-in for the model APIs the agent hosts talk to, on 127.0.0.1.

One HTTP server speaks enough of three wire protocols for a host to run a turn:

* Anthropic Messages (`POST /v1/messages`, Claude Code), streamed or not;
* OpenAI Responses (`POST /v1/responses`, Codex), streamed;
* Gemini `generateContent` / `streamGenerateContent` (Gemini CLI), SSE or JSON.

Each request that offers the tools of a turn is answered from a `Script`: the server
counts the tool results already in the conversation and asks for the next tool call
(a shell command, or an MCP tool), or ends the turn with a short text once the script
is done. The server keeps no conversation state of its own: everything follows from
the request, as with a real model. Requests that offer no tools (titles, routing,
summaries) get a short text. Every request is recorded, with the tool results it
carries, so a test asserts on exactly what the host sent back to the model.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class ToolResult:
    """One tool result as the host sent it back to the model."""

    call_id: str
    text: str
    # The host's own failure flag where its protocol has one (Anthropic `is_error`).
    is_error: bool | None = None


@dataclass(frozen=True)
class Call:
    """A tool call the model asks for: `shell` runs a command line; any other kind
    names a tool of an MCP server (`mcp:SERVER:TOOL`) with its arguments."""

    kind: str
    args: JSON

    @staticmethod
    def shell(command: str) -> Call:
        return Call("shell", {"command": command})

    @staticmethod
    def mcp(server: str, tool: str, **args: Any) -> Call:
        return Call(f"mcp:{server}:{tool}", dict(args))


# A step is a call, or a function of the results so far that returns one (None ends).
Step = Call | str | Callable[[list[ToolResult]], "Call | str | None"]


@dataclass
class Script:
    """What the model does in one turn: these calls in order, then `final` text."""

    steps: list[Step]
    final: str = "Done."

    def next_call(self, results: list[ToolResult]) -> Call | None:
        if len(results) >= len(self.steps):
            return None
        step = self.steps[len(results)]
        call = step(results) if callable(step) else step
        return Call.shell(call) if isinstance(call, str) else call


@dataclass
class Exchange:
    """One request to the model and what the server did with it."""

    api: str
    path: str
    body: JSON
    tools: list[str]
    results: list[ToolResult]
    answer: Call | None = None
    answered_text: str | None = None


@dataclass
class Recorder:
    script: Script = field(default_factory=lambda: Script([]))
    exchanges: list[Exchange] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def turn_requests(self) -> list[Exchange]:
        """The requests of the scripted turn (those that offered tools)."""
        with self.lock:
            return [e for e in self.exchanges if e.tools]

    def results(self) -> list[ToolResult]:
        """The tool results of the longest conversation the host sent."""
        turns = self.turn_requests()
        return max((e.results for e in turns), key=len, default=[])


# ------------------------------------------------------------------ tool names


def _tool_name(call: Call, tools: list[str]) -> str | None:
    """The name under which this host offers the tool for `call` (None: not offered)."""
    if call.kind == "shell":
        for name in ("Bash", "exec_command", "shell_command", "shell", "run_shell_command"):
            if name in tools:
                return name
        return None
    _, server, tool = call.kind.split(":", 2)
    # Hosts name MCP tools after their server: Claude Code `mcp__s__t`, Codex `t` in a
    # namespace `mcp__s` (read as `mcp__s__t`), Gemini CLI `mcp_s_t`.
    candidates = [f"mcp__{server}__{tool}", f"{server}__{tool}", f"mcp_{server}_{tool}", tool]
    for name in candidates:
        if name in tools:
            return name
    return None


def _shell_args(name: str, command: str) -> JSON:
    if name == "exec_command":
        # Wait for the command to finish rather than yielding a session to poll.
        return {"cmd": command, "yield_time_ms": 30000}
    if name == "shell":
        return {"command": ["bash", "-lc", command]}
    if name in ("Bash", "run_shell_command"):
        return {"command": command, "description": "scripted test command"}
    return {"command": command}


def _arguments(call: Call, name: str) -> JSON:
    return _shell_args(name, call.args["command"]) if call.kind == "shell" else dict(call.args)


# ------------------------------------------------------------ reading requests


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        # Content blocks (an MCP result's texts) are read one per line.
        return "\n".join(_text_of(c.get("text", c.get("content", ""))) if isinstance(c, dict) else "" for c in content)
    if isinstance(content, dict):
        return _text_of(content.get("text", ""))
    return ""


def _anthropic_read(body: JSON) -> tuple[list[str], list[ToolResult]]:
    tools = [t.get("name", "") for t in body.get("tools") or [] if isinstance(t, dict)]
    results = [
        ToolResult(str(block.get("tool_use_id")), _text_of(block.get("content")), bool(block.get("is_error", False)))
        for msg in body.get("messages") or []
        if msg.get("role") == "user" and isinstance(msg.get("content"), list)
        for block in msg["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]
    return tools, results


def _namespaced(tools: list[Any]) -> dict[str, tuple[str, str]]:
    """Tools offered inside a namespace (Codex groups an MCP server's tools so), by the
    name `_tool_name` looks for: `mcp__tokenjuice` + `run` -> `mcp__tokenjuice__run`."""
    found: dict[str, tuple[str, str]] = {}
    for t in tools:
        if isinstance(t, dict) and t.get("type") == "namespace":
            space = str(t.get("name", ""))
            for inner in t.get("tools") or []:
                if isinstance(inner, dict) and inner.get("name"):
                    joiner = "" if space.endswith("_") else "__"
                    found[f"{space}{joiner}{inner['name']}"] = (space, str(inner["name"]))
    return found


def _responses_tools(tools: list[Any]) -> Iterator[str]:
    yield from (str(t["name"]) for t in tools if isinstance(t, dict) and t.get("type") != "namespace" and t.get("name"))
    yield from _namespaced(tools)


def _responses_read(body: JSON) -> tuple[list[str], list[ToolResult]]:
    tools = list(_responses_tools(body.get("tools") or []))
    results = [
        ToolResult(str(item.get("call_id")), _text_of(item.get("output")))
        for item in body.get("input") or []
        if isinstance(item, dict) and item.get("type") in ("function_call_output", "custom_tool_call_output")
    ]
    return tools, results


def _gemini_read(body: JSON) -> tuple[list[str], list[ToolResult]]:
    tools = [
        str(decl.get("name"))
        for group in body.get("tools") or []
        if isinstance(group, dict)
        for decl in group.get("functionDeclarations") or []
        if isinstance(decl, dict)
    ]
    results = []
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            resp = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(resp, dict):
                payload = resp.get("response")
                text = payload.get("output", payload.get("error", "")) if isinstance(payload, dict) else payload
                text = text if isinstance(text, str) else json.dumps(payload, sort_keys=True)
                results.append(ToolResult(str(resp.get("id") or resp.get("name")), text))
    return tools, results


# ----------------------------------------------------------- writing answers


def instance_of(schema: Any) -> Any:
    """The plainest value a JSON schema accepts (side requests that want JSON back,
    such as Gemini CLI's model router, get one instead of prose)."""
    if not isinstance(schema, dict):
        return {}
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: instance_of(v) for k, v in props.items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    return ""


def _side_text(api: str, body: JSON) -> str:
    """The text answer to a request outside the scripted turn."""
    if api == "gemini":
        config = body.get("generationConfig") or {}
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        if schema is not None or config.get("responseMimeType") == "application/json":
            return json.dumps(instance_of(schema))
    return "OK."


def _sse(event: str | None, data: JSON) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def _anthropic_answer(n: int, model: str, call: Call | None, name: str | None, text: str, stream: bool) -> Any:
    usage = {"input_tokens": 10, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    if call is not None and name is not None:
        args = _arguments(call, name)
        block: JSON = {"type": "tool_use", "id": f"toolu_{n:04d}", "name": name, "input": args}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": text}
        stop = "end_turn"
    message = {
        "id": f"msg_{n:04d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [block],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }
    if not stream:
        return message
    start_block = {**block, "input": {}} if block["type"] == "tool_use" else {"type": "text", "text": ""}
    delta = (
        {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        if block["type"] == "tool_use"
        else {"type": "text_delta", "text": text}
    )
    return [
        _sse("message_start", {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}}),
        _sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start_block}),
        _sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        _sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        _sse(
            "message_delta",
            {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": usage},
        ),
        _sse("message_stop", {"type": "message_stop"}),
    ]


def _responses_answer(n: int, call: Call | None, name: str | None, text: str, tools: list[Any]) -> list[bytes]:
    if call is not None and name is not None:
        item: JSON = {
            "type": "function_call",
            "id": f"fc_{n:04d}",
            "call_id": f"call_{n:04d}",
            "name": name,
            "arguments": json.dumps(_arguments(call, name)),
            "status": "completed",
        }
        if name in (spaces := _namespaced(tools)):
            item["namespace"], item["name"] = spaces[name]
    else:
        item = {
            "type": "message",
            "id": f"msg_{n:04d}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 10,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 20,
    }
    rid = f"resp_{n:04d}"
    return [
        _sse("response.created", {"type": "response.created", "response": {"id": rid}}),
        _sse("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
        _sse("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        _sse("response.completed", {"type": "response.completed", "response": {"id": rid, "usage": usage}}),
    ]


def _gemini_answer(call: Call | None, name: str | None, text: str) -> JSON:
    if call is not None and name is not None:
        part: JSON = {"functionCall": {"name": name, "args": _arguments(call, name)}}
    else:
        part = {"text": text}
    return {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20},
    }


# ------------------------------------------------------------------- server


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def _body(self) -> JSON:
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def _json(self, data: Any, status: int = 200) -> None:
        out = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def _stream(self, events: list[bytes]) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("content-length", str(sum(len(e) for e in events)))
        self.end_headers()
        for event in events:
            self.wfile.write(event)
            self.wfile.flush()

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path.endswith("/models"):
            self._json({"data": [], "models": [], "has_more": False})
            return
        self._json({"error": {"type": "not_found_error", "message": f"no {path}"}}, 404)

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        body = self._body()
        rec = self.server.recorder
        if path.endswith(("/count_tokens", ":countTokens")):
            self._json({"input_tokens": 10, "totalTokens": 10})
            return
        if path.endswith("/messages"):
            api, (tools, results) = "anthropic", _anthropic_read(body)
        elif path.endswith("/responses"):
            api, (tools, results) = "responses", _responses_read(body)
        elif ":generateContent" in path or ":streamGenerateContent" in path:
            api, (tools, results) = "gemini", _gemini_read(body)
        else:
            with rec.lock:
                rec.errors.append(f"unexpected request: POST {self.path}")
            self._json({"error": {"type": "not_found_error", "message": f"no {path}"}}, 404)
            return
        ex = Exchange(api, self.path, body, tools, results)
        call = name = None
        text = _side_text(api, body)
        if tools:
            try:
                call = rec.script.next_call(results)
            except Exception as exc:  # noqa: BLE001 - a broken script must end the turn, not hang the host
                with rec.lock:
                    rec.errors.append(f"script step failed: {type(exc).__name__}: {exc}")
                call = None
            if call is not None:
                name = _tool_name(call, tools)
                if name is None:
                    with rec.lock:
                        rec.errors.append(f"{api}: no tool for {call.kind} among {sorted(tools)}")
                    call = None
            text = rec.script.final
        ex.answer = call
        ex.answered_text = None if call else text
        with rec.lock:
            n = len(rec.exchanges)
            rec.exchanges.append(ex)
        if api == "anthropic":
            answer = _anthropic_answer(n, str(body.get("model", "")), call, name, text, bool(body.get("stream")))
            self._stream(answer) if isinstance(answer, list) else self._json(answer)
        elif api == "responses":
            self._stream(_responses_answer(n, call, name, text, body.get("tools") or []))
        elif ":streamGenerateContent" in path:
            self._stream([f"data: {json.dumps(_gemini_answer(call, name, text))}\r\n\r\n".encode()])
        else:
            self._json(_gemini_answer(call, name, text))


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    recorder: Recorder


class ScriptedModel:
    """The server on a random port of 127.0.0.1, in a thread; `with` starts and stops it."""

    def __init__(self, script: Script) -> None:
        self.recorder = Recorder(script)
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.recorder = self.recorder
        self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-model", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> ScriptedModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)
