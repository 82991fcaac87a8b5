"""Tool-execution pipeline for Python agents.

    executor = ToolExecutor(interceptors=[create_interceptor()])
    executor.register("shell", shell_tool)
    result = executor.execute("shell", {"command": "pytest -q"})
    result.content            # what the model sees

Order, for every call: `before_execute` hooks (approve, deny, audit) → the tool →
secret redaction → result interceptors, by `order` → `after_execute` hooks
(observability) → the result. An interceptor or hook that raises never costs the tool
result: the executor logs it and passes on the output as it was before that step.
"""

from __future__ import annotations

from tokenjuice.runtime.executor import (
    AfterExecuteHook,
    BeforeExecuteHook,
    Decision,
    InterceptorContext,
    ToolCall,
    ToolExecutor,
    ToolOutput,
    ToolResult,
    ToolResultInterceptor,
)
from tokenjuice.runtime.interceptor import TokenjuiceInterceptor, create_interceptor
from tokenjuice.runtime.shell import shell_tool

__all__ = [
    "AfterExecuteHook",
    "BeforeExecuteHook",
    "Decision",
    "InterceptorContext",
    "TokenjuiceInterceptor",
    "ToolCall",
    "ToolExecutor",
    "ToolOutput",
    "ToolResult",
    "ToolResultInterceptor",
    "create_interceptor",
    "shell_tool",
]
