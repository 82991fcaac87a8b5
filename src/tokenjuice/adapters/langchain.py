"""LangChain adapter: LangChain tools whose output reaches the model redacted and reduced.

    from tokenjuice.adapters.langchain import shell_tool, wrap_tools

    tools = wrap_tools([search, shell_tool()])   # one shared ToolExecutor
    model = ChatOpenAI(...).bind_tools(tools)

A wrapped tool (`TokenjuiceTool`) keeps the name, description, argument schema,
`return_direct` and `response_format` of the tool it wraps, and works with `invoke` /
`ainvoke` (plain arguments or a `{"type": "tool_call", ...}`) and the legacy
`run`/`arun`. Each call goes through the executor's pipeline: before-execute hooks (which
may deny it or edit its arguments) → the wrapped tool, run by LangChain as usual
(validation, callbacks, `handle_tool_error`, injected arguments) → secret redaction →
interceptors (tokenjuice reduction) → after-execute hooks. The `ToolMessage` keeps its
`tool_call_id`, `name` and `artifact`; its text content is replaced by the reduced text
and its status is "error" when the tool failed (non-zero exit, handled tool error,
denied call). Non-text results (images only, `Command` objects, dicts returned to a
plain `invoke`) pass through unchanged. An exception the wrapped tool raises is raised
again, as LangChain does, after the executor's hooks have seen it.

Requires the `langchain` extra (langchain-core).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from tokenjuice.adapters import _common
from tokenjuice.runtime import ToolCall, ToolExecutor, ToolOutput, ToolResult
from tokenjuice.runtime import shell_tool as _run_shell_command

try:
    from langchain_core.messages import ToolMessage
    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import BaseTool, StructuredTool
    from langchain_core.utils.pydantic import TypeBaseModel
    from pydantic import BaseModel, Field, PrivateAttr
except ImportError as _exc:  # pragma: no cover - exercised with the framework hidden
    raise _common.missing_extra(__name__, "langchain-core", "langchain", _exc) from _exc

__all__ = ["ShellArgs", "TokenjuiceTool", "shell_tool", "wrap_tool", "wrap_tools"]

SHELL_DESCRIPTION = (
    "Run a shell command and return its output (stdout and stderr, in order) and exit status. "
    "Long output is condensed: errors, failures and the exit status are kept, and a "
    "`tokenjuice cat <id>` line tells how to read the full output."
)


_COPIED_FIELDS = (
    "name",
    "description",
    "args_schema",
    "return_direct",
    "response_format",
    "handle_tool_error",
    "handle_validation_error",
    "tags",
    "metadata",
    "extras",
)


class TokenjuiceTool(BaseTool):
    """A LangChain tool run through a tokenjuice `ToolExecutor`; build it with `wrap_tool`."""

    wrapped_tool: BaseTool
    executor: ToolExecutor
    # What serves `executor.execute(name, ...)` called directly; kept for re-wrapping.
    _direct: Callable[..., Any] = PrivateAttr()

    # The schema, and so what the model is told, is the wrapped tool's, however it was
    # defined (args_schema, inferred from `_run`, injected arguments).
    @property
    def tool_call_schema(self) -> Any:
        return self.wrapped_tool.tool_call_schema

    def get_input_schema(self, config: RunnableConfig | None = None) -> TypeBaseModel:
        return self.wrapped_tool.get_input_schema(config)

    @functools.cached_property
    def _injected_args_keys(self) -> frozenset[str]:
        return self.wrapped_tool._injected_args_keys

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        return self.wrapped_tool._run(*args, **kwargs)

    async def _arun(self, *args: Any, **kwargs: Any) -> Any:
        return await self.wrapped_tool._arun(*args, **kwargs)

    # `invoke`/`ainvoke` end here, after LangChain has split a tool call into its input
    # and `tool_call_id`; the wrapped tool gets exactly the same arguments.
    def run(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        pending = _Pending(self.name, self.wrapped_tool, tool_input, args, kwargs, is_async=False)
        result = _common.execute(self.executor, self._call(pending, kwargs), pending)
        return self._finish(pending, result, kwargs.get("tool_call_id"))

    async def arun(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        pending = _Pending(self.name, self.wrapped_tool, tool_input, args, kwargs, is_async=True)
        result = await _common.aexecute(self.executor, self._call(pending, kwargs), pending)
        return self._finish(pending, result, kwargs.get("tool_call_id"))

    def _call(self, pending: _Pending, kwargs: dict[str, Any]) -> ToolCall:
        return ToolCall(
            self.name,
            pending.arguments,
            call_id=kwargs.get("tool_call_id"),
            metadata={"adapter": "langchain"},
        )

    def _finish(self, pending: _Pending, result: ToolResult, tool_call_id: str | None) -> Any:
        if pending.error is not None:
            raise pending.error
        if not pending.done:
            # Denied by a before-execute hook (or the executor could not run the tool):
            # the model gets the reason instead of a result.
            if tool_call_id is None:
                return result.content
            return ToolMessage(result.content, tool_call_id=tool_call_id, name=self.name, status="error")
        value = pending.value
        if pending.text is None:
            return value
        if isinstance(value, ToolMessage):
            status = "error" if result.is_error else value.status
            return value.model_copy(update={"content": _with_text(value.content, result.content), "status": status})
        return _with_text(value, result.content)


class _Pending(_common.Pending):
    def __init__(
        self,
        name: str,
        tool: BaseTool,
        tool_input: str | dict[str, Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        *,
        is_async: bool,
    ) -> None:
        super().__init__(name)
        self.tool = tool
        self.tool_input = tool_input
        self.args = args
        self.kwargs = kwargs
        self.is_async = is_async
        self.arguments = _arguments_of(tool, tool_input)
        self.text: str | None = None

    def start(self, arguments: dict[str, Any]) -> Any:
        tool_input = self._input_for(arguments)
        if self.is_async:
            return self._arun(tool_input)
        try:
            value = self.tool.run(tool_input, *self.args, **self.kwargs)
        except Exception as exc:
            self.fail(exc)
            raise
        return self._output(value)

    async def _arun(self, tool_input: str | dict[str, Any]) -> ToolOutput:
        try:
            value = await self.tool.arun(tool_input, *self.args, **self.kwargs)
        except Exception as exc:
            self.fail(exc)
            raise
        return self._output(value)

    def _input_for(self, arguments: dict[str, Any]) -> str | dict[str, Any]:
        # Unchanged by the hooks: the original input, injected objects and all.
        if arguments == self.arguments:
            return self.tool_input
        if isinstance(self.tool_input, str) and len(arguments) == 1:
            only = next(iter(arguments.values()))
            if isinstance(only, str):
                return only
        return arguments

    def _output(self, value: Any) -> ToolOutput:
        self.done = True
        self.value = value
        content = value.content if isinstance(value, ToolMessage) else value
        self.text = _text_of(content)
        if self.tool_output is not None and self.text is not None:
            return self.tool_output
        if self.text is None:
            # Passed through unchanged; the hooks still see what it was.
            return ToolOutput(str(content))
        failed = isinstance(value, ToolMessage) and value.status == "error"
        return ToolOutput(self.text, is_error=failed)


def _arguments_of(tool: BaseTool, tool_input: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(tool_input, dict):
        return dict(tool_input)
    # A single-input tool called with a bare string: name the argument, so that hooks
    # and the reducer see e.g. `{"command": "ls"}`.
    try:
        keys = [k for k in tool.args if k != "kwargs"]
    except Exception:  # noqa: BLE001 - a schema we cannot read only costs the name
        keys = []
    return {keys[0] if len(keys) == 1 else "input": tool_input}


def _is_text_block(block: Any) -> bool:
    return isinstance(block, str) or (
        isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)
    )


def _text_of(content: Any) -> str | None:
    """The text a result shows the model, or None when it has none to reduce."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [b if isinstance(b, str) else b["text"] for b in content if _is_text_block(b)]
        if texts:
            return _common.join_texts(texts)
    return None


def _with_text(content: Any, text: str) -> Any:
    if isinstance(content, str):
        return text
    # Content blocks: one text block where the first one was; images etc. stay.
    out: list[Any] = []
    placed = False
    for block in content:
        if _is_text_block(block):
            if not placed:
                out.append({"type": "text", "text": text})
                placed = True
            continue
        out.append(block)
    return out


def wrap_tool(tool: BaseTool, executor: ToolExecutor | None = None) -> TokenjuiceTool:
    """`tool`, run through `executor` (default: a shared executor with the tokenjuice
    interceptor). The tool is registered in the executor under its name; a tool of
    that name the executor already had raises ValueError. Wrapping a wrapped tool
    again with the same (or no) executor returns it unchanged."""
    if isinstance(tool, TokenjuiceTool):
        if executor is None or executor is tool.executor:
            return tool
        return _wrap(tool.wrapped_tool, executor, tool._direct)
    inner = tool

    def direct(**arguments: Any) -> Any:
        # `executor.execute(name, arguments)` called directly, outside LangChain.
        return inner.invoke(arguments)

    return _wrap(inner, executor, direct)


def _wrap(tool: BaseTool, executor: ToolExecutor | None, direct: Callable[..., Any]) -> TokenjuiceTool:
    ex = executor if executor is not None else _common.default_executor()
    _common.register(ex, tool.name, direct)
    # Copied for whoever inspects the tool (agents check `return_direct`, providers read
    # `extras`); fields an older langchain-core lacks are skipped.
    copied = {f: getattr(tool, f) for f in _COPIED_FIELDS if f in BaseTool.model_fields}
    wrapped = TokenjuiceTool(**copied, wrapped_tool=tool, executor=ex)
    wrapped._direct = direct
    return wrapped


def wrap_tools(tools: Iterable[BaseTool], executor: ToolExecutor | None = None) -> list[TokenjuiceTool]:
    """`wrap_tool` for each tool, all with one executor."""
    ex = executor if executor is not None else _common.default_executor()
    return [wrap_tool(t, ex) for t in tools]


class ShellArgs(BaseModel):
    """Arguments of the shell tool."""

    command: str = Field(description="The command line to run, in POSIX shell syntax.")
    cwd: str | None = Field(default=None, description="Directory to run it in (default: the current one).")
    timeout_s: float | None = Field(default=None, description="Kill the command after this many seconds.")


def _shell(command: str, cwd: str | None = None, timeout_s: float | None = None) -> str:
    out = _run_shell_command(command, cwd=cwd, timeout_s=timeout_s)
    # The exit status and the two streams go to the reducer; the model gets the text.
    _common.report_output(out)
    return out.output


def shell_tool(
    executor: ToolExecutor | None = None, *, name: str = "shell", description: str = SHELL_DESCRIPTION
) -> TokenjuiceTool:
    """A ready LangChain shell tool (arguments `command`, `cwd`, `timeout_s`) whose exit
    status reaches the reducer, run through `executor` like `wrap_tool`."""
    inner = StructuredTool.from_function(func=_shell, name=name, description=description, args_schema=ShellArgs)
    return _wrap(inner, executor, _run_shell_command)
