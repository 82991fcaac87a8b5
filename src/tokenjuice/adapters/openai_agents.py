"""OpenAI Agents SDK adapter: function tools whose output reaches the model redacted and reduced.

    from agents import Agent
    from tokenjuice.adapters.openai_agents import shell_tool, wrap_tools

    agent = Agent(name="dev", tools=wrap_tools([search, shell_tool()]))

`wrap_function_tool` returns a copy of a `FunctionTool` (same name, description,
parameter schema, strictness, guardrails, approval and timeout settings) whose
`on_invoke_tool` runs through a tokenjuice `ToolExecutor`: before-execute hooks (which
may deny the call or edit its arguments) → the original invoker (argument parsing,
the function, its `failure_error_function`) → secret redaction → interceptors
(tokenjuice reduction) → after-execute hooks. Text results (`str`, `ToolOutputText`,
text items of a structured list) are replaced by the reduced text; other results, and
every result of a tool with a declared output schema, pass through unchanged. An
exception the tool raises is raised again, as the SDK expects, after the executor's
hooks have seen it. Tools other than `FunctionTool` (hosted tools, MCP servers) are
left as they are by `wrap_tools`.

Requires the `openai-agents` extra.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from tokenjuice.adapters import _common
from tokenjuice.runtime import ToolCall, ToolExecutor, ToolOutput
from tokenjuice.runtime import shell_tool as _run_shell_command

try:
    from agents import FunctionTool, ToolOutputFileContent, ToolOutputImage, ToolOutputText, function_tool
    from agents.tool_context import ToolContext
except ImportError as _exc:  # pragma: no cover - exercised with the framework hidden
    raise _common.missing_extra(__name__, "the OpenAI Agents SDK (openai-agents)", "openai-agents", _exc) from _exc

__all__ = ["shell_tool", "wrap_function_tool", "wrap_tools"]

SHELL_DESCRIPTION = (
    "Run a shell command and return its output (stdout and stderr, in order) and exit status. "
    "Long output is condensed: errors, failures and the exit status are kept, and a "
    "`tokenjuice cat <id>` line tells how to read the full output."
)

Invoker = Callable[[ToolContext[Any], str], Awaitable[Any]]
T = TypeVar("T")

# Set on our invokers: (the original invoker, the executor, the direct-call fallback).
_WRAPPED_MARK = "__tokenjuice_wrapped__"
# The SDK calls this hook of an invoker when it copies a FunctionTool (e.g. for a tool
# namespace), so that the failure policy follows the copy.
_BIND_HOOK = "__agents_bind_function_tool__"


def wrap_function_tool(tool: FunctionTool, executor: ToolExecutor | None = None) -> FunctionTool:
    """A copy of `tool` run through `executor` (default: a shared executor with the
    tokenjuice interceptor). The tool is registered in the executor under its name; a
    tool of that name the executor already had raises ValueError. Wrapping a wrapped
    tool again with the same (or no) executor returns it unchanged."""
    return _wrap(tool, executor, None)


def _wrap(tool: FunctionTool, executor: ToolExecutor | None, direct: Callable[..., Any] | None) -> FunctionTool:
    marked = getattr(tool.on_invoke_tool, _WRAPPED_MARK, None)
    if marked is not None and (executor is None or executor is marked[1]):
        return tool
    ex = executor if executor is not None else _common.default_executor()
    # FunctionTool.__copy__ keeps every setting and rebinds the invoker to the copy.
    new = copy.copy(tool)
    inner = marked[0] if marked is not None else new.on_invoke_tool
    if marked is not None:
        bind = getattr(inner, _BIND_HOOK, None)
        inner = bind(new) if callable(bind) else inner
    if direct is None:
        direct = marked[2] if marked is not None else _direct(new.name, inner)
    _common.register(ex, new.name, direct)
    new.on_invoke_tool = _invoker(
        new.name, inner, ex, direct, typed=getattr(new, "output_json_schema", None) is not None
    )
    return new


def wrap_tools(tools: Iterable[T], executor: ToolExecutor | None = None) -> list[T | FunctionTool]:
    """`wrap_function_tool` for each `FunctionTool`, all with one executor; other tools unchanged."""
    ex = executor if executor is not None else _common.default_executor()
    return [wrap_function_tool(t, ex) if isinstance(t, FunctionTool) else t for t in tools]


def _invoker(name: str, inner: Invoker, executor: ToolExecutor, direct: Callable[..., Any], *, typed: bool) -> Invoker:
    async def on_invoke_tool(ctx: ToolContext[Any], input: str) -> Any:  # noqa: A002 - the SDK's name
        pending = _Pending(name, inner, ctx, input, typed=typed)
        call = ToolCall(
            name,
            pending.arguments,
            call_id=getattr(ctx, "tool_call_id", None),
            metadata={"adapter": "openai-agents"},
        )
        # A declared output schema means JSON for a program, not text to condense.
        result = await _common.aexecute(executor, call, pending, bypass=typed)
        if pending.error is not None:
            raise pending.error
        if not pending.done:
            # Denied by a before-execute hook (or the executor could not run the tool).
            return result.content
        if pending.text is None:
            return pending.value
        return _with_text(pending.value, result.content)

    def bind(function_tool: FunctionTool) -> Invoker:
        hook = getattr(inner, _BIND_HOOK, None)
        return _invoker(name, hook(function_tool) if callable(hook) else inner, executor, direct, typed=typed)

    setattr(on_invoke_tool, _WRAPPED_MARK, (inner, executor, direct))
    setattr(on_invoke_tool, _BIND_HOOK, bind)
    return on_invoke_tool


def _direct(name: str, inner: Invoker) -> Callable[..., Awaitable[Any]]:
    """Serves `await executor.aexecute(name, arguments)` called directly, outside a run."""

    def call(**arguments: Any) -> Awaitable[Any]:
        raw = json.dumps(arguments)
        ctx: ToolContext[Any] = ToolContext(context=None, tool_name=name, tool_call_id="tokenjuice", tool_arguments=raw)
        return inner(ctx, raw)

    return call


class _Pending(_common.Pending):
    def __init__(self, name: str, inner: Invoker, ctx: ToolContext[Any], raw: str, *, typed: bool) -> None:
        super().__init__(name)
        self.inner = inner
        self.ctx = ctx
        self.raw = raw
        self.typed = typed
        self.arguments = _parse_arguments(raw)
        self.text: str | None = None

    def start(self, arguments: dict[str, Any]) -> Awaitable[ToolOutput]:
        # Unchanged by the hooks: the model's JSON exactly as it was sent.
        raw = self.raw if arguments == self.arguments else json.dumps(arguments)
        return self._run(raw)

    async def _run(self, raw: str) -> ToolOutput:
        try:
            value = await self.inner(self.ctx, raw)
        except Exception as exc:
            self.fail(exc)
            raise
        self.done = True
        self.value = value
        self.text = None if self.typed else _text_of(value)
        if self.text is None:
            return ToolOutput(str(value))
        if self.tool_output is not None:
            return self.tool_output
        return ToolOutput(self.text)


def _parse_arguments(raw: str) -> dict[str, Any]:
    try:
        parsed = json.loads(raw) if raw.strip() else {}
    except ValueError:
        parsed = None
    # Not a JSON object: the hooks see it as is; the tool reports the error itself.
    return parsed if isinstance(parsed, dict) else {"input": raw}


def _item_text(item: Any) -> str | None:
    if isinstance(item, ToolOutputText):
        return item.text
    if isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str):
        return str(item["text"])
    return None


def _is_structured(item: Any) -> bool:
    return isinstance(item, ToolOutputText | ToolOutputImage | ToolOutputFileContent) or (
        isinstance(item, dict) and "type" in item
    )


def _text_of(value: Any) -> str | None:
    """The text a result shows the model, or None when it has none to reduce."""
    if isinstance(value, str):
        return value
    text = _item_text(value)
    if text is not None:
        return text
    # The SDK sends a list as structured items only when every item is one.
    if isinstance(value, list | tuple) and value and all(_is_structured(i) for i in value):
        texts = [t for t in map(_item_text, value) if t is not None]
        if texts:
            return _common.join_texts(texts)
    return None


def _with_text(value: Any, text: str) -> Any:
    if isinstance(value, str):
        return text
    if isinstance(value, ToolOutputText):
        return value.model_copy(update={"text": text})
    if isinstance(value, dict):
        return {**value, "text": text}
    # A structured list: one text item where the first one was; images, files stay.
    out: list[Any] = []
    placed = False
    for item in value:
        if _item_text(item) is not None:
            if not placed:
                out.append(ToolOutputText(text=text))
                placed = True
            continue
        out.append(item)
    return out


async def _shell(command: str, cwd: str | None = None, timeout_s: float | None = None) -> str:
    """Run a shell command.

    Args:
        command: The command line to run, in POSIX shell syntax.
        cwd: Directory to run it in (default: the current one).
        timeout_s: Kill the command after this many seconds.
    """
    out = await asyncio.to_thread(_run_shell_command, command, cwd, timeout_s)
    # The exit status and the two streams go to the reducer; the model gets the text.
    _common.report_output(out)
    return out.output


def shell_tool(
    executor: ToolExecutor | None = None, *, name: str = "shell", description: str = SHELL_DESCRIPTION
) -> FunctionTool:
    """A ready shell `FunctionTool` (parameters `command`, `cwd`, `timeout_s`) whose exit
    status reaches the reducer, run through `executor` like `wrap_function_tool`."""
    inner = function_tool(_shell, name_override=name, description_override=description)
    return _wrap(inner, executor, _run_shell_command)
