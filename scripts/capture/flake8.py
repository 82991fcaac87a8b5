"""flake8: default, --show-source --statistics --count, a large project, clean (silent).

Signals: a rerun with a machine-readable `--format` (`path|row|col|code|text`): every
finding's `path:line:col` and `CODE text`; for --statistics the per-code counts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import loc_sig_texts, python_project

RULE = "lint/flake8"
FAMILY = "flake8"
FMT = "--format=%(path)s|%(row)d|%(col)d|%(code)s|%(text)s"


def _findings(ws: Workspace, args: list[str], cwd: str) -> list[list[str]]:
    out = ws.sh("flake8 " + " ".join([*args, f"'{FMT}'"]) + " 2>/dev/null; true", cwd)
    return [line.split("|", 4) for line in out.splitlines() if line.count("|") >= 4]


def _signals(items: list[list[str]]) -> list[Any]:
    sigs: list[Any] = []
    for path, row, col, code, text in items:
        sigs.append(sig("location", *loc_sig_texts(f"{path}:{row}:{col}")))
        sigs.append(sig("finding", f"{code} {text}"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.pip_install("flake8")
    version = ws.version(["flake8", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "rerun with --format='%(path)s|%(row)d|%(col)d|%(code)s|%(text)s': every finding's location and text"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    for rel, content in python_project(8, seed=11).items():
        ws.write(f"small/{rel}", content)
    items = _findings(ws, ["inventory"], "small")
    r = ws.run(["flake8", "inventory"], "small")
    add("flake8-errors", r, _signals(items))
    r = ws.run(["flake8", "--show-source", "--statistics", "--count", "inventory"], "small")
    counts = Counter(code for _p, _r, _c, code, _t in items)
    add(
        "flake8-show-source-statistics",
        r,
        _signals(items)
        + [sig("statistic", f"{n} {code}") for code, n in counts.items()]
        + [sig("count", str(len(items)))],
        note="--show-source --statistics --count",
    )

    for rel, content in python_project(60, seed=31, n_snippets=(3, 6), pkg="warehouse").items():
        ws.write(f"large/{rel}", content)
    items = _findings(ws, ["--max-line-length=100", "warehouse"], "large")
    r = ws.run(["flake8", "--max-line-length=100", "warehouse"], "large")
    add("flake8-large", r, _signals(items), note="60 modules")

    ws.write("clean/app.py", 'def greet(name: str) -> str:\n    return f"hello {name}"\n')
    r = ws.run(["flake8", "app.py"], "clean")
    add("flake8-clean", r, [], src="the clean project the run was given (flake8 prints nothing)")
    return fixtures
