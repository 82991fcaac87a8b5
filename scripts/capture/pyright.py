"""pyright (npm): errors, warnings only (exit 0), a large project, clean.

Signals: a rerun with `--outputjson`: every diagnostic's file (the file line pyright
prints) and `line:col - severity: first message line`, and the summary counts.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import python_project

RULE = "lint/pyright"
FAMILY = "pyright"

WARN_CONFIG = """
{
  "typeCheckingMode": "basic",
  "reportOptionalOperand": "warning",
  "reportAttributeAccessIssue": "warning",
  "reportArgumentType": "warning",
  "reportReturnType": "warning",
  "reportUndefinedVariable": "warning",
  "reportOperatorIssue": "warning",
  "reportPossiblyUnboundVariable": "warning",
  "reportOptionalMemberAccess": "warning",
  "reportCallIssue": "warning",
  "reportIndexIssue": "warning"
}
"""


def _signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    out = ws.sh("pyright " + " ".join([*args, "--outputjson"]) + " 2>/dev/null; true", cwd)
    data = json.loads(out)
    sigs: list[Any] = []
    files: set[str] = set()
    for d in data.get("generalDiagnostics", []):
        if d["file"] not in files:
            files.add(d["file"])
            sigs.append(sig("file", d["file"]))
        start = d["range"]["start"]
        first = d["message"].splitlines()[0]
        sigs.append(sig("finding", f"{start['line'] + 1}:{start['character'] + 1} - {d['severity']}: {first}"))
        if d.get("rule"):
            sigs.append(sig("rule", f"({d['rule']})"))
    s = data.get("summary", {})
    e, w = s.get("errorCount", 0), s.get("warningCount", 0)
    sigs.append(sig("summary", f"{e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''}"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("pyright")
    version = ws.version(["pyright", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "rerun with --outputjson: each file, each diagnostic's line:col, severity and first message line, counts"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    for rel, content in python_project(8, seed=11).items():
        ws.write(f"small/{rel}", content)
    r = ws.run(["pyright", "inventory"], "small")
    add("pyright-errors", r, _signals(ws, ["inventory"], "small"))

    for rel, content in python_project(6, seed=17).items():
        ws.write(f"warn/{rel}", content)
    ws.write("warn/pyrightconfig.json", WARN_CONFIG)
    r = ws.run(["pyright", "inventory"], "warn")
    add("pyright-warnings-only", r, _signals(ws, ["inventory"], "warn"), note="every rule set to warning: exit 0")

    for rel, content in python_project(60, seed=31, n_snippets=(3, 6), pkg="warehouse").items():
        ws.write(f"large/{rel}", content)
    r = ws.run(["pyright", "warehouse"], "large")
    add("pyright-large", r, _signals(ws, ["warehouse"], "large"), note="60 modules")

    ws.write("clean/app.py", 'def greet(name: str) -> str:\n    return f"hello {name}"\n')
    r = ws.run(["pyright", "app.py"], "clean")
    add(
        "pyright-clean",
        r,
        [sig("summary", "0 errors, 0 warnings, 0 informations")],
        src="the clean project the run was given",
    )
    return fixtures
