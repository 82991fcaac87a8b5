"""The executor: hooks, the tool, redaction, interceptors — sync and async."""

from __future__ import annotations

import asyncio
import inspect
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from tokenjuice import _log
from tokenjuice.redact import Redactor, default_redactor


class ToolCall:
    """One call an agent wants to make."""

    __slots__ = ("arguments", "call_id", "metadata", "session_id", "tool_name", "turn")

    def __init__(
        self,
        tool_name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        call_id: str | None = None,
        session_id: str | None = None,
        turn: int | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        self.tool_name = tool_name
        self.arguments: dict[str, Any] = dict(arguments or {})
        self.call_id = call_id
        self.session_id = session_id
        self.turn = turn
        self.metadata: dict[str, Any] = dict(metadata or {})

    def __repr__(self) -> str:
        return f"ToolCall({self.tool_name!r}, {self.arguments!r})"


class ToolOutput:
    """What a tool produced: its text, and its real exit status when it has one.

    A tool may return a plain string (treated as a successful output), a `ToolOutput`,
    or a mapping with `output`/`stdout`/`stderr`/`exit_code`/`is_error` keys.
    """

    __slots__ = ("exit_code", "is_error", "output", "stderr", "stdout")

    def __init__(
        self,
        output: str,
        *,
        exit_code: int | None = None,
        is_error: bool | None = None,
        stdout: str | None = None,
        stderr: str | None = None,
    ) -> None:
        self.output = output
        self.exit_code = exit_code
        self.is_error = bool(exit_code) if is_error is None else is_error
        self.stdout = stdout
        self.stderr = stderr

    @classmethod
    def coerce(cls, value: Any) -> ToolOutput:
        if isinstance(value, ToolOutput):
            return value
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, Mapping):
            stdout = value.get("stdout")
            stderr = value.get("stderr")
            out = value.get("output")
            if out is None:
                out = (stdout or "") + (
                    "" if not stderr else ("\n" if stdout and not stdout.endswith("\n") else "") + stderr
                )
            return cls(
                str(out), exit_code=value.get("exit_code"), is_error=value.get("is_error"), stdout=stdout, stderr=stderr
            )
        if isinstance(value, bytes):
            return cls(value.decode("utf-8", "replace"))
        return cls(str(value))


class Decision:
    """A `before_execute` hook's answer: allow (optionally with new arguments) or deny."""

    __slots__ = ("allow", "arguments", "reason")

    def __init__(self, allow: bool, reason: str = "", arguments: Mapping[str, Any] | None = None) -> None:
        self.allow = allow
        self.reason = reason
        self.arguments = dict(arguments) if arguments is not None else None

    @classmethod
    def deny(cls, reason: str) -> Decision:
        return cls(False, reason)

    @classmethod
    def approve(cls, arguments: Mapping[str, Any] | None = None) -> Decision:
        return cls(True, "", arguments)


class InterceptorContext:
    """What a result interceptor sees about the call it post-processes."""

    __slots__ = (
        "arguments",
        "bypass",
        "call",
        "exit_code",
        "is_error",
        "metadata",
        "raw_output",
        "redactions",
        "stderr",
        "stdout",
        "tool_name",
    )

    def __init__(
        self, call: ToolCall, out: ToolOutput, raw_output: str, bypass: bool, redactions: dict[str, int]
    ) -> None:
        self.call = call
        self.tool_name = call.tool_name
        self.arguments = call.arguments
        self.raw_output = raw_output  # after redaction
        self.stdout = out.stdout
        self.stderr = out.stderr
        self.is_error = out.is_error
        self.exit_code = out.exit_code
        self.bypass = bypass
        self.redactions = redactions
        self.metadata: dict[str, Any] = {}  # interceptors leave notes for later steps here


@runtime_checkable
class ToolResultInterceptor(Protocol):
    """Post-processes a tool's text. `order` sorts interceptors (lower runs first).

    `intercept` returns the new text, or None to leave it as it is. An interceptor may
    also define `async aintercept(ctx, text)`, used by `ToolExecutor.aexecute`.
    """

    order: int

    def intercept(self, ctx: InterceptorContext, text: str) -> str | None: ...


class ToolResult:
    """What the model gets back, plus what happened on the way."""

    __slots__ = (
        "call",
        "content",
        "denied",
        "duration_ms",
        "exit_code",
        "is_error",
        "metadata",
        "raw_output",
        "redactions",
    )

    def __init__(
        self,
        call: ToolCall,
        content: str,
        *,
        raw_output: str = "",
        exit_code: int | None = None,
        is_error: bool = False,
        denied: bool = False,
        duration_ms: float = 0.0,
        redactions: dict[str, int] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        self.call = call
        self.content = content
        self.raw_output = raw_output
        self.exit_code = exit_code
        self.is_error = is_error
        self.denied = denied
        self.duration_ms = duration_ms
        self.redactions = redactions or {}
        self.metadata = metadata or {}

    @property
    def reduction(self) -> Any:
        """The tokenjuice `Reduction` when the tokenjuice interceptor ran."""
        return self.metadata.get("tokenjuice")

    def __str__(self) -> str:
        return self.content

    def __repr__(self) -> str:
        return f"ToolResult({self.call.tool_name!r}, chars={len(self.content)}, exit_code={self.exit_code!r})"


BeforeExecuteHook = Callable[[ToolCall], "Decision | None"]
AfterExecuteHook = Callable[[ToolCall, ToolResult], None]
Tool = Callable[..., Any]


class ToolExecutor:
    """Runs tools through the pipeline. Reuse one executor: rules compile once."""

    def __init__(
        self,
        tools: Mapping[str, Tool] | None = None,
        *,
        interceptors: list[ToolResultInterceptor] | tuple[ToolResultInterceptor, ...] = (),
        before_execute: list[BeforeExecuteHook] | tuple[BeforeExecuteHook, ...] = (),
        after_execute: list[AfterExecuteHook] | tuple[AfterExecuteHook, ...] = (),
        redactor: Redactor | bool | None = None,
    ) -> None:
        self.tools: dict[str, Tool] = dict(tools or {})
        self.interceptors = sorted(interceptors, key=lambda i: getattr(i, "order", 0))
        self.before_execute = list(before_execute)
        self.after_execute = list(after_execute)
        self._redactor = redactor

    def register(self, name: str, fn: Tool) -> None:
        self.tools[name] = fn

    def add_interceptor(self, interceptor: ToolResultInterceptor) -> None:
        self.interceptors = sorted([*self.interceptors, interceptor], key=lambda i: getattr(i, "order", 0))

    # ---------------------------------------------------------------- steps

    def _redactor_or_none(self) -> Redactor | None:
        if self._redactor is False:
            return None
        if isinstance(self._redactor, Redactor):
            return self._redactor
        return default_redactor()

    def _before(self, call: ToolCall) -> ToolResult | None:
        for hook in self.before_execute:
            try:
                decision = hook(call)
            except Exception as exc:  # noqa: BLE001 - a broken hook must not block the agent
                _log.warn(f"before_execute hook {_name(hook)} failed: {exc!r}; ignored")
                continue
            if decision is None:
                continue
            if not decision.allow:
                reason = decision.reason or "denied by policy"
                return ToolResult(call, f"tool call denied: {reason}", is_error=True, denied=True)
            if decision.arguments is not None:
                call.arguments = decision.arguments
        return None

    def _tool(self, call: ToolCall) -> Tool:
        fn = self.tools.get(call.tool_name)
        if fn is None:
            raise KeyError(f"unknown tool {call.tool_name!r}")
        return fn

    @staticmethod
    def _error_output(exc: BaseException) -> ToolOutput:
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        return ToolOutput(text, exit_code=1, is_error=True)

    def _redact(self, out: ToolOutput) -> tuple[ToolOutput, str, dict[str, int]]:
        red = self._redactor_or_none()
        if red is None:
            return out, out.output, {}
        text, found = red.redact(out.output)
        if not found:
            return out, text, {}
        stdout = red.redact(out.stdout)[0] if out.stdout else out.stdout
        stderr = red.redact(out.stderr)[0] if out.stderr else out.stderr
        return (
            ToolOutput(text, exit_code=out.exit_code, is_error=out.is_error, stdout=stdout, stderr=stderr),
            text,
            found,
        )

    def _after(self, call: ToolCall, result: ToolResult) -> None:
        for hook in self.after_execute:
            try:
                hook(call, result)
            except Exception as exc:  # noqa: BLE001 - observability never changes the result
                _log.warn(f"after_execute hook {_name(hook)} failed: {exc!r}; ignored")

    def _finish(self, call: ToolCall, out: ToolOutput, ctx: InterceptorContext, text: str, t0: float) -> ToolResult:
        result = ToolResult(
            call,
            text,
            raw_output=ctx.raw_output,
            exit_code=out.exit_code,
            is_error=out.is_error,
            duration_ms=(time.perf_counter() - t0) * 1000,
            redactions=ctx.redactions,
            metadata=ctx.metadata,
        )
        self._after(call, result)
        return result

    # ----------------------------------------------------------------- sync

    def execute(
        self,
        tool_name: str | ToolCall,
        arguments: Mapping[str, Any] | None = None,
        *,
        bypass: bool = False,
        **call_kw: Any,
    ) -> ToolResult:
        call = tool_name if isinstance(tool_name, ToolCall) else ToolCall(tool_name, arguments, **call_kw)
        t0 = time.perf_counter()
        denied = self._before(call)
        if denied is not None:
            self._after(call, denied)
            return denied
        try:
            fn = self._tool(call)
            if inspect.iscoroutinefunction(fn):
                raise TypeError(f"tool {call.tool_name!r} is async: use aexecute()")
            value = fn(**call.arguments)
            if inspect.isawaitable(value):
                close = getattr(value, "close", None)
                if close is not None:
                    close()  # never awaited: close it rather than leak a warning
                raise TypeError(f"tool {call.tool_name!r} is async: use aexecute()")
            out = ToolOutput.coerce(value)
        except Exception as exc:  # noqa: BLE001 - the error is the tool's result
            out = self._error_output(exc)
        return self.process(call, out, bypass=bypass, _t0=t0)

    def process(self, call: ToolCall, output: Any, *, bypass: bool = False, _t0: float | None = None) -> ToolResult:
        """Run redaction, interceptors and after-hooks on an output obtained elsewhere."""
        t0 = _t0 if _t0 is not None else time.perf_counter()
        out, text, found = self._redact(ToolOutput.coerce(output))
        ctx = InterceptorContext(call, out, text, bypass, found)
        for icpt in self.interceptors:
            try:
                new = icpt.intercept(ctx, text)
            except Exception as exc:  # noqa: BLE001 - the agent keeps its output
                _log.warn(f"interceptor {_name(icpt)} failed: {exc!r}; passing its input on")
                continue
            if new is not None:
                text = new
        return self._finish(call, out, ctx, text, t0)

    # ---------------------------------------------------------------- async

    async def aexecute(
        self,
        tool_name: str | ToolCall,
        arguments: Mapping[str, Any] | None = None,
        *,
        bypass: bool = False,
        **call_kw: Any,
    ) -> ToolResult:
        call = tool_name if isinstance(tool_name, ToolCall) else ToolCall(tool_name, arguments, **call_kw)
        t0 = time.perf_counter()
        denied = self._before(call)
        if denied is not None:
            self._after(call, denied)
            return denied
        try:
            fn = self._tool(call)
            if inspect.iscoroutinefunction(fn):
                value = await fn(**call.arguments)
            else:
                value = await asyncio.to_thread(fn, **call.arguments)
                if inspect.isawaitable(value):
                    value = await value
            out = ToolOutput.coerce(value)
        except Exception as exc:  # noqa: BLE001 - the error is the tool's result
            out = self._error_output(exc)
        return await self.aprocess(call, out, bypass=bypass, _t0=t0)

    async def aprocess(
        self, call: ToolCall, output: Any, *, bypass: bool = False, _t0: float | None = None
    ) -> ToolResult:
        t0 = _t0 if _t0 is not None else time.perf_counter()
        out, text, found = self._redact(ToolOutput.coerce(output))
        ctx = InterceptorContext(call, out, text, bypass, found)
        for icpt in self.interceptors:
            try:
                ainter: Callable[[InterceptorContext, str], Awaitable[str | None]] | None = getattr(
                    icpt, "aintercept", None
                )
                new = await ainter(ctx, text) if ainter is not None else icpt.intercept(ctx, text)
            except Exception as exc:  # noqa: BLE001 - the agent keeps its output
                _log.warn(f"interceptor {_name(icpt)} failed: {exc!r}; passing its input on")
                continue
            if new is not None:
                text = new
        return self._finish(call, out, ctx, text, t0)


def _name(obj: object) -> str:
    return getattr(obj, "__qualname__", None) or type(obj).__name__
