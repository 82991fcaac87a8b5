"""Commands no specific rule knows: the generic path (density fallback, streams).

Real scripts run with the real interpreters; signals are what each script prints by
design (its sidecar or its source). Tracebacks, Node errors and service logs have
content rules now (scripts/capture/content.py); the fixtures here are outputs none of
those claim: low density, dense and capped, a failing run with separate streams, and
a tiny output. Run as `python3 script.py`, they get task/python, which hands output
that does not end in an exception to the generic path under its own id.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

RULE = "task/python"
FAMILY = "generic"

PROGRESS = r"""
import json, sys, time
sidecar = []
print("asset pipeline v3.2")
for i in range(1, 401):
    print("waiting for build lock ...")
    if i % 50 == 0:
        print(f"  [{'#' * (i // 20):<20}] {i * 100 // 400:3d}%   ")
for n in range(1, 6):
    print("")
    print("    ")
print("optimizing images", flush=True)
for i in range(300):
    print("    .")
m = "warning: 3 images exceed 2 MB and were not optimized"
print(m, file=sys.stderr)
sidecar.append(m)
print("done: 212 assets written to dist/")
sidecar.append("done: 212 assets written to dist/")
json.dump(sidecar, open("sidecar.json", "w"))
"""


def capture(ws: Workspace) -> list[dict[str, Any]]:
    from capture.content import generic_fixtures

    ws.require("python3")
    pyver = ws.version(["python3", "--version"])
    fixtures: list[dict[str, Any]] = []

    ws.write("assets/build.py", PROGRESS)
    r = ws.run("python3 build.py", "assets")
    side = json.loads(ws.path("assets/sidecar.json").read_text())
    fixtures.append(
        ws.fixture(
            "progress-low-density",
            RULE,
            r,
            family=FAMILY,
            signals=[sig("line", s) for s in side],
            signal_source="the script's sidecar: its warning and final status line",
            tool_version=pyver,
            notes="low density: the generic reducer runs",
        )
    )

    ws.write("small/hello.py", 'print("hello from a tiny script")\nprint("2 files checked, all fine")\n')
    r = ws.run("python3 hello.py", "small")
    fixtures.append(
        ws.fixture(
            "tiny-output",
            RULE,
            r,
            family=FAMILY,
            signals=[sig("line", "hello from a tiny script"), sig("line", "2 files checked, all fine")],
            signal_source="the script's own print statements",
            tool_version=pyver,
            notes="tiny output passes unchanged",
        )
    )
    # Dense capped output and a failing run with separate streams (no traceback, no log
    # format: content rules must not claim them).
    fixtures += generic_fixtures(ws)
    return fixtures
