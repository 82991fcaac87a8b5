"""The tool-execution pipeline: order of steps, failure isolation, sync and async, and the
tokenjuice interceptor on real command output."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from tokenjuice import _log
from tokenjuice.runtime import (
    Decision,
    InterceptorContext,
    ToolCall,
    ToolExecutor,
    ToolOutput,
    ToolResult,
    create_interceptor,
    shell_tool,
)

GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


class Recorder:
    """An interceptor that notes what it saw and tags the text."""

    def __init__(self, name: str, order: int, log: list[str]) -> None:
        self.name = name
        self.order = order
        self.log = log
        self.seen: list[InterceptorContext] = []

    def intercept(self, ctx: InterceptorContext, text: str) -> str | None:
        self.log.append(self.name)
        self.seen.append(ctx)
        return f"{text}<{self.name}>"


class Broken:
    order = 50

    def intercept(self, ctx: InterceptorContext, text: str) -> str | None:
        raise RuntimeError("interceptor bug")


def test_steps_run_in_order() -> None:
    log: list[str] = []

    def before(call: ToolCall) -> Decision | None:
        log.append("before")
        return None

    def tool(command: str) -> ToolOutput:
        log.append("tool")
        return ToolOutput(f"ran {command} with {GITHUB}", exit_code=3)

    def after(call: ToolCall, result: ToolResult) -> None:
        log.append("after")

    late, early = Recorder("late", 200, log), Recorder("early", 10, log)
    ex = ToolExecutor({"sh": tool}, interceptors=[late, early], before_execute=[before], after_execute=[after])
    result = ex.execute("sh", {"command": "make"})
    assert log == ["before", "tool", "early", "late", "after"]
    # Redaction happened before any interceptor saw the text.
    assert GITHUB not in early.seen[0].raw_output and "[REDACTED:github-token]" in early.seen[0].raw_output
    assert early.seen[0].exit_code == 3 and early.seen[0].is_error
    assert result.content.endswith("<early><late>")
    assert result.exit_code == 3 and result.redactions == {"github-token": 1}
    assert GITHUB not in result.raw_output


def test_deny_and_rewrite_arguments() -> None:
    calls: list[dict[str, Any]] = []

    def tool(**kw: Any) -> str:
        calls.append(kw)
        return "ok"

    def policy(call: ToolCall) -> Decision | None:
        if "rm -rf" in call.arguments["command"]:
            return Decision.deny("destructive")
        return Decision.approve({"command": call.arguments["command"] + " -q"})

    ex = ToolExecutor({"sh": tool}, before_execute=[policy])
    denied = ex.execute("sh", {"command": "rm -rf /"})
    assert denied.denied and denied.is_error and "destructive" in denied.content
    assert calls == []
    ex.execute("sh", {"command": "pytest"})
    assert calls == [{"command": "pytest -q"}]


def test_a_raising_interceptor_never_costs_the_result() -> None:
    warnings: list[str] = []
    _log.add_listener(warnings.append)
    try:
        ex = ToolExecutor({"sh": lambda: "precious output"}, interceptors=[Broken()], redactor=False)
        result = ex.execute("sh")
    finally:
        _log.remove_listener(warnings.append)
    assert result.content == "precious output"
    assert any("interceptor bug" in w for w in warnings)


def test_broken_hooks_are_ignored_and_tool_errors_become_results() -> None:
    def bad_before(call: ToolCall) -> Decision | None:
        raise ValueError("hook bug")

    def bad_after(call: ToolCall, result: ToolResult) -> None:
        raise ValueError("after bug")

    def failing_tool() -> str:
        raise OSError("disk gone")

    ex = ToolExecutor({"t": failing_tool}, before_execute=[bad_before], after_execute=[bad_after])
    result = ex.execute("t")
    assert result.is_error and result.exit_code == 1
    assert "OSError: disk gone" in result.content


def test_async_matches_sync() -> None:
    async def atool(command: str) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"stdout": "one\n", "stderr": "two\n", "exit_code": 2}

    log: list[str] = []
    ex = ToolExecutor({"a": atool, "s": lambda command: {"stdout": "one\n", "stderr": "two\n", "exit_code": 2}})
    ex.add_interceptor(Recorder("r", 1, log))
    ares = asyncio.run(ex.aexecute("a", {"command": "x"}))
    sres = ex.execute("s", {"command": "x"})
    assert ares.content == sres.content == "one\ntwo\n<r>"
    assert ares.exit_code == sres.exit_code == 2
    # Calling an async tool synchronously is reported as the tool's error, not raised.
    sync_of_async = ex.execute("a", {"command": "x"})
    assert sync_of_async.is_error and "use aexecute()" in sync_of_async.content


# ---------------------------------------------------------- tokenjuice interceptor


def _noisy_failing_command(tmp_path: Path) -> str:
    (tmp_path / "t.py").write_text(
        "import sys\n"
        "for i in range(1500):\n"
        "    print(f'tests/test_mod_{i}.py::test_case PASSED')\n"
        "print('tests/test_api.py::test_login FAILED')\n"
        "print('E   AssertionError: expected 200, got 500', file=sys.stderr)\n"
        "sys.exit(1)\n"
    )
    return f"{sys.executable} t.py"


def test_interceptor_reduces_a_real_shell_run(tmp_path: Path) -> None:
    ex = ToolExecutor({"shell": shell_tool}, interceptors=[create_interceptor(store=False)])
    result = ex.execute("shell", {"command": _noisy_failing_command(tmp_path), "cwd": str(tmp_path)})
    assert result.exit_code == 1
    assert result.content.startswith("exit 1\n")
    assert "tests/test_api.py::test_login FAILED" in result.content
    assert "AssertionError: expected 200, got 500" in result.content
    assert len(result.content) < len(result.raw_output) / 10
    red = result.reduction
    assert red is not None and red.raw_chars == len(result.raw_output)


def test_bypass_keeps_raw_output_but_states_the_exit(tmp_path: Path) -> None:
    ex = ToolExecutor({"shell": shell_tool}, interceptors=[create_interceptor(store=False)])
    result = ex.execute("shell", {"command": _noisy_failing_command(tmp_path), "cwd": str(tmp_path)}, bypass=True)
    assert result.content.startswith("exit 1\n")
    assert result.content.count("PASSED") == 1500


def test_create_interceptor_options(tmp_path: Path) -> None:
    rule = {
        "id": "acme/deploy",
        "family": "acme",
        "match": {"argv0": ["acme-deploy"]},
        "filters": {"skipPatterns": ["^uploading "]},
    }
    (tmp_path / "acme.json").write_text(json.dumps(rule))
    icpt = create_interceptor(rules=[str(tmp_path / "acme.json")], max_inline_chars=400, store=False)
    ex = ToolExecutor({"sh": lambda command: "\n".join([f"uploading part {i}" for i in range(50)] + ["done: v1.2"])})
    ex.add_interceptor(icpt)
    result = ex.execute("sh", {"command": "acme-deploy --prod"})
    assert result.reduction.rule_id == "acme/deploy"
    assert "uploading part" not in result.content and "done: v1.2" in result.content
    assert "50" in result.content  # the skipped lines are accounted for


def test_a_secret_in_the_command_line_is_not_recorded(tmp_path: Path) -> None:
    """The tool runs with the real command; the store and ledger only see it masked."""
    import os

    ex = ToolExecutor({"shell": shell_tool}, interceptors=[create_interceptor()])
    (tmp_path / "deploy.py").write_text("for i in range(3000):\n    print(f'step {i} of the deploy: ok')\nexit(1)\n")
    command = f"echo deploying; GH_TOKEN={GITHUB} {sys.executable} deploy.py"
    result = ex.execute("shell", {"command": command, "cwd": str(tmp_path)})
    assert result.exit_code == 1
    assert result.reduction.artifact is not None
    assert result.reduction.redactions.get("github-token") == 1
    state = Path(os.environ["TOKENJUICE_HOME"]) / "state"
    for path in state.rglob("*"):
        if path.is_file():
            assert GITHUB.encode() not in path.read_bytes(), path
