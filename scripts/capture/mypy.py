"""mypy: default, --pretty, colour, --strict on a large project, a syntax error, clean.

Signals: a rerun with `-O json`: every error/note's `path:line` and message, each error
code once, and the summary count.
"""

from __future__ import annotations

import json
import re
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import loc_sig_texts, python_project

CONTEXT_RE = re.compile(r"^(?:In (?:function|member|class) |At top level:)")
RULE = "lint/mypy"
FAMILY = "mypy"


def _signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    out = ws.sh("mypy " + " ".join([*args, "-O", "json"]) + " 2>/dev/null; true", cwd)
    sigs: list[Any] = []
    codes: set[str] = set()
    errors = 0
    files: set[str] = set()
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        if d.get("line", -1) < 0 and d["severity"] == "note" and CONTEXT_RE.match(d["message"]):
            continue  # --show-error-context headings: context for the findings, not findings
        loc = f"{d['file']}:{d['line']}" if d.get("line", -1) >= 0 else d["file"]
        sigs.append(sig("location", *loc_sig_texts(loc)))
        sigs.append(sig("message", f"{d['severity']}: {d['message'].splitlines()[0]}"))
        if d.get("code") and d["code"] not in codes:
            codes.add(d["code"])
            sigs.append(sig("code", f"[{d['code']}]"))
        if d["severity"] == "error":
            errors += 1
            files.add(d["file"])
    if errors:
        sigs.append(sig("summary", f"Found {errors} error{'s' if errors != 1 else ''} in {len(files)} file"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.pip_install("mypy")
    version = ws.version(["mypy", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "rerun with -O json: path:line and message of every error and note, each error code, the error count"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    base = ["--no-incremental", "--cache-dir=/dev/null"]
    for rel, content in python_project(8, seed=11).items():
        ws.write(f"small/{rel}", content)
    sigs = _signals(ws, [*base, "inventory"], "small")
    r = ws.run(["mypy", *base, "inventory"], "small")
    add("mypy-errors", r, sigs)
    r = ws.run(["mypy", *base, "--pretty", "inventory"], "small")
    add("mypy-pretty", r, sigs, note="--pretty: source excerpts, carets, wrapped messages")
    r = ws.run(["mypy", *base, "inventory"], "small", env=dict(ws.env, MYPY_FORCE_COLOR="1", FORCE_COLOR="1"))
    add("mypy-color", r, sigs, note="MYPY_FORCE_COLOR=1: ANSI colours on")

    # --strict on a larger project: many repeats of the same missing-annotation messages.
    for rel, content in python_project(60, seed=31, n_snippets=(3, 6), pkg="warehouse").items():
        ws.write(f"large/{rel}", content)
    args = [*base, "--strict", "warehouse"]
    r = ws.run(["mypy", *args], "large")
    add("mypy-strict-large", r, _signals(ws, args, "large"), note="--strict over 60 modules")
    args = [*base, "--pretty", "--show-error-context", "warehouse"]
    r = ws.run(["mypy", *args], "large")
    add("mypy-pretty-large", r, _signals(ws, args, "large"), note="--pretty --show-error-context over 60 modules")

    ws.write("broken/app.py", "def handler(event:\n    return event\n")
    ws.write("broken/util.py", "def f(x: int) -> str:\n    return x\n")
    r = ws.run(["mypy", *base, "."], "broken")
    add("mypy-syntax-error", r, _signals(ws, [*base, "."], "broken"))

    ws.write("clean/app.py", 'def greet(name: str) -> str:\n    return f"hello {name}"\n')
    r = ws.run(["mypy", *base, "--strict", "."], "clean")
    add(
        "mypy-clean",
        r,
        [sig("summary", "Success: no issues found in 1 source file")],
        src="the clean project the run was given",
    )
    return fixtures
