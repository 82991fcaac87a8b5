"""The MCP server end to end: the SDK's own stdio client talks to a real server process."""

from __future__ import annotations

import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent

# Submodule imports only: this test package is itself named `mcp`, and tools that sort
# imports would otherwise take `from mcp import …` for first-party.

# Noise on stdout, then the failure; `exec 2>&1` makes the arrival order (and so the
# stored raw lines) deterministic.
N_NOISE = 600
NOISY_FAILING = (
    "exec 2>&1; "
    f'for i in $(seq 1 {N_NOISE}); do echo "[$i/{N_NOISE}] compiling src/module_$i.c ... ok"; done; '
    "echo \"src/main.c:42:7: error: 'frobnicate' undeclared (first use in this function)\" >&2; "
    'echo "make: *** [Makefile:12: all] Error 1" >&2; exit 2'
)
ERROR_LINE = "src/main.c:42:7: error: 'frobnicate' undeclared (first use in this function)\n"
RAW_LINES = [
    *(f"[{i}/{N_NOISE}] compiling src/module_{i}.c ... ok\n" for i in range(1, N_NOISE + 1)),
    ERROR_LINE,
    "make: *** [Makefile:12: all] Error 1\n",
]
FAKE_SECRET = "ghp_" + "Zq7" * 12  # matches the github-token detector; not a real token
# The facts of a result are in its text: the footer of a reduction, the status line of a read.
FOOTER = re.compile(
    r"^\[… ([\d,]+)(?: of ([\d,]+))? lines? omitted\b.*· full output: read_output handle=([0-9a-f]{12})\]$"
)
STATUS = re.compile(
    r"^\[(?:cut at [\d,]+ characters: )?lines ([\d,]+)-([\d,]+) of ([\d,]+)\b.*· handle ([0-9a-f]{12})\]$"
)

Session = Callable[[ClientSession], Awaitable[None]]


@asynccontextmanager
async def _connect(tmp_path: Path, *extra_args: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tokenjuice.mcp", *extra_args],
        env={
            "TOKENJUICE_HOME": str(tmp_path / "tjhome"),
            # The exact tokenizer costs a second of start-up and changes nothing here.
            "TOKENJUICE_TOKENIZER": "estimate",
            "SHELL": "/bin/sh",
        },
        cwd=str(tmp_path),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def _with_server(tmp_path: Path, body: Session, *extra_args: str) -> None:
    async def main() -> None:
        with anyio.fail_after(60):
            async with _connect(tmp_path, *extra_args) as session:
                await body(session)

    anyio.run(main)


def _texts(result: CallToolResult) -> list[str]:
    out = []
    for block in result.content:
        assert isinstance(block, TextContent)
        out.append(block.text)
    return out


def _num(text: str) -> int:
    return int(text.replace(",", ""))


def _footer(text: str) -> tuple[int, str]:
    """(lines omitted, handle) from a reduction's last line."""
    m = FOOTER.match(text.splitlines()[-1])
    assert m, f"no footer naming a handle: {text[-300:]!r}"
    return _num(m.group(1)), m.group(3)


def _total(text: str) -> int | None:
    """The total the footer counts the omitted lines of."""
    m = FOOTER.match(text.splitlines()[-1])
    return _num(m.group(2)) if m and m.group(2) else None


def _status(texts: list[str]) -> tuple[int, int, int, str]:
    """(first line, last line, total lines, handle) from a read's status line."""
    m = STATUS.match(texts[-1])
    assert m, f"no status line: {texts[-1]!r}"
    return _num(m.group(1)), _num(m.group(2)), _num(m.group(3)), m.group(4)


async def _call(session: ClientSession, name: str, args: dict[str, Any]) -> CallToolResult:
    result = await session.call_tool(name, args)
    assert isinstance(result, CallToolResult)
    # Text only: Claude Code and Codex show the model structured content instead of text.
    assert result.structured_content is None, result
    return result


# ------------------------------------------------------------------------ listing


def test_lists_three_tools_with_input_schemas_only(tmp_path: Path) -> None:
    async def body(session: ClientSession) -> None:
        listed = await session.list_tools()
        tools = {t.name: t for t in listed.tools}
        assert set(tools) == {"run", "read_output", "reduce"}

        run = tools["run"]
        assert run.input_schema["required"] == ["command"]
        assert set(run.input_schema["properties"]) == {"command", "cwd", "timeout_s"}
        assert run.input_schema["properties"]["timeout_s"]["type"] == "number"
        assert run.input_schema["additionalProperties"] is False
        assert run.description and "read_output" in run.description and "exit N" in run.description
        assert run.annotations is not None and run.annotations.read_only_hint is False

        read = tools["read_output"]
        assert read.input_schema["required"] == ["handle"]
        props = read.input_schema["properties"]
        assert set(props) == {"handle", "lines", "head", "tail", "grep", "context", "ignore_case"}
        assert props["head"]["type"] == props["tail"]["type"] == props["context"]["type"] == "integer"
        assert read.annotations is not None and read.annotations.read_only_hint is True

        reduce = tools["reduce"]
        assert reduce.input_schema["required"] == ["text"]
        assert set(reduce.input_schema["properties"]) == {"text", "command", "exit_code"}
        assert reduce.input_schema["properties"]["exit_code"]["type"] == "integer"
        for tool in tools.values():
            assert tool.input_schema["type"] == "object"
            # No output schema: a tool that declares one must return structured content.
            assert tool.output_schema is None

    _with_server(tmp_path, body)


# --------------------------------------------------------------- run + read back


def test_run_failing_noisy_command_then_read_back(tmp_path: Path) -> None:
    async def body(session: ClientSession) -> None:
        result = await _call(session, "run", {"command": NOISY_FAILING})
        assert result.is_error is False  # a failing command is a normal result
        (text,) = _texts(result)
        raw = "".join(RAW_LINES)
        assert text.splitlines()[0] == "exit 2"
        assert ERROR_LINE.strip() in text
        assert "Error 1" in text
        assert len(text) * 4 < len(raw), f"reduced {len(text)} chars of {len(raw)}"
        omitted, handle = _footer(text)
        # The raw lines shown plus what the footer counts is every raw line.
        assert _total(text) == len(RAW_LINES)
        shown = [line for line in text.splitlines()[1:-1] if line + "\n" in RAW_LINES]
        assert len(shown) + omitted == len(RAW_LINES)

        async def read(**args: Any) -> list[str]:
            res = await _call(session, "read_output", {"handle": handle, **args})
            assert res.is_error is False, _texts(res)
            return _texts(res)

        texts = await read(lines="100-105")
        assert texts[0] == "".join(RAW_LINES[99:105])
        assert texts[-1] == f"[lines 100-105 of {len(RAW_LINES)} · handle {handle}]"
        assert _status(texts) == (100, 105, len(RAW_LINES), handle)

        texts = await read(head=3)
        assert texts[0] == "".join(RAW_LINES[:3])
        assert _status(texts) == (1, 3, len(RAW_LINES), handle)

        texts = await read(tail=2)
        assert texts[0] == "".join(RAW_LINES[-2:])
        assert _status(texts) == (len(RAW_LINES) - 1, len(RAW_LINES), len(RAW_LINES), handle)

        texts = await read(lines="601")
        assert texts[0] == ERROR_LINE

        # A prefix of the handle works too, and the status names the whole one; the
        # whole output fits the default cap.
        texts = await read(handle=handle[:6])
        assert texts[0] == raw
        assert _status(texts) == (1, len(RAW_LINES), len(RAW_LINES), handle)

        texts = await read(grep=r"error:", context=1)
        n = len(RAW_LINES)
        assert texts[0] == (f"{n - 2}-{RAW_LINES[-3]}{n - 1}:{RAW_LINES[-2]}{n}-{RAW_LINES[-1]}")
        assert texts[-1] == f"[1 matching line of {n} · handle {handle}]"

        texts = await read(grep=r"module_(7|9)\.c")
        assert texts[0] == f"7:{RAW_LINES[6]}9:{RAW_LINES[8]}"
        assert texts[-1] == f"[2 matching lines of {n} · handle {handle}]"

        texts = await read(grep="FROBNICATE", ignore_case=True)
        assert texts[0] == f"{n - 1}:{ERROR_LINE}"

        texts = await read(grep="no such text anywhere")
        assert texts == [f"[no line of {n} matches 'no such text anywhere' · handle {handle}]"]

    _with_server(tmp_path, body)


def test_read_output_is_capped_and_says_how_to_go_on(tmp_path: Path) -> None:
    async def body(session: ClientSession) -> None:
        _, handle = _footer(_texts(await _call(session, "run", {"command": NOISY_FAILING}))[0])
        texts = _texts(await _call(session, "read_output", {"handle": handle, "lines": "1-400"}))
        assert len(texts[0]) <= 1000
        first, last, total, named = _status(texts)
        assert (first, total, named) == (1, len(RAW_LINES), handle) and last < 400
        assert texts[0] == "".join(RAW_LINES[:last])
        assert texts[-1].startswith("[cut at 1,000 characters: ")
        assert f"read on with lines={last + 1}-400" in texts[-1]

        texts = _texts(await _call(session, "read_output", {"handle": handle, "tail": 100}))
        first, last, total, named = _status(texts)
        assert last == total == len(RAW_LINES) and first > total - 100 + 1
        assert texts[0] == "".join(RAW_LINES[first - 1 :])
        assert f"read the rest with lines={total - 100 + 1}-{first - 1}" in texts[-1]

    _with_server(tmp_path, body, "--max-read-chars", "1000")


# ------------------------------------------------------------------------ errors


def test_read_output_errors_are_tool_errors(tmp_path: Path) -> None:
    async def body(session: ClientSession) -> None:
        res = await _call(session, "read_output", {"handle": "0123456789ab"})
        assert res.is_error is True
        assert "no artifact" in _texts(res)[0]

        res = await _call(session, "read_output", {"handle": "not-a-handle"})
        assert res.is_error is True and "not an artifact id" in _texts(res)[0]

        _, handle = _footer(_texts(await _call(session, "run", {"command": NOISY_FAILING}))[0])
        bad_args: list[tuple[dict[str, Any], str]] = [
            ({"head": 3, "tail": 3}, "at most one of"),
            ({"lines": "abc"}, "lines takes"),
            ({"lines": "9-3"}, "empty"),
            ({"grep": "("}, "invalid grep pattern"),
            ({"context": 2}, "go with 'grep'"),
            ({"head": -1}, "at least 0"),
            ({"pattern": "x"}, "unknown argument 'pattern'"),
        ]
        for args, message in bad_args:
            res = await _call(session, "read_output", {"handle": handle, **args})
            assert res.is_error is True, args
            assert message in _texts(res)[0], (args, _texts(res))

        res = await _call(session, "run", {"command": "true", "cwd": "no/such/dir"})
        assert res.is_error is True and "not a directory" in _texts(res)[0]
        res = await _call(session, "run", {"command": "true", "timeout_s": -1})
        assert res.is_error is True and "positive" in _texts(res)[0]

        # The server survived all of it.
        res = await _call(session, "run", {"command": "echo still here"})
        # Nothing dropped: the output whole, no footer, no handle.
        assert res.is_error is False and _texts(res) == ["still here\n"]

    _with_server(tmp_path, body)


def test_run_states_timeouts_and_silent_success(tmp_path: Path) -> None:
    async def body(session: ClientSession) -> None:
        res = await _call(session, "run", {"command": "echo started; sleep 30", "timeout_s": 0.5})
        assert res.is_error is False
        text = _texts(res)[0]
        assert text.splitlines() == ["exit 124 (timed out after 0.5s; killed)", "started"]

        res = await _call(session, "run", {"command": "true"})
        assert _texts(res) == ["(no output)"]
        res = await _call(session, "run", {"command": "echo quiet failure; exit 3"})
        assert _texts(res)[0].splitlines() == ["exit 3", "quiet failure"]

        sub = tmp_path / "sub"
        sub.mkdir()
        res = await _call(session, "run", {"command": "pwd", "cwd": "sub"})
        assert _texts(res)[0].strip() == str(sub)

    _with_server(tmp_path, body)


# ------------------------------------------------------------------------ reduce


def test_reduce_given_text(tmp_path: Path) -> None:
    text = "".join(RAW_LINES)

    async def body(session: ClientSession) -> None:
        res = await _call(session, "reduce", {"text": text, "exit_code": 2})
        assert res.is_error is False
        (generic,) = _texts(res)
        assert generic.splitlines()[0] == "exit 2"
        assert ERROR_LINE.strip() in generic
        assert len(generic) * 4 < len(text)
        _, handle = _footer(generic)
        back = await _call(session, "read_output", {"handle": handle, "lines": "598-602"})
        assert _texts(back)[0] == "".join(RAW_LINES[597:602])

        # The command chooses the rule: make's keeps other lines than the generic one.
        res = await _call(session, "reduce", {"text": text, "command": "make", "exit_code": 2})
        (reduced,) = _texts(res)
        assert ERROR_LINE.strip() in reduced and len(reduced) < len(text)
        assert reduced.splitlines()[1:-1] != generic.splitlines()[1:-1]

        small = await _call(session, "reduce", {"text": "all good\n"})
        assert _texts(small) == ["all good\n"]

    _with_server(tmp_path, body)


# ----------------------------------------------------------------------- secrets


def test_planted_secret_is_redacted_in_run_and_read_output(tmp_path: Path) -> None:
    command = (
        "exec 2>&1; "
        f'echo "export GITHUB_TOKEN={FAKE_SECRET}"; '
        f'for i in $(seq 1 {N_NOISE}); do echo "[$i/{N_NOISE}] step $i ... ok"; done; '
        f'echo "error: push rejected for token {FAKE_SECRET}"; exit 1'
    )

    async def body(session: ClientSession) -> None:
        res = await _call(session, "run", {"command": command})
        text = _texts(res)[0]
        assert FAKE_SECRET not in text
        assert "REDACTED" in text
        _, handle = _footer(text)
        for args in ({"head": 1}, {"grep": "token"}, {}):
            back = await _call(session, "read_output", {"handle": handle, **args})
            joined = "".join(_texts(back))
            assert FAKE_SECRET not in joined, args
            assert "REDACTED" in joined, args
        # Nothing on disk holds it either.
        for path in (tmp_path / "tjhome").rglob("*"):
            if path.is_file():
                assert FAKE_SECRET.encode() not in path.read_bytes(), path

    _with_server(tmp_path, body)


def test_secrets_in_the_command_line_are_kept_nowhere(tmp_path: Path) -> None:
    pw = "Hx7-kq2p_9Zw"
    # `:` ignores its arguments: the command line carries the secrets, the output does not.
    command = f": mysql -uroot -p{pw} app; : curl -u admin:{pw}x https://x; " + NOISY_FAILING

    async def body(session: ClientSession) -> None:
        res = await _call(session, "run", {"command": command})
        assert pw not in "".join(_texts(res))
        red = await _call(session, "reduce", {"text": "".join(RAW_LINES), "command": f"deploy --password {pw}y"})
        assert pw not in "".join(_texts(red))
        for path in (tmp_path / "tjhome").rglob("*"):
            if path.is_file():
                assert pw.encode() not in path.read_bytes(), path

    _with_server(tmp_path, body)


def test_unknown_tool_is_a_protocol_error(tmp_path: Path) -> None:
    async def body(session: ClientSession) -> None:
        with pytest.raises(MCPError, match="unknown tool"):
            await session.call_tool("nope", {})
        res = await _call(session, "reduce", {"text": "x\n", "command": "echo x"})
        assert _texts(res) == ["x\n"]  # still serving

    _with_server(tmp_path, body)


def test_concurrent_calls_each_get_their_own_result(tmp_path: Path) -> None:
    # Calls run in worker threads at once: each thread needs its own store connection.
    async def body(session: ClientSession) -> None:
        results: dict[int, CallToolResult] = {}

        async def one(i: int) -> None:
            cmd = f"exec 2>&1; sleep 0.2; seq 1 {1000 + i}; echo 'error: job {i} failed'; exit {i}"
            results[i] = await _call(session, "run", {"command": cmd})

        async with anyio.create_task_group() as tg:
            for i in range(1, 5):
                tg.start_soon(one, i)
        handles = set()
        for i, res in results.items():
            text = _texts(res)[0]
            assert text.splitlines()[0] == f"exit {i}"
            assert f"error: job {i} failed" in text
            _, handle = _footer(text)
            handles.add(handle)
            back = await _call(session, "read_output", {"handle": handle, "tail": 1})
            assert _texts(back)[0] == f"error: job {i} failed\n"
        assert len(handles) == 4

    _with_server(tmp_path, body)
