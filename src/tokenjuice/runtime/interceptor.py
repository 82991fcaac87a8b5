"""The tokenjuice result interceptor: reduce a tool's output for the model."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from tokenjuice.model import ToolRun
from tokenjuice.reduction.engine import Reducer
from tokenjuice.runtime.executor import InterceptorContext

# Argument names under which agents pass a shell command to their tools.
COMMAND_KEYS = ("command", "cmd", "script", "shell_command", "commandLine", "command_line", "code")


class TokenjuiceInterceptor:
    """Reduces every tool result; the `Reduction` is left in `ctx.metadata["tokenjuice"]`."""

    def __init__(self, reducer: Reducer, *, order: int = 100, redact_command: bool = True) -> None:
        self.reducer = reducer
        self.order = order
        self.redact_command = redact_command

    def intercept(self, ctx: InterceptorContext, text: str) -> str | None:
        command = command_of(ctx.arguments)
        argv = _argv_of(ctx.arguments)
        found: dict[str, int] = dict(ctx.redactions)
        if self.redact_command and (command or argv):
            # The executor masked the output; the command line (which the store and the
            # ledger record) may carry a secret too. The tool itself ran with the real one.
            from tokenjuice.redact import default_redactor

            redactor = default_redactor()
            if redactor is not None:
                hits: dict[str, int] = {}
                if command:
                    command, hits = redactor.redact(command)
                if argv:
                    # One command line: a flag's value in the next argument is found too.
                    argv, more = redactor.redact_argv(argv)
                    hits = hits or more  # the same secrets: counted once
                for k, v in hits.items():
                    found[k] = found.get(k, 0) + v
        run = ToolRun(
            tool_name=ctx.tool_name if ctx.tool_name else "exec",
            command=command,
            argv=argv,
            cwd=_str(ctx.arguments.get("cwd")) or _str(ctx.arguments.get("workdir")),
            stdout=ctx.stdout,
            stderr=ctx.stderr,
            combined=text,
            exit_code=ctx.exit_code if ctx.exit_code is not None else (1 if ctx.is_error else 0),
            session_id=ctx.call.session_id or os.environ.get("TOKENJUICE_SESSION"),
            metadata={"turn": ctx.call.turn} if ctx.call.turn is not None else None,
        )
        if ctx.exit_code is None:
            run.exit_code = 1 if ctx.is_error else 0
        red = self.reducer.reduce_run(run, bypass=ctx.bypass)
        if found:
            red.redactions = found
        ctx.metadata["tokenjuice"] = red
        return red.text


def create_interceptor(
    rules: Any = None,
    density: float | None = None,
    max_inline_chars: int | None = None,
    *,
    max_inline_tokens: int | None = None,
    cwd: str | None = None,
    store: bool | None = None,
    order: int = 100,
) -> TokenjuiceInterceptor:
    """The tokenjuice interceptor.

    `rules`: None for the usual layers (built-in, user, project), a `RuleSet`, or paths
    of extra rule files/directories layered over the built-in ones. `density`: the
    generic path's density threshold. The executor has already redacted secrets, so the
    reducer does not redact again.
    """
    from tokenjuice.rules.loader import RuleSet

    ruleset = rules if isinstance(rules, RuleSet) else (_load_extra(rules) if rules is not None else None)
    reducer = Reducer(
        cwd=cwd,
        rules=ruleset,
        density_threshold=density,
        max_inline_chars=max_inline_chars,
        max_inline_tokens=max_inline_tokens,
        store=store,
        redactor=False,
    )
    return TokenjuiceInterceptor(reducer, order=order)


def _load_extra(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> Any:
    from tokenjuice.rules.loader import load_layer_files, load_rules

    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    rs = load_rules(None, user=True, project=False)
    load_layer_files([os.fspath(p) for p in items], "project", rs)
    return rs


def command_of(arguments: dict[str, Any]) -> str | None:
    for key in COMMAND_KEYS:
        v = arguments.get(key)
        if isinstance(v, str) and v.strip():
            return v
        if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            import shlex

            return shlex.join(v)
    return None


def _argv_of(arguments: dict[str, Any]) -> list[str] | None:
    v = arguments.get("argv") or arguments.get("args")
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return v
    return None


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) and v else None
