"""What the framework adapters share: the default executor and the hand-off of one call.

A wrapped tool runs through `ToolExecutor.execute`/`aexecute`, which look the tool up by
name and call it with the (possibly hook-edited) arguments only. The framework's
per-call state (config, tool-call id, run context) travels alongside in a context
variable: the adapter sets a `Pending` call, and the dispatcher registered under the
tool's name starts it. `asyncio.to_thread` and LangChain's executors copy the context,
so the hand-off also works when the executor runs the dispatcher in a worker thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from tokenjuice.runtime import ToolCall, ToolExecutor, ToolOutput, ToolResult, create_interceptor

# Marks the dispatchers this package registers, so that re-wrapping replaces them while
# a user's own tool of the same name is never silently shadowed.
_DISPATCHER_MARK = "__tokenjuice_dispatcher__"

_default: ToolExecutor | None = None
_default_lock = threading.Lock()


def missing_extra(module: str, framework: str, extra: str, exc: ImportError) -> ImportError:
    return ImportError(
        f"{module} needs {framework}, which is not installed ({exc}); "
        f"install it with: pip install 'tokenjuice[{extra}]'"
    )


def default_executor() -> ToolExecutor:
    """One shared executor with the tokenjuice interceptor, so rules compile once."""
    global _default
    with _default_lock:
        if _default is None:
            _default = ToolExecutor(interceptors=[create_interceptor()])
        return _default


class Pending:
    """One framework call waiting for the executor to run it (after its before-hooks).

    `start(arguments)` returns a `ToolOutput`, or an awaitable of one on the async path.
    A tool that knows its real exit status (the shell tools) reports it through
    `report_output`, which sets `tool_output`.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.started = False
        self.done = False
        self.value: Any = None
        self.error: Exception | None = None
        self.tool_output: ToolOutput | None = None

    def start(self, arguments: dict[str, Any]) -> Any:
        raise NotImplementedError

    def fail(self, exc: Exception) -> None:
        # Kept so that the adapter can re-raise it: frameworks decide what a raised
        # tool error means (retry, error message, interrupt), not the executor.
        self.error = exc


_current: ContextVar[Pending | None] = ContextVar("tokenjuice_adapter_call", default=None)


def report_output(out: ToolOutput) -> None:
    """Tell the call in progress what the tool really produced (exit code, streams)."""
    pending = _current.get()
    if pending is not None:
        pending.tool_output = out


def register(executor: ToolExecutor, name: str, fallback: Callable[..., Any]) -> None:
    """Register the dispatcher for `name`; `fallback` serves direct `executor.execute` calls."""
    existing = executor.tools.get(name)
    if existing is not None and not getattr(existing, _DISPATCHER_MARK, False):
        raise ValueError(
            f"the executor already has a tool named {name!r} that tokenjuice did not register; "
            "use another executor or rename one of the tools"
        )

    def dispatch(**arguments: Any) -> Any:
        pending = _current.get()
        if pending is not None and pending.name == name and not pending.started:
            pending.started = True
            return pending.start(arguments)
        return fallback(**arguments)

    setattr(dispatch, _DISPATCHER_MARK, True)
    dispatch.__qualname__ = f"tokenjuice_adapter_tool[{name}]"
    executor.register(name, dispatch)


def execute(executor: ToolExecutor, call: ToolCall, pending: Pending, *, bypass: bool = False) -> ToolResult:
    token = _current.set(pending)
    try:
        return executor.execute(call, bypass=bypass)
    finally:
        _current.reset(token)


async def aexecute(executor: ToolExecutor, call: ToolCall, pending: Pending, *, bypass: bool = False) -> ToolResult:
    token = _current.set(pending)
    try:
        return await executor.aexecute(call, bypass=bypass)
    finally:
        _current.reset(token)


def join_texts(texts: list[str]) -> str:
    return "\n".join(t.rstrip("\n") for t in texts) if len(texts) > 1 else texts[0]
