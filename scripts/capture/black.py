"""black: --check, --check --diff (plain and --color), a parse error, a large --diff, clean.

Signals: which files black would change and how, from black's own API
(`black.format_file_contents`) run over each file: the file names, the changed lines
(difflib between the file and its formatted text) and the files-count summary.
"""

from __future__ import annotations

from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import changed_lines, formatted, python_unformatted

RULE = "lint/black"
FAMILY = "black"


def _formatted(ws: Workspace, files: dict[str, str], cwd: str) -> dict[str, str]:
    """The files black would change, with their formatted text (black's own API)."""
    after = formatted(ws, cwd, sorted(files), "black")
    return {rel: dst for rel, dst in after.items() if dst is not None and dst != files[rel]}


def _summary(n_bad: int, n_ok: int) -> list[Any]:
    out = []
    if n_bad:
        out.append(sig("summary", f"{n_bad} file{'s' if n_bad != 1 else ''} would be reformatted"))
    if n_ok:
        out.append(sig("summary", f"{n_ok} file{'s' if n_ok != 1 else ''} would be left unchanged"))
    return out


def _diff_signals(files: dict[str, str], bad: dict[str, str]) -> list[Any]:
    sigs: list[Any] = []
    for rel, after in bad.items():
        sigs.append(sig("file", rel))
        sigs.extend(sig("changed_line", line) for line in changed_lines(files[rel], after))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.pip_install("black")
    version = ws.version(["black", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "black.format_file_contents over each file: the files it changes, difflib changed lines, counts"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    files = python_unformatted(12, seed=3)
    for rel, content in files.items():
        ws.write(f"small/{rel}", content)
    bad = _formatted(ws, files, "small")
    summary = _summary(len(bad), len(files) - len(bad))
    r = ws.run(["black", "--check", "."], "small")
    add("black-check", r, [sig("file", b) for b in bad] + summary)
    diff_sigs = _diff_signals(files, bad)
    r = ws.run(["black", "--check", "--diff", "."], "small")
    add("black-check-diff", r, diff_sigs + summary)
    r = ws.run(["black", "--check", "--diff", "--color", "."], "small")
    add("black-check-diff-color", r, diff_sigs + summary, note="--color: ANSI-coloured diff")

    ws.write("broken/ok.py", "x = 1\n")
    ws.write("broken/bad.py", "def handler(event:\n    return event\n")
    ws.write("broken/ugly.py", "y = [ 1,2 ]\n")
    r = ws.run(["black", "--check", "."], "broken")
    add(
        "black-parse-error",
        r,
        [sig("error", "bad.py:2:4"), sig("file", "ugly.py"), sig("summary", "1 file would fail to reformat")],
        src="the project the run was given: one file that cannot parse, one unformatted, one clean",
    )

    files = python_unformatted(120, seed=9, pkg="big")
    for rel, content in files.items():
        ws.write(f"large/{rel}", content)
    bad = _formatted(ws, files, "large")
    r = ws.run(["black", "--check", "--diff", "."], "large")
    add(
        "black-diff-large",
        r,
        _diff_signals(files, bad) + _summary(len(bad), len(files) - len(bad)),
        note="120 files, most unformatted",
    )

    ws.write("clean/app.py", 'def greet(name: str) -> str:\n    return f"hello {name}"\n')
    r = ws.run(["black", "--check", "."], "clean")
    add("black-clean", r, [sig("summary", "1 file would be left unchanged")], src="the clean project the run was given")
    return fixtures
