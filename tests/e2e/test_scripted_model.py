"""The scripted model on its own (no host needed): each wire protocol's turn, from the
tool call to the final text, read back the way a client reads it."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.e2e.scripted_model import Call, Script, ScriptedModel, instance_of


def post(url: str, body: dict[str, Any]) -> tuple[str, str]:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.headers["content-type"], resp.read().decode()


def sse_data(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def test_anthropic_stream_asks_for_bash_then_ends_the_turn() -> None:
    tools = [{"name": "Bash", "input_schema": {}}]
    with ScriptedModel(Script(["git status"], final="All done.")) as model:
        kind, text = post(f"{model.url}/v1/messages", {"stream": True, "tools": tools, "messages": []})
        events = sse_data(text)
        assert kind == "text/event-stream"
        assert [e["type"] for e in events] == [
            "message_start", "content_block_start", "content_block_delta", "content_block_stop",
            "message_delta", "message_stop",
        ]  # fmt: skip
        start = events[1]["content_block"]
        assert (start["type"], start["name"]) == ("tool_use", "Bash")
        assert json.loads(events[2]["delta"]["partial_json"])["command"] == "git status"
        assert events[4]["delta"]["stop_reason"] == "tool_use"
        result = {"type": "tool_result", "tool_use_id": start["id"], "content": "clean", "is_error": True}
        messages = [{"role": "user", "content": [result]}]
        _, text = post(f"{model.url}/v1/messages", {"stream": False, "tools": tools, "messages": messages})
        final = json.loads(text)
        assert (final["stop_reason"], final["content"][0]["text"]) == ("end_turn", "All done.")
    [first, second] = model.recorder.exchanges
    assert first.answer == Call.shell("git status") and first.results == []
    assert [(r.call_id, r.text, r.is_error) for r in second.results] == [(start["id"], "clean", True)]


def test_responses_call_a_namespaced_mcp_tool() -> None:
    tools = [
        {"type": "function", "name": "exec_command"},
        {"type": "namespace", "name": "mcp__tokenjuice", "tools": [{"name": "run"}]},
    ]
    script = Script([Call.mcp("tokenjuice", "run", command="ls"), "pwd"])
    with ScriptedModel(script) as model:
        _, text = post(f"{model.url}/v1/responses", {"tools": tools, "input": []})
        item = next(e["item"] for e in sse_data(text) if e["type"] == "response.output_item.done")
        assert (item["namespace"], item["name"], json.loads(item["arguments"])) == (
            "mcp__tokenjuice",
            "run",
            {"command": "ls"},
        )
        done = [{"type": "function_call_output", "call_id": item["call_id"], "output": "a\nb"}]
        _, text = post(f"{model.url}/v1/responses", {"tools": tools, "input": done})
        item = next(e["item"] for e in sse_data(text) if e["type"] == "response.output_item.done")
        assert (item["name"], json.loads(item["arguments"])["cmd"]) == ("exec_command", "pwd")
    assert model.recorder.results()[0].text == "a\nb"


def test_gemini_side_request_for_json_gets_an_instance_of_its_schema() -> None:
    schema = {"type": "OBJECT", "properties": {"reason": {"type": "STRING"}, "score": {"type": "INTEGER"}}}
    body = {"contents": [], "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": schema}}
    with ScriptedModel(Script(["ls"])) as model:
        _, text = post(f"{model.url}/v1beta/models/m:generateContent", body)
    part = json.loads(text)["candidates"][0]["content"]["parts"][0]
    assert json.loads(part["text"]) == {"reason": "", "score": 1}
    assert model.recorder.turn_requests() == []


def test_gemini_turn_reads_function_responses() -> None:
    tools = [{"functionDeclarations": [{"name": "run_shell_command"}]}]
    with ScriptedModel(Script(["make", lambda results: f"echo {len(results)}"])) as model:
        url = f"{model.url}/v1beta/models/m:streamGenerateContent?alt=sse"
        _, text = post(url, {"tools": tools, "contents": []})
        call = sse_data(text)[0]["candidates"][0]["content"]["parts"][0]["functionCall"]
        assert (call["name"], call["args"]["command"]) == ("run_shell_command", "make")
        reply = {"functionResponse": {"id": "c1", "name": "run_shell_command", "response": {"output": "built"}}}
        contents = [{"role": "user", "parts": [reply]}]
        _, text = post(url, {"tools": tools, "contents": contents})
        call = sse_data(text)[0]["candidates"][0]["content"]["parts"][0]["functionCall"]
        assert call["args"]["command"] == "echo 1"
    assert model.recorder.results()[0].text == "built"


def test_a_tool_the_host_does_not_offer_ends_the_turn_and_is_recorded() -> None:
    with ScriptedModel(Script([Call.mcp("tokenjuice", "run", command="ls")])) as model:
        _, text = post(f"{model.url}/v1/messages", {"tools": [{"name": "Bash"}], "messages": []})
    assert json.loads(text)["stop_reason"] == "end_turn"
    assert model.recorder.errors == ["anthropic: no tool for mcp:tokenjuice:run among ['Bash']"]


@pytest.mark.parametrize(
    ("schema", "value"),
    [
        ({"type": "STRING", "enum": ["b", "a"]}, "b"),
        ({"type": "ARRAY", "items": {"type": "STRING"}}, []),
        ({"type": "object", "properties": {"ok": {"type": "boolean"}, "n": {"type": "number", "minimum": 3}}},
         {"ok": False, "n": 3}),
    ],
)  # fmt: skip
def test_instance_of(schema: dict[str, Any], value: object) -> None:
    assert instance_of(schema) == value
