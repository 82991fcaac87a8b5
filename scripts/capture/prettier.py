"""prettier: --check (with a syntax error), --list-different, --write, a large --write,
clean.

Signals: the files prettier would change, from `prettier --list-different` (a plain list
of paths meant for scripts) run before each capture; the syntax error from the file the
project was built with; the summary counts.
"""

from __future__ import annotations

from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import JS_CLEAN, js_project

RULE = "lint/prettier-check"
FAMILY = "prettier"
BROKEN = "src/broken.js"


def _unformatted(ws: Workspace, cwd: str) -> list[str]:
    out = ws.sh("prettier --list-different src 2>/dev/null; true", cwd)
    return [line.strip() for line in out.splitlines() if line.strip()]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("prettier")
    version = ws.version(["prettier", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "prettier --list-different beforehand: the files it would change; the broken file the project holds"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    files = js_project(10, seed=2)
    files["src/sum.js"] = JS_CLEAN
    for rel, content in files.items():
        ws.write(f"small/{rel}", content)
        ws.write(f"syntax/{rel}", content)
    ws.write(f"syntax/{BROKEN}", "export const total = ;\n")
    syntax = sig("error", f"{BROKEN}: SyntaxError: Unexpected token (1:22)")

    bad = _unformatted(ws, "small")
    r = ws.run(["prettier", "--check", "src"], "small")
    n = len(bad)
    add(
        "prettier-check",
        r,
        [sig("file", f"[warn] {b}") for b in bad] + [sig("summary", f"Code style issues found in {n} files")],
    )
    r = ws.run(["prettier", "--check", "src"], "syntax")
    add(
        "prettier-check-syntax-error",
        r,
        [sig("file", f"[warn] {b}") for b in bad] + [syntax],
        note="a syntax error: prettier prints its code frame and no summary",
    )
    r = ws.run(["prettier", "--list-different", "src"], "syntax")
    add("prettier-list-different", r, [sig("file", b) for b in bad] + [syntax])
    r = ws.run(["prettier", "--write", "src"], "syntax")
    add("prettier-write", r, [sig("file", b) for b in bad] + [syntax], note="--write: one line per file with its time")

    files = js_project(200, seed=21)
    for i in range(0, 200, 3):
        files[f"src/clean/sum{i:03d}.js"] = JS_CLEAN
    for rel, content in files.items():
        ws.write(f"large/{rel}", content)
    # Format most files first so that a later --write changes only a few (the usual case).
    ws.sh("prettier --write src >/dev/null 2>&1; true", "large")
    for rel in list(files)[::25]:
        ws.write(f"large/{rel}", files[rel])
    bad = _unformatted(ws, "large")
    r = ws.run(["prettier", "--write", "src"], "large")
    add(
        "prettier-write-large",
        r,
        [sig("file", b) for b in bad],
        note="--write over 267 files of which a few change; the rest are (unchanged)",
    )

    ws.write("clean/src/sum.js", JS_CLEAN)
    r = ws.run(["prettier", "--check", "src"], "clean")
    add(
        "prettier-check-clean",
        r,
        [sig("summary", "All matched files use Prettier code style!")],
        src="the clean project the run was given",
    )
    return fixtures
