"""ShellCheck (apt): the default tty format, colour, gcc format, a large run, clean.

Signals: a rerun with `-f json`: every finding's `file:line:col` and
`SCxxxx (level): message`.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import loc_sig_texts, shell_scripts

RULE = "lint/shellcheck"
FAMILY = "shellcheck"


def _signals(ws: Workspace, files: list[str], cwd: str, gcc: bool = False) -> list[Any]:
    out = ws.sh("shellcheck -f json " + " ".join(files) + " 2>/dev/null; true", cwd)
    sigs: list[Any] = []
    for d in json.loads(out or "[]"):
        if gcc:
            # gcc columns count a tab as one character, -f json as eight: the line is the signal.
            sigs.append(sig("location", f"{d['file']}:{d['line']}:"))
            level = {"info": "note", "style": "note"}.get(d["level"], d["level"])  # gcc has no info/style
            sigs.append(sig("finding", f"{level}: {d['message']} [SC{d['code']}]"))
        else:
            sigs.append(sig("location", *loc_sig_texts(f"{d['file']}:{d['line']}:{d['column']}")))
            sigs.append(sig("finding", f"SC{d['code']} ({d['level']}): {d['message']}"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.apt_install("shellcheck")
    ws.require("shellcheck")
    version = ws.version(["shellcheck", "--version"]).replace("ShellCheck - shell script analysis tool", "").strip()
    version = ws.sh("shellcheck --version | sed -n 2p").strip() or version
    fixtures: list[dict[str, Any]] = []
    source = "rerun with -f json: every finding's file:line:col, code, level and message"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    files = shell_scripts(6, seed=1)
    for rel, content in files.items():
        ws.write(f"small/{rel}", content)
    names = sorted(files)
    sigs = _signals(ws, names, "small")
    r = ws.run(["shellcheck", *names], "small")
    add("shellcheck-tty", r, sigs)
    r = ws.run(["shellcheck", "--color=always", *names], "small")
    add("shellcheck-tty-color", r, sigs, note="--color=always")
    r = ws.run(["shellcheck", "-f", "gcc", *names], "small")
    add("shellcheck-gcc", r, _signals(ws, names, "small", gcc=True), note="-f gcc: already one line per finding")

    files = shell_scripts(120, seed=7)
    for rel, content in files.items():
        ws.write(f"large/{rel}", content)
    r = ws.run("shellcheck scripts/*.sh", "large")
    add("shellcheck-large", r, _signals(ws, sorted(files), "large"), note="120 scripts")

    ws.write("clean/deploy.sh", '#!/bin/bash\nset -euo pipefail\necho "deploying ${1:-main}"\n')
    r = ws.run(["shellcheck", "deploy.sh"], "clean")
    add("shellcheck-clean", r, [], src="the clean script the run was given (shellcheck prints nothing)")
    return fixtures
