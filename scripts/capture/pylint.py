"""pylint: default text, --reports=y tables, colorized, a large project, a clean run.

Signals: a rerun with `--output-format=json2`: every message's `path:line:col` and
`ID: message (symbol)`, and the score.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import loc_sig_texts, python_project

RULE = "lint/pylint"
FAMILY = "pylint"


def _signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    out = ws.sh("pylint " + " ".join([*args, "--output-format=json2"]) + " 2>/dev/null; true", cwd)
    data = json.loads(out)
    sigs: list[Any] = []
    for m in data["messages"]:
        sigs.append(sig("location", *loc_sig_texts(f"{m['path']}:{m['line']}:{m['column']}")))
        sigs.append(sig("message", f"{m['messageId']}: {m['message'].splitlines()[0]}"))
    score = data.get("statistics", {}).get("score")
    if score is not None:
        sigs.append(sig("score", f"rated at {score:.2f}/10"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.pip_install("pylint")
    version = ws.version(["pylint", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "rerun with --output-format=json2: every message's path:line:col and ID: message, the score"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    base = ["--persistent=n", "--jobs=1"]
    for rel, content in python_project(8, seed=11).items():
        ws.write(f"small/{rel}", content)
    sigs = _signals(ws, [*base, "inventory"], "small")
    r = ws.run(["pylint", *base, "inventory"], "small")
    add("pylint-messages", r, sigs)
    r = ws.run(["pylint", *base, "--reports=y", "inventory"], "small")
    add("pylint-reports", r, sigs, note="--reports=y: statistics, raw metrics, duplication, messages tables")
    r = ws.run(["pylint", *base, "--output-format=colorized", "inventory"], "small")
    add("pylint-colorized", r, sigs, note="--output-format=colorized")

    for rel, content in python_project(60, seed=31, n_snippets=(3, 6), pkg="warehouse").items():
        ws.write(f"large/{rel}", content)
    args = [*base, "warehouse"]
    r = ws.run(["pylint", *args], "large")
    add("pylint-large", r, _signals(ws, args, "large"), note="60 modules")

    ws.write(
        "clean/app.py",
        '"""Greetings."""\n\n\ndef greet(name: str) -> str:\n    """Say hello."""\n    return f"hello {name}"\n',
    )
    r = ws.run(["pylint", *base, "app.py"], "clean")
    add("pylint-clean", r, _signals(ws, [*base, "app.py"], "clean"))
    return fixtures
