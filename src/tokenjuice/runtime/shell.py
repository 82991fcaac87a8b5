"""A shell tool for agents: runs a command line and reports its real exit status."""

from __future__ import annotations

from tokenjuice.process import run_command
from tokenjuice.runtime.executor import ToolOutput


def shell_tool(command: str, cwd: str | None = None, timeout_s: float | None = None) -> ToolOutput:
    """Run `command` with the user's shell; stdout and stderr in arrival order."""
    cap = run_command([command], shell=True, cwd=cwd, timeout=timeout_s, stdin_devnull=True)
    run = cap.run
    text = run.combined
    note = run.metadata.get("exit_note")
    if note and not text.endswith(f"({note})\n"):
        text = f"{text}{'' if text.endswith(chr(10)) or not text else chr(10)}[{note}]\n"
    return ToolOutput(text, exit_code=cap.exit_code, stdout=run.stdout, stderr=run.stderr)
