"""The reduce-json protocol shared with the TypeScript tokenjuice.

Request: a tool-run object `{toolName, command, argv, cwd, stdout, stderr, combinedText,
exitCode, …}` or an envelope `{input: {...}, options: {...}}`. Response: the
`Reduction.to_dict()` object (`inlineText`, `previewText`, `facts`, `compaction`,
`stats`, `classification`, as the TypeScript `CompactResult`, plus tokenjuice's own
fields; docs/rules.md says what each means). Unknown fields are errors, so a typo never silently changes
what the model sees.
"""

from __future__ import annotations

import math

from tokenjuice.model import ToolRun

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

INPUT_FIELDS: dict[str, str] = {
    "toolName": "string",
    "toolCallId": "string",
    "runId": "string",
    "sessionId": "string",
    "command": "string",
    "argv": "strings",
    "args": "object",
    "cwd": "string",
    "partial": "boolean",
    "stdout": "string",
    "stderr": "string",
    "combinedText": "string",
    "exitCode": "integer",
    "startedAt": "number",
    "finishedAt": "number",
    "durationMs": "number",
    "metadata": "object",
    "interleave": "chunks",
}
OPTION_FIELDS: dict[str, str] = {
    "classifier": "string",
    "maxInlineChars": "positive",
    "maxInlineTokens": "positive",
    "densityThreshold": "number",
    "raw": "boolean",
    "noOmit": "boolean",
    "trace": "boolean",
    "recordStats": "boolean",
    "store": "boolean",
    "storeDir": "string",
    "cwd": "string",
}


class ProtocolError(ValueError):
    pass


class Request:
    __slots__ = ("options", "run")

    def __init__(self, run: ToolRun, options: dict[str, Any]) -> None:
        self.run = run
        self.options = options


def _check(value: Any, kind: str, where: str) -> None:
    ok = True
    if kind == "string":
        ok = (
            isinstance(value, str) and "\x00" not in value
            if where.endswith(("command", "cwd"))
            else (isinstance(value, str))
        )
    elif kind == "strings":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    elif kind == "object":
        ok = isinstance(value, dict)
    elif kind == "boolean":
        ok = isinstance(value, bool)
    elif kind == "integer":
        ok = (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()
        )
    elif kind == "number":
        # Python's json reads NaN and Infinity, which no threshold or duration can be.
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    elif kind == "positive":
        ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
    elif kind == "chunks":
        ok = isinstance(value, list) and all(
            isinstance(c, list) and len(c) == 2 and c[0] in (0, 1) and isinstance(c[1], int) and c[1] >= 0
            for c in value
        )
    if not ok:
        expected = {
            "strings": "an array of strings",
            "positive": "a positive integer",
            "chunks": "an array of [stream, length] pairs",
        }.get(kind, f"a {kind}")
        raise ProtocolError(f"{where} must be {expected}")


def _validate(obj: dict[str, Any], fields: dict[str, str], where: str) -> None:
    for key, value in obj.items():
        kind = fields.get(key)
        if kind is None:
            known = ", ".join(fields)
            raise ProtocolError(f"unknown field {where}.{key!r} (known: {known})")
        if value is None:
            continue
        _check(value, kind, f"{where}.{key}")


def parse_request(obj: Any) -> Request:
    """Validate a decoded reduce-json payload."""
    if not isinstance(obj, dict):
        raise ProtocolError("payload must be a JSON object")
    if "input" in obj and isinstance(obj.get("input"), dict):
        extra = set(obj) - {"input", "options"}
        if extra:
            raise ProtocolError(f"unknown field {sorted(extra)[0]!r} next to input/options")
        raw_input = obj["input"]
        options = obj.get("options") or {}
        if not isinstance(options, dict):
            raise ProtocolError("options must be an object")
        _validate(options, OPTION_FIELDS, "options")
    else:
        raw_input = obj
        options = {}
    _validate(raw_input, INPUT_FIELDS, "input")
    exit_code = raw_input.get("exitCode")
    run = ToolRun(
        tool_name=raw_input.get("toolName") or "exec",
        command=raw_input.get("command"),
        argv=raw_input.get("argv"),
        cwd=raw_input.get("cwd") or options.get("cwd"),
        stdout=raw_input.get("stdout"),
        stderr=raw_input.get("stderr"),
        combined=raw_input.get("combinedText"),
        exit_code=int(exit_code) if exit_code is not None else 0,
        duration_ms=raw_input.get("durationMs"),
        session_id=raw_input.get("sessionId"),
        metadata=raw_input.get("metadata"),
        interleave=[tuple(c) for c in raw_input["interleave"]] if raw_input.get("interleave") else None,
    )
    return Request(run, options)
