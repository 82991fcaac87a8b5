"""stylelint (string formatter) with stylelint-config-standard: errors and warnings, a
large run, clean.

Signals: a rerun with `-f json`: each file with warnings (its path relative to the run's
directory, as printed) and each warning as the string formatter shows it: `line:col ✖|⚠ text rule` (the
`(rule)` suffix of the JSON text is printed as the rule column).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import css_files

RULE = "lint/stylelint"
FAMILY = "stylelint"
CONFIG = '{"extends": "stylelint-config-standard", "rules": {"color-named": ["never", {"severity": "warning"}]}}\n'


def _signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    out = ws.sh("stylelint " + " ".join([*args, "-f", "json"]) + " 2>&1 >/dev/null; true", cwd)
    out = out or ws.sh("stylelint " + " ".join([*args, "-f", "json"]) + " 2>/dev/null; true", cwd)
    sigs: list[Any] = []
    errors = warnings = 0
    for f in json.loads(out or "[]"):
        if not f["warnings"]:
            continue
        sigs.append(sig("file", os.path.relpath(f["source"], ws.path(cwd))))  # printed relative
        for w in f["warnings"]:
            text = re.sub(r" \(" + re.escape(w["rule"]) + r"\)$", "", w["text"])
            mark = "✖" if w["severity"] == "error" else "⚠"
            errors += w["severity"] == "error"
            warnings += w["severity"] != "error"
            sigs.append(sig("problem", f"{w['line']}:{w['column']} {mark} {text} {w['rule']}"))
    total = errors + warnings
    if total:
        sigs.append(sig("summary", f"{total} problem{'s' if total != 1 else ''}"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("stylelint", "stylelint-config-standard")
    version = ws.version(["stylelint", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "rerun with -f json: each file with problems, each problem's line:col, severity, text and rule"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    def project(name: str, files: dict[str, str]) -> None:
        for rel, content in files.items():
            ws.write(f"{name}/{rel}", content)
        ws.write(f"{name}/.stylelintrc.json", CONFIG)
        ws.path(f"{name}/node_modules").symlink_to(ws.tools / "node_modules")

    project("small", css_files(6, seed=3))
    r = ws.run(["stylelint", "styles/*.css"], "small")
    add("stylelint-string", r, _signals(ws, ["'styles/*.css'"], "small"))

    project("large", css_files(80, seed=5))
    r = ws.run(["stylelint", "styles/*.css"], "large")
    add("stylelint-large", r, _signals(ws, ["'styles/*.css'"], "large"), note="80 stylesheets")

    project("clean", {"styles/app.css": "a {\n  color: #fff;\n}\n"})
    r = ws.run(["stylelint", "styles/*.css"], "clean")
    add("stylelint-clean", r, [], src="the clean stylesheet the run was given (stylelint prints nothing)")
    return fixtures
