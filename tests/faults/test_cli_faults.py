"""Input that is no number, JSON nested past any parser's depth, lines an MCP client
could not have meant: a clear answer every time, never exit 70, never silence."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.faults._util import TJ, assert_failed_open, assert_one_line_error, tj

NOISE = "for i in range(3000): print(f'Downloading package-{i}.tar.gz (12 kB)')\nprint('src/x.c:1: error: bad')\n"


@pytest.mark.parametrize("depth", [600, 2000, 100_000])
def test_reduce_json_nested_too_deeply_is_bad_input(depth: int, tmp_path: Path) -> None:
    payload = ("[" * depth + "]" * depth).encode()
    assert "nested too deeply" in assert_one_line_error(tj("reduce-json", home=tmp_path, stdin=payload))
    inside = b'{"command": "x", "combinedText": "a", "metadata": ' + payload + b"}"
    assert_one_line_error(tj("reduce-json", home=tmp_path, stdin=inside))


@pytest.mark.parametrize("field", ['"exitCode": NaN', '"durationMs": Infinity', '"exitCode": 1e400'])
def test_reduce_json_numbers_that_are_no_numbers_are_bad_input(field: str, tmp_path: Path) -> None:
    payload = f'{{"command": "x", "combinedText": "a", {field}}}'.encode()
    assert_one_line_error(tj("reduce-json", home=tmp_path, stdin=payload))


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_a_timeout_that_is_no_timeout_is_refused(value: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    p = tj("wrap", "--timeout", value, "--", "touch", str(marker), home=tmp_path)
    assert "--timeout must be a positive number of seconds" in assert_one_line_error(p)
    assert not marker.exists()  # refused before anything ran


def test_a_nan_density_threshold_is_refused(tmp_path: Path) -> None:
    assert_one_line_error(tj("wrap", "--density-threshold", "nan", "--", "true", home=tmp_path))
    assert_one_line_error(tj("reduce", "--density-threshold", "nan", home=tmp_path, stdin=b"x\n"))


@pytest.mark.parametrize(
    "env",
    [
        {"TOKENJUICE_STORE_MAX_MB": "nan"},
        {"TOKENJUICE_STORE_MAX_MB": "inf"},
        {"TOKENJUICE_STORE_MAX_MB": "-5"},
        {"TOKENJUICE_RETENTION_DAYS": "nan"},
    ],
)
def test_store_limits_that_are_no_numbers_fall_back_to_the_defaults(env: dict[str, str], tmp_path: Path) -> None:
    script = tmp_path / "noisy.py"
    script.write_text(NOISE + "raise SystemExit(3)\n")
    p = tj("wrap", "--", sys.executable, str(script), home=tmp_path, env=env)
    text = assert_failed_open(p, 3)
    # Reduced, and the raw output kept: not the fail-open path.
    assert "src/x.c:1: error: bad" in text and "full output: tokenjuice cat " in text
    aid = text.rsplit("tokenjuice cat ", 1)[1].split("]")[0]
    direct = subprocess.run([sys.executable, str(script)], capture_output=True).stdout
    assert tj("cat", aid, home=tmp_path, env=env).stdout == direct
    name, value = next(iter(env.items()))
    assert f"{name}={value!r} is not a non-negative number" in (tmp_path / "state" / "warnings.log").read_text()


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_prune_refuses_ages_that_are_no_numbers(value: str, tmp_path: Path) -> None:
    assert_one_line_error(tj("prune", "--older-than", value, home=tmp_path))


class _Client:
    """`tokenjuice mcp` over pipes, as an MCP client drives it."""

    def __init__(self, home: Path) -> None:
        env = dict(os.environ, TOKENJUICE_HOME=str(home))
        self.proc = subprocess.Popen(
            [*TJ, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        self.proc.stdin.flush()

    def reply(self, timeout: float = 30) -> dict[str, object]:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, "no reply: the client would wait forever"
        got = json.loads(self.proc.stdout.readline())
        assert isinstance(got, dict)
        return got

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=30)


def test_the_mcp_server_answers_lines_it_cannot_read(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    client = _Client(tmp_path)
    try:
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        client.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}))
        assert "result" in client.reply()
        client.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        client.send("this is not JSON")
        junk = client.reply()
        assert junk["id"] is None and junk["error"]["code"] == -32700  # type: ignore[index]
        call = (
            '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"reduce","arguments":{"text":"a\\udc80b"}}}'
        )
        client.send(call)
        lone = client.reply()
        assert lone["id"] == 7 and lone["error"]["code"] == -32700  # type: ignore[index]
        client.send(json.dumps({"jsonrpc": "2.0", "id": 8, "result": "not a request", "method": 5}))
        bad = client.reply()
        assert bad["id"] == 8 and bad["error"]["code"] == -32600  # type: ignore[index]
        client.send(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}))
        started = time.monotonic()
        listed = client.reply()
        assert listed["id"] == 9 and "result" in listed  # still serving
        assert time.monotonic() - started < 30
    finally:
        client.close()


def test_reduce_json_nested_within_the_limit_is_read(tmp_path: Path) -> None:
    """Nesting is refused at the same depth on every Python, and a payload within it is
    reduced as usual."""
    deep = "[" * 400 + "]" * 400
    payload = f'{{"command": "x", "combinedText": "a", "metadata": {{"deep": {deep}}}}}'.encode()
    p = tj("reduce-json", home=tmp_path, stdin=payload)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["inlineText"].endswith("a")
