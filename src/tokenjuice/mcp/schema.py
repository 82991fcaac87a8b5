"""The MCP tools as listed to the client: names, descriptions and input schemas.

The schemas are written out here, not derived from code, so what the model sees is
exactly this text; the descriptions carry the server's live limits.
"""

from __future__ import annotations

from typing import Any

from mcp.types import Tool, ToolAnnotations

from tokenjuice.mcp.tools import GREP_LINE_MAX, MAX_GREP_CONTEXT

INSTRUCTIONS = (
    "Run shell commands with the `run` tool: its output comes back reduced (noise dropped, errors, "
    "failures and summaries kept, secrets masked). When a result says lines were omitted, read them with "
    "`read_output` and the handle it names instead of running the command again."
)


def tool_definitions(default_timeout_s: float, max_read_chars: int) -> list[Tool]:
    """The three tools as listed to the client (descriptions carry the live limits)."""
    return [_run_tool(default_timeout_s), _read_tool(max_read_chars), _reduce_tool()]


def _run_tool(default_timeout_s: float) -> Tool:
    """`run`: a shell command, its output reduced."""
    run_schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "command": {
                "type": "string",
                "minLength": 1,
                "description": (
                    "The command line, run as `$SHELL -c COMMAND` (pipes, &&, redirections and globs work), "
                    'e.g. "pytest -q tests/unit" or "cd web && npm run build".'
                ),
            },
            "cwd": {
                "type": "string",
                "description": "Directory to run in: absolute, or relative to the server's working directory "
                "(the default).",
            },
            "timeout_s": {
                "type": "number",
                "exclusiveMinimum": 0,
                "description": f"Kill the command and its children after this many seconds "
                f"(default {default_timeout_s:g}). A timeout gives exit status 124 and says so.",
            },
        },
        "required": ["command"],
        "additionalProperties": False,
    }
    return Tool(
        name="run",
        title="Run a shell command (reduced output)",
        description=(
            "Run a shell command and get its output reduced for reading. Use it for builds, tests, linters, "
            "installs, git and logs: noise (progress, passing tests, repeated and boilerplate lines) is "
            "dropped; errors, warnings, failures and summaries are always kept; secrets are masked. Runs "
            "`$SHELL -c COMMAND` in `cwd` with empty stdin (nothing interactive) and kills it after "
            f"`timeout_s` seconds (default {default_timeout_s:g}).\n"
            "Result: the reduced output. Its first line is `exit N` when the command failed with status N "
            "(no such line: it exited 0; `exit 124 (timed out ...)`: the timeout killed it). A failing "
            "command is a normal result, not a tool error. When lines were dropped, the last line counts "
            "them and names a handle: call read_output with it to read the exact original lines (a range, "
            "head, tail or regex search) instead of running the command again."
        ),
        input_schema=run_schema,
        annotations=ToolAnnotations(
            title="Run a shell command",
            read_only_hint=False,
            destructive_hint=True,
            idempotent_hint=False,
            open_world_hint=True,
        ),
    )


def _read_tool(max_read_chars: int) -> Tool:
    """`read_output`: the original lines behind a handle."""
    read_schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "handle": {
                "type": "string",
                "description": "The handle named by a run or reduce result: 12 hex digits (a unique prefix of "
                "at least 4 also works).",
            },
            "lines": {
                "type": "string",
                "description": 'Line range "A-B", 1-based and inclusive, e.g. "120-180"; "A-" reads to the '
                'end, "-B" from the start, "A" one line.',
            },
            "head": {"type": "integer", "minimum": 0, "description": "The first N lines."},
            "tail": {"type": "integer", "minimum": 0, "description": "The last N lines."},
            "grep": {
                "type": "string",
                "description": "Regular expression (Python syntax) searched line by line. Matching lines come "
                "back as `N:line`, context lines as `N-line`, groups divided by `--`; lines over "
                f"{GREP_LINE_MAX:,} characters are cut (read them whole with lines).",
            },
            "context": {
                "type": "integer",
                "minimum": 0,
                "maximum": MAX_GREP_CONTEXT,
                "description": "With grep: this many lines of context before and after each match (default 0).",
            },
            "ignore_case": {
                "type": "boolean",
                "description": "With grep: match regardless of case (default false).",
            },
        },
        "required": ["handle"],
        "additionalProperties": False,
    }
    return Tool(
        name="read_output",
        title="Read stored original output",
        description=(
            "Read the exact original output behind a handle from run or reduce (including the lines the "
            "reduction dropped) without running anything again. Give the handle and at most one of: `lines` "
            '("A-B"), `head` (N), `tail` (N) or `grep` (regex, with optional `context` and `ignore_case`); '
            "with none, the output from its start. Lines come back verbatim (secrets stay masked) and are "
            "never reduced again; grep results are numbered `N:line` (match) and `N-line` (context). At most "
            f"{max_read_chars:,} characters per call; a last line in brackets says which lines were shown "
            "and how to read on. An unknown or expired handle is a tool error."
        ),
        input_schema=read_schema,
        annotations=ToolAnnotations(
            title="Read stored output", read_only_hint=True, idempotent_hint=True, open_world_hint=False
        ),
    )


def _reduce_tool() -> Tool:
    """`reduce`: output the caller already has."""
    reduce_schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "text": {
                "type": "string",
                "description": "The output to reduce (stdout and stderr as they were printed).",
            },
            "command": {
                "type": "string",
                "description": 'The command that produced it, e.g. "cargo build"; it chooses the reduction '
                "rule. Without it a generic reduction applies.",
            },
            "exit_code": {
                "type": "integer",
                "description": "Its exit status (default 0). Non-zero keeps failure detail and puts `exit N` first.",
            },
        },
        "required": ["text"],
        "additionalProperties": False,
    }
    return Tool(
        name="reduce",
        title="Reduce given output",
        description=(
            "Reduce output you already have (a pasted log, another tool's result) the way run reduces "
            "command output: noise dropped, errors and failures kept, secrets masked. Give the text and, "
            "when known, the command that produced it and its exit code: they choose the rule. Returns the "
            "reduced text; when lines were dropped, its last line names a handle for read_output."
        ),
        input_schema=reduce_schema,
        annotations=ToolAnnotations(
            title="Reduce output",
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=False,
        ),
    )
