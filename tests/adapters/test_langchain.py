"""The LangChain adapter, end to end with langchain-core and a scripted chat model."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool, ToolException, tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from tests.adapters._noisy import SECRET, Noisy, assert_full_output_kept, assert_reduced
from tokenjuice.adapters import _common
from tokenjuice.adapters.langchain import TokenjuiceTool, shell_tool, wrap_tool, wrap_tools
from tokenjuice.runtime import Decision, ToolCall, ToolExecutor, ToolResult, create_interceptor


class ScriptedChatModel(BaseChatModel):
    """Answers with the scripted messages in turn; records what it was sent."""

    script: list[AIMessage]
    received: list[list[BaseMessage]] = Field(default_factory=list)
    tools_seen: list[list[dict[str, Any]]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        self.tools_seen.append(kwargs.get("tools", []))
        return ChatResult(generations=[ChatGeneration(message=self.script[len(self.received) - 1])])


@tool
def weather(city: str) -> str:
    """Current weather for a city."""
    return f"It is sunny in {city}."


def _script(noisy: Noisy) -> list[AIMessage]:
    return [
        AIMessage(
            content="",
            tool_calls=[
                {"name": "shell", "args": {"command": noisy.command}, "id": "call_shell_1"},
                {"name": "weather", "args": {"city": "Paris"}, "id": "call_weather_1"},
            ],
        ),
        AIMessage(content="The job failed: the database refused the connection."),
    ]


def run_agent(model: BaseChatModel, tools: list[BaseTool], prompt: str) -> list[BaseMessage]:
    """The usual tool-calling loop: model, tools, model, … until no tool is called."""
    bound = model.bind_tools(tools)
    by_name = {t.name: t for t in tools}
    messages: list[BaseMessage] = [HumanMessage(prompt)]
    for _ in range(5):
        ai = bound.invoke(messages)
        assert isinstance(ai, AIMessage)
        messages.append(ai)
        if not ai.tool_calls:
            return messages
        messages.extend(by_name[call["name"]].invoke(call) for call in ai.tool_calls)
    raise AssertionError("the agent did not finish")


async def arun_agent(model: BaseChatModel, tools: list[BaseTool], prompt: str) -> list[BaseMessage]:
    bound = model.bind_tools(tools)
    by_name = {t.name: t for t in tools}
    messages: list[BaseMessage] = [HumanMessage(prompt)]
    for _ in range(5):
        ai = await bound.ainvoke(messages)
        assert isinstance(ai, AIMessage)
        messages.append(ai)
        if not ai.tool_calls:
            return messages
        messages.extend(await asyncio.gather(*(by_name[c["name"]].ainvoke(c) for c in ai.tool_calls)))
    raise AssertionError("the agent did not finish")


@pytest.fixture
def executor() -> ToolExecutor:
    return ToolExecutor(interceptors=[create_interceptor()])


@pytest.fixture
def noisy(tmp_path: Path) -> Noisy:
    return Noisy(tmp_path)


def _check_second_turn(model: ScriptedChatModel, noisy: Noisy) -> str:
    assert len(model.received) == 2
    sent = model.received[1]
    assert [type(m).__name__ for m in sent] == ["HumanMessage", "AIMessage", "ToolMessage", "ToolMessage"]
    shell_msg, weather_msg = sent[2], sent[3]
    assert isinstance(shell_msg, ToolMessage)
    assert isinstance(weather_msg, ToolMessage)
    assert shell_msg.tool_call_id == "call_shell_1"
    assert shell_msg.name == "shell"
    assert shell_msg.status == "error"  # exit 3
    assert isinstance(shell_msg.content, str)
    artifact = assert_reduced(shell_msg.content, noisy)
    # A plain string result passes unchanged.
    assert weather_msg.tool_call_id == "call_weather_1"
    assert weather_msg.content == "It is sunny in Paris."
    assert weather_msg.status == "success"
    return artifact


def test_agent_loop_sync(executor: ToolExecutor, noisy: Noisy) -> None:
    seen: list[ToolResult] = []
    executor.after_execute.append(lambda call, result: seen.append(result))
    model = ScriptedChatModel(script=_script(noisy))
    messages = run_agent(model, wrap_tools([shell_tool(), weather], executor), "Run the nightly job.")

    assert messages[-1].content == "The job failed: the database refused the connection."
    assert [t["function"]["name"] for t in model.tools_seen[0]] == ["shell", "weather"]
    artifact = _check_second_turn(model, noisy)
    # The executor saw the real exit code, and the raw output only ever redacted.
    shell_result = next(r for r in seen if r.call.tool_name == "shell")
    assert shell_result.exit_code == 3
    assert shell_result.call.call_id == "call_shell_1"
    assert shell_result.redactions == {"github-token": 1}
    assert SECRET not in shell_result.raw_output
    assert len(shell_result.raw_output) > noisy.raw_chars
    assert_full_output_kept(artifact)


def test_agent_loop_async(executor: ToolExecutor, noisy: Noisy) -> None:
    model = ScriptedChatModel(script=_script(noisy))
    tools = wrap_tools([shell_tool(), weather], executor)
    messages = asyncio.run(arun_agent(model, tools, "Run the nightly job."))
    assert messages[-1].content == "The job failed: the database refused the connection."
    _check_second_turn(model, noisy)


def test_schema_name_description_preserved(executor: ToolExecutor) -> None:
    class Lookup(BaseTool):
        name: str = "lookup"
        description: str = "Look a key up."
        return_direct: bool = True

        def _run(self, key: str, limit: int = 3) -> str:  # schema inferred from the signature
            return f"{key}:{limit}"

    for original in (weather, Lookup()):
        wrapped = wrap_tool(original, executor)
        assert isinstance(wrapped, TokenjuiceTool)
        assert wrapped.name == original.name
        assert wrapped.description == original.description
        assert wrapped.args == original.args
        assert wrapped.return_direct == original.return_direct
        assert convert_to_openai_tool(wrapped) == convert_to_openai_tool(original)
    assert wrap_tool(Lookup(), executor).invoke({"key": "k"}) == "k:3"


def test_plain_invoke_returns_reduced_text(executor: ToolExecutor, noisy: Noisy) -> None:
    sh = shell_tool(executor)
    assert_reduced(sh.invoke({"command": noisy.command}), noisy)
    assert_reduced(sh.invoke(noisy.command), noisy)  # a bare string for the single required argument
    assert sh.invoke({"command": "echo hello"}) == "hello\n"  # a small output comes back as it is
    assert wrap_tool(weather, executor).invoke({"city": "Oslo"}) == "It is sunny in Oslo."


def test_shell_args_and_exit_status(executor: ToolExecutor, tmp_path: Path) -> None:
    sh = shell_tool(executor)
    msg = sh.invoke({"type": "tool_call", "name": "shell", "args": {"command": "pwd", "cwd": str(tmp_path)}, "id": "c"})
    assert isinstance(msg, ToolMessage)
    assert msg.content == f"{tmp_path}\n"  # a small output comes back as it is
    assert msg.status == "success"
    msg = sh.invoke({"type": "tool_call", "name": "shell", "args": {"command": "exit 5"}, "id": "c2"})
    assert msg.content.startswith("exit 5")
    assert msg.status == "error"
    msg = sh.invoke(
        {"type": "tool_call", "name": "shell", "args": {"command": "sleep 5", "timeout_s": 0.3}, "id": "c3"}
    )
    assert "timed out" in msg.content


def test_handled_tool_error_is_an_error_message(executor: ToolExecutor) -> None:
    @tool
    def lookup(key: str) -> str:
        """Look a key up."""
        raise ToolException(f"no such key: {key}")

    lookup.handle_tool_error = True

    msg = wrap_tool(lookup, executor).invoke({"type": "tool_call", "name": "lookup", "args": {"key": "x"}, "id": "c1"})
    assert isinstance(msg, ToolMessage)
    assert msg.status == "error"
    assert msg.tool_call_id == "c1"
    assert "no such key: x" in msg.content


def test_unhandled_error_is_raised_after_the_hooks(executor: ToolExecutor) -> None:
    @tool
    def explode(key: str) -> str:
        """Always fails."""
        raise ValueError(f"bad key {key}")

    seen: list[ToolResult] = []
    executor.after_execute.append(lambda call, result: seen.append(result))
    wrapped = wrap_tool(explode, executor)
    with pytest.raises(ValueError, match="bad key a"):
        wrapped.invoke({"type": "tool_call", "name": "explode", "args": {"key": "a"}, "id": "c1"})
    with pytest.raises(ValueError, match="bad key b"):
        asyncio.run(wrapped.ainvoke({"key": "b"}))
    assert [r.is_error for r in seen] == [True, True]
    assert "ValueError: bad key a" in seen[0].content


def test_hooks_deny_and_edit_arguments(executor: ToolExecutor) -> None:
    calls: list[str] = []

    @tool
    def forecast(city: str) -> str:
        """Forecast for a city."""
        calls.append(city)
        return f"rain in {city}"

    def policy(call: ToolCall) -> Decision | None:
        if call.arguments.get("city") == "Atlantis":
            return Decision.deny("no such place")
        if call.arguments.get("city") == "paris":
            return Decision.approve({"city": "Paris"})
        return None

    executor.before_execute.append(policy)
    wrapped = wrap_tool(forecast, executor)
    denied = wrapped.invoke({"type": "tool_call", "name": "forecast", "args": {"city": "Atlantis"}, "id": "c1"})
    assert isinstance(denied, ToolMessage)
    assert denied.status == "error"
    assert denied.tool_call_id == "c1"
    assert denied.content == "tool call denied: no such place"
    assert wrapped.invoke({"city": "Atlantis"}) == "tool call denied: no such place"
    assert calls == []
    edited = asyncio.run(
        wrapped.ainvoke({"type": "tool_call", "name": "forecast", "args": {"city": "paris"}, "id": "c2"})
    )
    assert edited.content == "rain in Paris"
    assert calls == ["Paris"]


def test_artifact_and_content_blocks(executor: ToolExecutor) -> None:
    long_text = "\n".join(f"row {i}: value={i * 3}" for i in range(5000))

    @tool(response_format="content_and_artifact")
    def table(name: str) -> tuple[str, dict[str, int]]:
        """A big table."""
        return long_text, {"rows": 5000}

    @tool
    def page(url: str) -> list[dict[str, Any]]:
        """A page: text and an image."""
        return [
            {"type": "text", "text": long_text},
            {"type": "image", "url": "https://example.invalid/chart.png"},
        ]

    msg = wrap_tool(table, executor).invoke({"type": "tool_call", "name": "table", "args": {"name": "t"}, "id": "c1"})
    assert msg.artifact == {"rows": 5000}
    assert "tokenjuice cat" in msg.content
    assert len(msg.content) < len(long_text) / 10

    msg = wrap_tool(page, executor).invoke({"type": "tool_call", "name": "page", "args": {"url": "u"}, "id": "c2"})
    assert isinstance(msg.content, list)
    assert [b["type"] for b in msg.content] == ["text", "image"]
    assert "tokenjuice cat" in msg.content[0]["text"]
    assert msg.content[1]["url"] == "https://example.invalid/chart.png"


def test_wrapping_twice_and_name_clash(executor: ToolExecutor) -> None:
    wrapped = wrap_tool(weather, executor)
    assert wrap_tool(wrapped, executor) is wrapped
    assert wrap_tool(wrapped) is wrapped
    other = ToolExecutor(interceptors=[create_interceptor()])
    rewrapped = wrap_tool(wrapped, other)
    assert rewrapped.executor is other
    assert rewrapped.wrapped_tool is weather
    # A tool the user registered under the same name is never shadowed.
    mine = ToolExecutor()
    mine.register("weather", lambda city: "mine")
    with pytest.raises(ValueError, match="already has a tool named 'weather'"):
        wrap_tool(weather, mine)


def test_direct_executor_calls(executor: ToolExecutor, noisy: Noisy) -> None:
    wrap_tools([shell_tool(), weather], executor)
    assert executor.execute("weather", {"city": "Rome"}).content == "It is sunny in Rome."
    result = executor.execute("shell", {"command": noisy.command})
    assert result.exit_code == 3
    assert_reduced(result.content, noisy)


def test_default_executor_is_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_common, "_default", None)
    a, b = wrap_tool(weather), shell_tool()
    assert a.executor is b.executor is _common.default_executor()
    assert a.invoke({"city": "Lima"}) == "It is sunny in Lima."


def test_tools_called_from_worker_threads(executor: ToolExecutor, noisy: Noisy) -> None:
    # LangGraph's ToolNode runs the sync tool calls of one AIMessage in a thread pool.
    from concurrent.futures import ThreadPoolExecutor

    sh = shell_tool(executor)
    assert_reduced(sh.invoke({"command": noisy.command}), noisy)  # opens the store in this thread
    with ThreadPoolExecutor(2) as pool:
        texts = list(pool.map(lambda _: sh.invoke({"command": noisy.command}), range(2)))
    for text in texts:
        assert_reduced(text, noisy)


def test_json_schema_tool(executor: ToolExecutor) -> None:
    # Tools described by a JSON schema dict (as MCP tools are) keep it as is.
    class Dump(BaseTool):
        name: str = "dump"
        description: str = "Dump a table."
        args_schema: dict[str, Any] = {  # noqa: RUF012 - pydantic field
            "type": "object",
            "properties": {"table": {"type": "string"}},
            "required": ["table"],
        }

        def _run(self, table: str) -> str:
            return "\n".join(f"{table} row {i}" for i in range(5000))

    original = Dump()
    wrapped = wrap_tool(original, executor)
    assert convert_to_openai_tool(wrapped) == convert_to_openai_tool(original)
    msg = wrapped.invoke({"type": "tool_call", "name": "dump", "args": {"table": "users"}, "id": "c1"})
    assert "users row 4999" in msg.content
    assert "tokenjuice cat" in msg.content
