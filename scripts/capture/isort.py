"""isort: --check-only, --check-only --diff, a large --diff, clean.

Signals: which files isort would change and how, from isort's own API (`isort.code`)
run over each file: the file names (isort prints them absolute; the relative path is a
part of that) and the changed import lines (difflib between the file and its sorted text).
"""

from __future__ import annotations

from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import changed_lines, formatted, python_imports

RULE = "lint/isort"
FAMILY = "isort"


def _bad(ws: Workspace, files: dict[str, str], cwd: str) -> dict[str, str]:
    """The files isort would change, with their sorted text (isort's own API)."""
    after = formatted(ws, cwd, sorted(files), "isort")
    return {rel: dst for rel, dst in after.items() if dst is not None and dst != files[rel]}


def _diff_signals(files: dict[str, str], bad: dict[str, str]) -> list[Any]:
    sigs: list[Any] = []
    for rel, after in bad.items():
        sigs.append(sig("file", rel))
        sigs.extend(sig("changed_line", line) for line in changed_lines(files[rel], after))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.pip_install("isort")
    version = ws.version(["isort", "--version-number"])
    fixtures: list[dict[str, Any]] = []
    source = "isort.code over each file: the files it changes and the difflib changed lines"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    files = python_imports(10, seed=4)
    for rel, content in files.items():
        ws.write(f"small/{rel}", content)
    bad = _bad(ws, files, "small")
    r = ws.run(["isort", "--check-only", "."], "small")
    add("isort-check", r, [sig("file", f"{rel} Imports are incorrectly sorted") for rel in bad])
    r = ws.run(["isort", "--check-only", "--diff", "."], "small")
    add("isort-check-diff", r, _diff_signals(files, bad))

    files = python_imports(150, seed=8, pkg="big")
    for rel, content in files.items():
        ws.write(f"large/{rel}", content)
    bad = _bad(ws, files, "large")
    r = ws.run(["isort", "--check-only", "--diff", "."], "large")
    add("isort-diff-large", r, _diff_signals(files, bad), note="150 files, about half unsorted")

    ws.write("clean/app.py", "import json\nimport os\n\nVALUE = (json, os)\n")
    r = ws.run(["isort", "--check-only", "."], "clean")
    add("isort-clean", r, [], src="the clean project the run was given (isort prints nothing)")
    return fixtures
