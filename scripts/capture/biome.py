"""Biome: check (lint + format + parse), lint, colour, a large lint with every diagnostic
printed, the default 20-diagnostic limit, clean.

Signals: a rerun with `--reporter=json`: every diagnostic's `path:line:col` (or the
path for whole-file format diagnostics) and message, and the error/warning counts.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import JS_CLEAN, js_project

RULE = "lint/biome"
FAMILY = "biome"


def _json(ws: Workspace, args: list[str], cwd: str) -> dict[str, Any]:
    out = ws.sh("biome " + " ".join([*args, "--reporter=json"]) + " 2>/dev/null; true", cwd)
    return json.loads(out)


def _summary(data: dict[str, Any]) -> list[Any]:
    s = data["summary"]
    out = []
    for key, word in (("errors", "error"), ("warnings", "warning")):
        n = s.get(key, 0)
        if n:
            out.append(sig("summary", f"Found {n} {word}{'s' if n != 1 else ''}."))
    return out


def _signals(data: dict[str, Any]) -> list[Any]:
    sigs: list[Any] = []
    for d in data["diagnostics"]:
        loc = d["location"]
        start = loc.get("start") or {}
        if start.get("line"):
            sigs.append(sig("location", f"{loc['path']}:{start['line']}:{start['column']}"))
        else:
            sigs.append(sig("location", f"{loc['path']} "))
        sigs.append(sig("message", d["message"]))
    return sigs + _summary(data)


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("@biomejs/biome")
    version = ws.version(["biome", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "rerun with --reporter=json: every diagnostic's path:line:col and message, the counts"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    files = js_project(6, seed=2)
    files["src/broken.js"] = "export const total = ;\n"
    for rel, content in files.items():
        ws.write(f"small/{rel}", content)
    args = ["check", "--max-diagnostics=200", "src"]
    sigs = _signals(_json(ws, args, "small"))
    r = ws.run(["biome", *args], "small")
    add("biome-check", r, sigs)
    r = ws.run(["biome", *args[:2], "--colors=force", args[2]], "small")
    add("biome-check-color", r, sigs, note="--colors=force: ANSI colours on")
    args = ["lint", "--max-diagnostics=200", "src"]
    r = ws.run(["biome", *args], "small")
    add("biome-lint", r, _signals(_json(ws, args, "small")))

    for rel, content in js_project(60, seed=12, n_snippets=(3, 6)).items():
        ws.write(f"large/{rel}", content)
    args = ["lint", "--max-diagnostics=1000", "src"]
    r = ws.run(["biome", *args], "large")
    add("biome-lint-large", r, _signals(_json(ws, args, "large")), note="60 files, every diagnostic printed")
    data = _json(ws, ["lint", "src"], "large")
    r = ws.run(["biome", "lint", "src"], "large")
    hidden = data["summary"].get("diagnosticsNotPrinted", 0)
    add(
        "biome-lint-limit",
        r,
        _summary(data) + ([sig("limit", f"Diagnostics not shown: {hidden}.")] if hidden else []),
        note="the default limit: 20 diagnostics printed (which ones varies between runs), the counts",
        src="rerun with --reporter=json: the counts and how many diagnostics were not printed",
    )

    ws.write("clean/src/sum.js", JS_CLEAN)
    ws.write("clean/biome.json", '{"formatter": {"indentStyle": "space"}}\n')
    r = ws.run(["biome", "check", "src"], "clean")
    add("biome-check-clean", r, [sig("summary", "Checked 1 file")], src="the clean project the run was given")
    return fixtures
