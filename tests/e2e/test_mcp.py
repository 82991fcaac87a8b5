"""tokenjuice's MCP server inside each real host: the host starts `tokenjuice mcp` from
the configuration its own `mcp add` command writes, the scripted model calls `run`, then
`read_output` with the handle the first result names, then `run` on a failing command;
the test reads what the host passed back to the model for each call."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e import workspace
from tests.e2e.conftest import Homes
from tests.e2e.hosts import Host, base_env
from tests.e2e.judge import MAX_REDUCED_SHARE, results_of
from tests.e2e.scripted_model import Call, Script, ToolResult

pytestmark = pytest.mark.e2e

POINTER = re.compile(r"read_output handle=([0-9a-f]{12})\b")
ERROR_LINE = "src/net.c:42:7: error: unknown type name 'sockaddr'"


def read_back(results: list[ToolResult]) -> Call | None:
    m = POINTER.search(results[0].text)
    return Call.mcp("tokenjuice", "read_output", handle=m.group(1)) if m else None


def raw(command: str, cwd: Path) -> str:
    proc = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=base_env(cwd), capture_output=True, text=True, timeout=60, check=False
    )
    return proc.stdout + proc.stderr


def test_mcp_run_and_read_output(
    host: Host, homes: Homes, workspaces: Callable[[], Path], known_gap: Callable[[str, str], None]
) -> None:
    known_gap(host.name, "mcp")
    home, ws = homes.get(host, "mcp"), workspaces()
    script = Script(
        [
            Call.mcp("tokenjuice", "run", command="git log --stat"),
            read_back,
            Call.mcp("tokenjuice", "run", command="python3 build.py"),
        ]
    )
    session = host.run(script, home=home, cwd=ws)
    run, back, failing = (host.tool_text(r) for r in results_of(session, 3)[:3])
    full = raw("git log --stat", ws)
    problems = []
    # 1. run: the reduced text itself, with its pointer to read_output.
    if not all(workspace.subject(i) in run for i in (1, workspace.COMMITS)):
        problems.append(f"`run`: the model did not get the reduced output; it got {run[:400]!r}")
    elif len(run) > MAX_REDUCED_SHARE * len(full):
        problems.append(f"`run` did not reduce: {len(run)} of {len(full)} characters")
    elif not POINTER.search(run):
        problems.append(f"`run` named no read_output handle: {run[-300:]!r}")
    # 2. read_output: the stored output exactly, then a status line naming the handle.
    body, _, status = back.rstrip("\n").rpartition("\n")
    if body.rstrip("\n") != full.rstrip("\n") or "handle" not in status:
        problems.append(f"`read_output` is not the raw output and a status line: {back[:300]!r} … {back[-200:]!r}")
    # 3. a failing command through run: its exit code first, its error line kept.
    lines = failing.splitlines()
    if not lines or lines[0] != "exit 4" or ERROR_LINE not in lines:
        problems.append(f"`run` of a failing command lost its exit code or error line: {failing[:400]!r}")
    assert not problems, f"{host.name}:\n" + "\n".join(problems)
