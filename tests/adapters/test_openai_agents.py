"""The OpenAI Agents SDK adapter, end to end with `Runner` and a scripted `Model`."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import (
    Agent,
    FunctionTool,
    ModelResponse,
    Runner,
    ToolOutputImage,
    ToolOutputText,
    Usage,
    UserError,
    WebSearchTool,
    function_tool,
    set_tracing_disabled,
)
from agents.models.interface import Model
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText
from pydantic import BaseModel

from tests.adapters._noisy import SECRET, Noisy, assert_full_output_kept, assert_reduced
from tokenjuice.adapters.openai_agents import shell_tool, wrap_function_tool, wrap_tools
from tokenjuice.runtime import Decision, ToolCall, ToolExecutor, ToolResult, create_interceptor

FINAL = "The job failed: the database refused the connection."


class ScriptedModel(Model):
    """Returns the scripted outputs in turn; records the input and tools of every call."""

    def __init__(self, script: list[list[Any]]) -> None:
        self.script = script
        self.inputs: list[list[dict[str, Any]]] = []
        self.tools: list[list[Any]] = []

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[Any],  # noqa: A002 - the interface's name
        model_settings: Any,
        tools: list[Any],
        output_schema: Any,
        handoffs: list[Any],
        tracing: Any,
        *,
        previous_response_id: str | None = None,
        conversation_id: str | None = None,
        prompt: Any = None,
    ) -> ModelResponse:
        self.inputs.append(copy.deepcopy(input) if isinstance(input, list) else [{"role": "user", "content": input}])
        self.tools.append(list(tools))
        return ModelResponse(output=self.script[len(self.inputs) - 1], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("the tests do not stream")


def function_call(call_id: str, name: str, **arguments: Any) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        arguments=json.dumps(arguments), call_id=call_id, name=name, type="function_call", id=f"fc_{call_id}"
    )


def final_message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id="msg_final",
        content=[ResponseOutputText(annotations=[], text=text, type="output_text")],
        role="assistant",
        status="completed",
        type="message",
    )


def outputs(model: ScriptedModel, turn: int = 1) -> dict[str, Any]:
    """The function_call_output items the model was sent on `turn`, by call id."""
    return {i["call_id"]: i["output"] for i in model.inputs[turn] if i.get("type") == "function_call_output"}


@function_tool
def weather(city: str) -> str:
    """Current weather for a city."""
    return f"It is sunny in {city}."


@pytest.fixture(autouse=True)
def _tracing_off() -> Iterator[None]:
    # Nothing is exported anywhere: no trace processor runs.
    set_tracing_disabled(True)
    yield
    set_tracing_disabled(False)


@pytest.fixture
def executor() -> ToolExecutor:
    return ToolExecutor(interceptors=[create_interceptor()])


@pytest.fixture
def noisy(tmp_path: Path) -> Noisy:
    return Noisy(tmp_path)


def _agent(model: ScriptedModel, tools: list[Any]) -> Agent[Any]:
    return Agent(name="dev", instructions="You run jobs.", model=model, tools=tools)


def _script(noisy: Noisy) -> list[list[Any]]:
    return [
        [
            function_call("call_shell_1", "shell", command=noisy.command, cwd=None, timeout_s=None),
            function_call("call_weather_1", "weather", city="Paris"),
        ],
        [final_message(FINAL)],
    ]


def _check_second_turn(model: ScriptedModel, noisy: Noisy) -> str:
    assert len(model.inputs) == 2
    sent = outputs(model)
    assert set(sent) == {"call_shell_1", "call_weather_1"}
    assert isinstance(sent["call_shell_1"], str)
    artifact = assert_reduced(sent["call_shell_1"], noisy)
    assert sent["call_weather_1"] == "It is sunny in Paris."
    return artifact


def test_agent_run_async(executor: ToolExecutor, noisy: Noisy) -> None:
    seen: list[ToolResult] = []
    executor.after_execute.append(lambda call, result: seen.append(result))
    model = ScriptedModel(_script(noisy))
    result = asyncio.run(Runner.run(_agent(model, wrap_tools([shell_tool(), weather], executor)), "Run the job."))

    assert result.final_output == FINAL
    artifact = _check_second_turn(model, noisy)
    shell_result = next(r for r in seen if r.call.tool_name == "shell")
    assert shell_result.exit_code == 3
    assert shell_result.call.call_id == "call_shell_1"
    assert shell_result.redactions == {"github-token": 1}
    assert SECRET not in shell_result.raw_output
    assert_full_output_kept(artifact)
    # The SDK's own record of the run holds the reduced text too.
    tool_outputs = [i.output for i in result.new_items if i.type == "tool_call_output_item"]
    assert any(isinstance(o, str) and o.startswith("exit 3\n") for o in tool_outputs)


def test_agent_run_sync(executor: ToolExecutor, noisy: Noisy) -> None:
    model = ScriptedModel(_script(noisy))
    result = Runner.run_sync(_agent(model, wrap_tools([shell_tool(), weather], executor)), "Run the job.")
    assert result.final_output == FINAL
    _check_second_turn(model, noisy)


def test_tool_definition_preserved(executor: ToolExecutor) -> None:
    @function_tool(strict_mode=False, timeout=30)
    async def lookup(key: str, limit: int = 3) -> str:
        """Look a key up."""
        return f"{key}:{limit}"

    for original in (weather, lookup):
        wrapped = wrap_function_tool(original, executor)
        assert wrapped is not original
        assert original.on_invoke_tool is not wrapped.on_invoke_tool
        for field in ("name", "description", "params_json_schema", "strict_json_schema", "timeout_seconds"):
            assert getattr(wrapped, field) == getattr(original, field), field
    model = ScriptedModel([[function_call("c1", "lookup", key="k")], [final_message("ok")]])
    Runner.run_sync(_agent(model, [wrap_function_tool(lookup, executor)]), "go")
    assert outputs(model) == {"c1": "k:3"}
    assert [(t.name, t.strict_json_schema) for t in model.tools[0]] == [("lookup", False)]


def test_structured_outputs(executor: ToolExecutor) -> None:
    long_text = "\n".join(f"row {i}: value={i * 3}" for i in range(5000))

    @function_tool
    def table(table_name: str) -> ToolOutputText:
        """A big table."""
        return ToolOutputText(text=long_text)

    @function_tool
    def page(url: str) -> list[Any]:
        """A page: text and an image."""
        return [ToolOutputText(text=long_text), ToolOutputImage(image_url="https://example.invalid/chart.png")]

    model = ScriptedModel(
        [[function_call("c1", "table", table_name="t"), function_call("c2", "page", url="u")], [final_message("ok")]]
    )
    Runner.run_sync(_agent(model, wrap_tools([table, page], executor)), "go")
    sent = outputs(model)
    assert [p["type"] for p in sent["c1"]] == ["input_text"]
    assert "tokenjuice cat" in sent["c1"][0]["text"]
    assert len(sent["c1"][0]["text"]) < len(long_text) / 10
    assert [p["type"] for p in sent["c2"]] == ["input_text", "input_image"]
    assert "tokenjuice cat" in sent["c2"][0]["text"]
    assert sent["c2"][1]["image_url"] == "https://example.invalid/chart.png"


def test_hooks_deny_and_edit_arguments(executor: ToolExecutor) -> None:
    calls: list[str] = []

    @function_tool
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
    model = ScriptedModel(
        [
            [function_call("c1", "forecast", city="Atlantis"), function_call("c2", "forecast", city="paris")],
            [final_message("ok")],
        ]
    )
    Runner.run_sync(_agent(model, [wrap_function_tool(forecast, executor)]), "go")
    assert outputs(model) == {"c1": "tool call denied: no such place", "c2": "rain in Paris"}
    assert calls == ["Paris"]


def test_tool_errors_follow_the_sdk(executor: ToolExecutor) -> None:
    seen: list[ToolResult] = []
    executor.after_execute.append(lambda call, result: seen.append(result))

    @function_tool
    def flaky(key: str) -> str:
        """Fails; the SDK's default failure function answers the model."""
        raise ValueError(f"bad key {key}")

    @function_tool(failure_error_function=None)
    def fatal(key: str) -> str:
        """Fails; with no failure function the run fails."""
        raise ValueError(f"fatal key {key}")

    model = ScriptedModel([[function_call("c1", "flaky", key="a")], [final_message("ok")]])
    Runner.run_sync(_agent(model, wrap_tools([flaky], executor)), "go")
    assert "error occurred while running the tool" in outputs(model)["c1"]

    model = ScriptedModel([[function_call("c2", "fatal", key="b")], [final_message("ok")]])
    with pytest.raises(UserError, match="fatal key b") as info:
        Runner.run_sync(_agent(model, wrap_tools([fatal], executor)), "go")
    assert isinstance(info.value.__cause__, ValueError)  # the tool's own exception, re-raised
    assert seen[-1].is_error
    assert "ValueError: fatal key b" in seen[-1].content


def test_wrap_tools_leaves_other_tools_and_wraps_once(executor: ToolExecutor) -> None:
    search = WebSearchTool()
    wrapped = wrap_tools([search, weather], executor)
    assert wrapped[0] is search
    assert isinstance(wrapped[1], FunctionTool)
    assert wrap_function_tool(wrapped[1], executor) is wrapped[1]
    assert wrap_function_tool(wrapped[1]) is wrapped[1]
    # A user's own tool of the same name is never shadowed.
    mine = ToolExecutor()
    mine.register("weather", lambda city: "mine")
    with pytest.raises(ValueError, match="already has a tool named 'weather'"):
        wrap_function_tool(weather, mine)


def test_copied_and_rewrapped_tools_still_reduce(executor: ToolExecutor, noisy: Noisy) -> None:
    sh = shell_tool(executor)
    copied = copy.copy(sh)  # what the SDK does for tool namespaces
    assert copied.on_invoke_tool is not sh.on_invoke_tool  # rebound to the copy
    other = ToolExecutor(interceptors=[create_interceptor()])
    rewrapped = wrap_function_tool(sh, other)
    for tool in (copied, rewrapped):
        model = ScriptedModel(
            [[function_call("c1", "shell", command=noisy.command, cwd=None, timeout_s=None)], [final_message("ok")]]
        )
        Runner.run_sync(_agent(model, [tool]), "go")
        assert_reduced(outputs(model)["c1"], noisy)


def test_direct_executor_calls(executor: ToolExecutor, noisy: Noisy) -> None:
    wrap_tools([shell_tool(), weather], executor)
    result = executor.execute("shell", {"command": noisy.command})
    assert result.exit_code == 3
    assert_reduced(result.content, noisy)
    assert asyncio.run(executor.aexecute("weather", {"city": "Rome"})).content == "It is sunny in Rome."


def test_hand_built_function_tool(executor: ToolExecutor) -> None:
    long_text = "\n".join(f"row {i}: value={i * 3}" for i in range(5000))
    received: list[str] = []

    async def invoke(ctx: Any, raw: str) -> str:
        received.append(raw)
        return long_text

    schema = {
        "type": "object",
        "properties": {"table": {"type": "string"}},
        "required": ["table"],
        "additionalProperties": False,
    }
    dump = wrap_function_tool(
        FunctionTool(name="dump", description="Dump a table.", params_json_schema=schema, on_invoke_tool=invoke),
        executor,
    )
    assert dump.params_json_schema == schema
    model = ScriptedModel([[function_call("c1", "dump", table="users")], [final_message("ok")]])
    Runner.run_sync(_agent(model, [dump]), "go")
    assert received == ['{"table": "users"}']  # the model's JSON, untouched
    text = outputs(model)["c1"]
    assert "row 4999: value=14997" in text
    assert "tokenjuice cat" in text
    assert len(text) < len(long_text) / 10


class Rows(BaseModel):
    rows: list[str]


def test_declared_output_schema_passes_through(executor: ToolExecutor) -> None:
    @function_tool(output_type=Rows)
    def rows(n: int) -> Rows:
        """Rows, as JSON for a program."""
        return Rows(rows=[f"row {i}" for i in range(n)])

    model = ScriptedModel([[function_call("c1", "rows", n=3000)], [final_message("ok")]])
    Runner.run_sync(_agent(model, [wrap_function_tool(rows, executor)]), "go")
    assert json.loads(outputs(model)["c1"]) == {"rows": [f"row {i}" for i in range(3000)]}
