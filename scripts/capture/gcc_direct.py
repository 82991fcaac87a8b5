"""gcc and g++ run directly (no make): a warning flood with one error, and a clean compile.

Signals: the same compile rerun with `-fdiagnostics-format=json`: each diagnostic's
`file:line:col` and `kind: message`.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

RULE = "build/gcc"
FAMILY = "gcc"
CFLAGS = "-std=c11 -Wall -Wextra -Wconversion"


def flood_source(functions: int, error_at: int) -> str:
    """A C file whose functions each draw a few warnings; function `error_at` uses an
    undeclared name (the one error)."""
    out = ["#include <stddef.h>", "#include <string.h>"]
    for k in range(functions):
        body = "return hits + undeclared_offset;" if k == error_at else "return hits;"
        out += [
            f"int scan{k:03d}(const int *xs, size_t n, int limit) {{",
            "    int unused_total;",
            "    int hits = 0;",
            "    for (int i = 0; i < n; i++) { if (xs[i] > limit) hits++; }",
            f"    short narrow = (long)n * {k + 2};",
            "    (void)narrow;",
            f"    {body}",
            "}",
        ]
    return "\n".join(out) + "\n"


def _diag_signals(ws: Workspace, cmd: str, cwd: str) -> list[Any]:
    out = ws.sh(f"{cmd} -fdiagnostics-format=json 2>&1; true", cwd)
    sigs: list[Any] = []
    try:
        diags = json.loads(out.strip().splitlines()[-1]) if out.strip() else []
    except ValueError:
        return sigs
    for d in diags:
        kind = d.get("kind")
        if kind not in ("error", "warning"):
            continue
        loc = d["locations"][0]["caret"]
        sigs.append(sig(f"{kind}_location", f"{loc['file']}:{loc['line']}:{loc['column']}"))
        sigs.append(sig(f"{kind}_message", f"{kind}: {d['message']}"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("gcc", "g++")
    versions = {"gcc": ws.version(["gcc", "--version"])}
    ws.write("gproj/flood.c", flood_source(150, 120))
    ws.write("gproj/ok.cpp", "#include <vector>\nint main() { std::vector<int> v{1, 2}; return (int)v.size() - 2; }\n")
    source = "the same compile rerun with -fdiagnostics-format=json: file:line:col and 'kind: message'"
    fixtures: list[dict[str, Any]] = []
    cmd = f"gcc {CFLAGS} -c flood.c -o /dev/null"
    r = ws.run(cmd, "gproj")
    fixtures.append(
        ws.fixture(
            "gcc-warning-flood-one-error",
            RULE,
            r,
            family=FAMILY,
            signals=_diag_signals(ws, cmd, "gproj"),
            signal_source=source,
            tool_version=versions,
        )
    )
    r = ws.run("g++ -std=c++17 -Wall -c ok.cpp -o /dev/null", "gproj")
    fixtures.append(
        ws.fixture(
            "gxx-clean",
            RULE,
            r,
            family=FAMILY,
            signals=[],
            signal_source="a clean compile: nothing to keep but the exit code",
            tool_version=versions,
        )
    )
    return fixtures
