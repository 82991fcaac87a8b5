"""ruff check (full, concise, --statistics, colour, syntax errors, --fix, a large run)
and ruff format (--check, --diff, clean, large) on generated Python projects.

Signals: a rerun with `--output-format=json`: every finding's `path:line:col` (relative
to the run's directory, as ruff prints it) and message, each rule code once; for
--statistics the per-code counts; for `ruff format --diff` the changed lines from a
difflib comparison of each file with `ruff format -` output.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import python_project, python_unformatted

RULE = "lint/ruff"
RULE_FORMAT = "lint/ruff-format"
FAMILY = "ruff"

PYPROJECT = """
[project]
name = "inventory"
version = "0.1.0"
requires-python = ">=3.11"

[tool.ruff]
line-length = 100

[tool.ruff.lint]
select = ["E", "F", "W", "B", "UP", "SIM", "I", "PIE", "RET"]
"""


def _json_findings(ws: Workspace, args: list[str], cwd: str) -> list[dict[str, Any]]:
    out = ws.sh("ruff " + " ".join([*args, "--output-format=json", "--no-cache"]) + " 2>/dev/null; true", cwd)
    return json.loads(out or "[]")


def _finding_signals(ws: Workspace, items: list[dict[str, Any]], cwd: str) -> list[Any]:
    base = str(ws.path(cwd))
    sigs: list[Any] = []
    codes: set[str] = set()
    for d in items:
        rel = os.path.relpath(d["filename"], base)
        loc = f"{rel}:{d['location']['row']}:{d['location']['column']}"
        if d.get("code") in (None, "invalid-syntax"):
            # ruff draws an end-of-file syntax error at the end of the last line, while
            # the JSON puts it on the next line: the file and the message are the signal.
            sigs.append(sig("location", f"{rel}:"))
        else:
            sigs.append(sig("location", loc))
        sigs.append(sig("message", d["message"]))
        if d.get("code") and d["code"] not in codes:
            codes.add(d["code"])
            sigs.append(sig("rule", d["code"]))
    return sigs


def _old_ruff(ws: Workspace) -> str | None:
    """The bin directory of a ruff 0.5 kept beside the current one (None if it cannot be had)."""
    venv = ws.tools / "ruff-0.5"
    if not (venv / "bin" / "ruff").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        r = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "ruff==0.5.7"], capture_output=True)
        if r.returncode != 0:
            return None
    return str(venv / "bin")


def _summary(items: list[dict[str, Any]]) -> list[Any]:
    n = len(items)
    return [sig("summary", f"Found {n} error{'s' if n != 1 else ''}")] if n else []


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.pip_install("ruff")
    version = ws.version(["ruff", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "rerun with --output-format=json: path:line:col and message of every finding, each rule code"

    def add(
        id: str, r: Result, signals: list[Any], rule: str = RULE, note: str | None = None, src: str = source
    ) -> None:
        fixtures.append(
            ws.fixture(id, rule, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    # A small project (8 modules) with the project's own rule selection.
    for rel, content in python_project(8, seed=11).items():
        ws.write(f"small/{rel}", content)
    ws.write("small/pyproject.toml", PYPROJECT)
    items = _json_findings(ws, ["check", "."], "small")
    sigs = _finding_signals(ws, items, "small") + _summary(items)
    r = ws.run(["ruff", "check", "--no-cache", "."], "small")
    add("ruff-check-full", r, sigs, note="default (full) output: excerpts, carets, help and fix diffs")
    r = ws.run(["ruff", "check", "--no-cache", "."], "small", env=dict(ws.env, FORCE_COLOR="1"))
    add("ruff-check-full-color", r, sigs, note="FORCE_COLOR=1: ANSI colours on")
    r = ws.run(["ruff", "check", "--no-cache", "--output-format=concise", "."], "small")
    add("ruff-check-concise", r, sigs)
    r = ws.run(["ruff", "check", "--no-cache", "--statistics", "."], "small")
    counts = Counter(d["code"] for d in items)
    add(
        "ruff-check-statistics",
        r,
        [sig("statistic", f"{n} {code}") for code, n in counts.items()] + _summary(items),
        src="rerun with --output-format=json: count of findings per rule code",
    )

    # ruff before 0.9 printed `path:line:col: CODE msg` headers over `|` excerpts and
    # `= help:` lines; projects pinning an older ruff still get that format.
    old = _old_ruff(ws)
    if old is not None:
        saved = ws.env["PATH"]
        ws.env["PATH"] = f"{old}{os.pathsep}{saved}"
        try:
            old_version = ws.version(["ruff", "--version"])
            old_items = _json_findings(ws, ["check", "."], "small")
            r = ws.run(["ruff", "check", "--no-cache", "."], "small")
        finally:
            ws.env["PATH"] = saved
        fixtures.append(
            ws.fixture(
                "ruff-check-full-v05",
                RULE,
                r,
                family=FAMILY,
                signals=_finding_signals(ws, old_items, "small") + _summary(old_items),
                signal_source=source,
                tool_version=old_version,
                notes="ruff 0.5: the older full format",
            )
        )

    # --fix on a copy: the remaining findings and the fixed/remaining summary.
    shutil.copytree(ws.path("small"), ws.path("fixed"))
    shutil.copytree(ws.path("small"), ws.path("fixed_json"))
    remaining = _json_findings(ws, ["check", "--fix", "."], "fixed_json")
    r = ws.run(["ruff", "check", "--no-cache", "--fix", "."], "fixed")
    add(
        "ruff-check-fix",
        r,
        [*_finding_signals(ws, remaining, "fixed_json"), sig("summary", f"{len(remaining)} remaining")],
        note="--fix: what is left after the safe fixes",
    )

    # Syntax errors next to ordinary findings.
    ws.write("broken/app.py", "import os\n\ndef handler(event:\n    return event\n")
    ws.write("broken/util.py", "import sys\n\n\ndef f(x):\n    if x == None:\n        return 1\n    return 2\n")
    items = _json_findings(ws, ["check", "."], "broken")
    r = ws.run(["ruff", "check", "--no-cache", "."], "broken")
    add("ruff-check-syntax-error", r, _finding_signals(ws, items, "broken") + _summary(items))

    # Clean run.
    ws.write("clean/app.py", 'def greet(name: str) -> str:\n    return f"hello {name}"\n')
    r = ws.run(["ruff", "check", "--no-cache", "."], "clean")
    add("ruff-check-clean", r, [sig("summary", "All checks passed!")], src="the clean project the run was given")

    # Large: 150 modules, a wide rule selection, default output.
    for rel, content in python_project(60, seed=23, n_snippets=(3, 6), pkg="warehouse").items():
        ws.write(f"large/{rel}", content)
    args = ["check", "--select", "E,F,W,B,UP,SIM,RET,C4,PIE,ARG,N", "."]
    items = _json_findings(ws, args, "large")
    r = ws.run(["ruff", *args[:1], "--no-cache", *args[1:]], "large")
    add(
        "ruff-check-large",
        r,
        _finding_signals(ws, items, "large") + _summary(items),
        note="60 modules, a wide rule selection, default output",
    )

    # ruff format: --check, --diff, clean, large.
    for rel, content in python_unformatted(10, seed=5).items():
        ws.write(f"fmt/{rel}", content)
    _format_fixtures(ws, "fmt", add)
    ws.write("fmtclean/app.py", 'def greet(name: str) -> str:\n    return f"hello {name}"\n')
    r = ws.run(["ruff", "format", "--no-cache", "--check", "."], "fmtclean")
    add(
        "ruff-format-check-clean",
        r,
        [sig("summary", "1 file already formatted")],
        rule=RULE_FORMAT,
        src="the clean project the run was given",
    )
    for rel, content in python_unformatted(160, seed=9, pkg="big").items():
        ws.write(f"fmtbig/{rel}", content)
    items = _json_findings(ws, ["format", "--check", "."], "fmtbig")
    r = ws.run(["ruff", "format", "--no-cache", "--check", "."], "fmtbig")
    add(
        "ruff-format-check-large",
        r,
        _format_check_signals(ws, items, "fmtbig"),
        rule=RULE_FORMAT,
        src="rerun with --output-format=json: every file that would be reformatted",
        note="160 files, most unformatted; ruff prints each file's diff",
    )
    return fixtures


def _format_check_signals(ws: Workspace, items: list[dict[str, Any]], cwd: str) -> list[Any]:
    base = str(ws.path(cwd))
    sigs = [sig("file", os.path.relpath(d["filename"], base)) for d in items]
    n = len(items)
    if n:
        sigs.append(sig("summary", f"{n} file{'s' if n != 1 else ''} would be reformatted"))
    return sigs


def _format_fixtures(ws: Workspace, cwd: str, add: Any) -> None:
    items = _json_findings(ws, ["format", "--check", "."], cwd)
    r = ws.run(["ruff", "format", "--no-cache", "--check", "."], cwd)
    add(
        "ruff-format-check",
        r,
        _format_check_signals(ws, items, cwd),
        rule=RULE_FORMAT,
        src="rerun with --output-format=json: every file that would be reformatted",
    )
    # --diff: the changed lines, from difflib over each file and its `ruff format -` form.
    sigs: list[Any] = []
    base = ws.path(cwd)
    for d in items:
        path = d["filename"]
        before = Path(path).read_text(encoding="utf-8")
        after = ws.sh(f"ruff format --stdin-filename {path} - < {path}", cwd)
        rel = os.path.relpath(path, base)
        sigs.append(sig("file", rel))
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0):
            if line[:1] in "+-" and not line.startswith(("+++", "---")) and line[1:].strip():
                sigs.append(sig("changed_line", line))
    r = ws.run(["ruff", "format", "--no-cache", "--diff", "."], cwd)
    add(
        "ruff-format-diff",
        r,
        sigs,
        rule=RULE_FORMAT,
        src="difflib between each reported file and its `ruff format -` output: changed lines",
    )
