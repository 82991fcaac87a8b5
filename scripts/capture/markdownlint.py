"""markdownlint-cli: findings over several documents, clean.

Signals: a rerun with `--json`: every finding's `file:line` and rule names.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import markdown_files

RULE = "lint/markdownlint"
FAMILY = "markdownlint"


def _signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    out = ws.sh("markdownlint --json " + " ".join(args) + " 2>&1 >/dev/null; true", cwd)
    sigs: list[Any] = []
    for d in json.loads(out or "[]"):
        sigs.append(sig("location", f"{d['fileName']}:{d['lineNumber']}"))
        sigs.append(sig("finding", "/".join(d["ruleNames"][:2]) + " " + d["ruleDescription"]))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("markdownlint-cli")
    version = ws.version(["markdownlint", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "rerun with --json: every finding's file:line, rule names and description"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    for rel, content in markdown_files(8, seed=4).items():
        ws.write(f"small/{rel}", content)
    r = ws.run(["markdownlint", "docs"], "small")
    add("markdownlint-errors", r, _signals(ws, ["docs"], "small"))

    ws.write("clean/README.md", "# Title\n\nSome text.\n")
    r = ws.run(["markdownlint", "README.md"], "clean")
    add("markdownlint-clean", r, [], src="the clean document the run was given (markdownlint prints nothing)")
    return fixtures
