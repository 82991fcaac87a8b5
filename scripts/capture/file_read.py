"""cat, head, tail, sed -n, nl and bat reading real files: the content must pass intact.

The files are real sources of installed packages (requests, jinja2) copied into the
workspace, plus a generated 3 MB log for the enormous case. Signals are lines read
from the files themselves (first, last and a few in between), so any dropped or
altered line shows.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import Any

from capture._lib import Result, Workspace, sig
from capture.fs_listing import build_repo

FAMILY = "file-read"


def _lines_signals(lines: list[str], picks: int = 6) -> list[Any]:
    """First, last and evenly spaced non-blank lines (stripped of trailing spaces)."""
    body = [ln.rstrip() for ln in lines if ln.strip()]
    if not body:
        return []
    step = max(1, len(body) // picks)
    chosen = dict.fromkeys([body[0], *body[::step], body[-1]])
    return [sig("line", ln) for ln in chosen]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("cat", "head", "tail", "sed", "nl")
    repo = build_repo(ws)
    rel = repo.name
    out: list[dict[str, Any]] = []

    def fx(id: str, rule: str, r: Result, signals: list[Any], source: str, tool: str, notes: str | None = None) -> None:
        out.append(
            ws.fixture(
                id,
                rule,
                r,
                family=FAMILY,
                signals=signals,
                signal_source=source,
                tool_version=ws.version([tool, "--version"]),
                notes=notes,
            )
        )

    def text(p: str) -> list[str]:
        return (repo / p).read_text(encoding="utf-8").splitlines()

    src = "lines of the file itself (first, last and evenly spaced ones)"
    r = ws.run(["cat", "lib/requests/__version__.py"], rel)
    fx("cat-small-file", "filesystem/read", r, _lines_signals(text("lib/requests/__version__.py")), src, "cat")
    r = ws.run(["cat", "lib/requests/api.py"], rel)
    fx(
        "cat-source-file",
        "filesystem/read",
        r,
        _lines_signals(text("lib/requests/api.py"), 12),
        src,
        "cat",
        "a 6 KB module: every line must pass",
    )
    lines = text("lib/jinja2/environment.py")
    r = ws.run(["head", "-n", "60", "lib/jinja2/environment.py"], rel)
    fx("head-n-60", "filesystem/read", r, _lines_signals(lines[:60], 10), src + " (the first 60)", "head")
    r = ws.run(["tail", "-n", "40", "lib/jinja2/environment.py"], rel)
    fx("tail-n-40", "filesystem/read", r, _lines_signals(lines[-40:], 10), src + " (the last 40)", "tail")
    r = ws.run(["sed", "-n", "120,200p", "lib/jinja2/environment.py"], rel)
    fx("sed-n-range", "filesystem/read-sed", r, _lines_signals(lines[119:200], 12), src + " (lines 120-200)", "sed")
    r = ws.run(["nl", "-ba", "lib/requests/hooks.py"], rel)
    hooks = text("lib/requests/hooks.py")
    fx(
        "nl-numbered",
        "filesystem/read",
        r,
        [sig("line", f"{i + 1}\t{ln.rstrip()}") for i, ln in enumerate(hooks) if ln.strip()][:12],
        "nl -ba: number, tab, line",
        "nl",
    )
    r = ws.run(["cat", "lib/requests/missing.py"], rel)
    fx(
        "cat-missing-file",
        "filesystem/read",
        r,
        [sig("error", "cat: lib/requests/missing.py: No such file or directory")],
        "a file that does not exist",
        "cat",
    )
    # Repeated and blank lines must survive exactly (no dedupe of file content).
    ws.write(f"{rel}/data/matrix.csv", "id,value\n" + "1,0\n1,0\n1,0\n2,5\n" + "\n" + "3,0\n")
    r = ws.run(["cat", "data/matrix.csv"], rel)
    fx(
        "cat-repeated-lines",
        "filesystem/read",
        r,
        [sig("rows", "1,0\n1,0\n1,0\n2,5")],
        "the file's three identical rows, which must stay three",
        "cat",
    )
    # An enormous file: only this one may be trimmed (in the middle).
    rng = random.Random(5)
    log = []
    for i in range(40000):
        log.append(
            f"2026-11-30T08:{(i // 600) % 60:02d}:{(i // 10) % 60:02d}.{i % 1000:03d}Z worker-{rng.randint(1, 8)} "
            f"processed batch {i} rows={rng.randint(10, 999)} took={rng.uniform(1, 90):.1f}ms"
        )
    Path(repo / "data" / "worker.log").write_text("\n".join(log) + "\n")
    r = ws.run(["cat", "data/worker.log"], rel)
    fx(
        "cat-enormous-log",
        "filesystem/read",
        r,
        [sig("line", log[0]), sig("line", log[-1])],
        "the generated log's first and last lines",
        "cat",
        "3 MB: far beyond the budget, trimmed in the middle",
    )
    if ws.which("batcat") is None:
        with contextlib.suppress(Exception):  # bat is optional
            ws.apt_install("bat")
    if ws.which("batcat"):
        r = ws.run(["batcat", "lib/requests/structures.py"], rel)
        fx(
            "bat-plain-file",
            "filesystem/read",
            r,
            _lines_signals(text("lib/requests/structures.py"), 10),
            src + " (bat prints plain content when not on a terminal)",
            "batcat",
        )
    return out
