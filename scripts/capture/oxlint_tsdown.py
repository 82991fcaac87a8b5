"""oxlint and tsdown, installed from npm into the shared tools directory.

oxlint lints two small files with planted problems (a debugger statement, unused
variables, an assignment in a condition); the signals are its own JSON report
(`--format=json`) of the same run. tsdown bundles a one-file library, then an entry
that does not exist; signals are the output file it wrote and the entry named.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

A_JS = """
function total(items) {
  debugger;
  let unused = 1;
  for (const i of items) {
    if (i == null) continue;
  }
  return items.length;
}
console.log(total([]));
"""

B_JS = """
export const f = (x) => { if (x = 1) { return x } };
const g = 2;
"""


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("npm", "node")
    ws.npm_install("oxlint@1", "tsdown@0")
    return [*_oxlint(ws), *_tsdown(ws)]


def _oxlint_signals(ws: Workspace, args: list[str]) -> list[dict[str, Any]]:
    report = json.loads(ws.sh(" ".join(["oxlint", "--format=json", *args]), "lint", check=False))
    out = []
    for d in report["diagnostics"]:
        span = d["labels"][0]["span"]
        out.append(sig("diagnostic", d["message"]))
        out.append(sig("location", f"{d['filename']}:{span['line']}:{span['column']}"))
    return out


def _oxlint(ws: Workspace) -> list[dict[str, Any]]:
    ws.write("lint/src/a.js", A_JS)
    ws.write("lint/src/b.js", B_JS)
    ver = ws.version(["oxlint", "--version"])
    out = []
    for fid, args in (
        ("oxlint-warnings", ["src"]),
        ("oxlint-deny-errors", ["-D", "no-debugger", "-D", "no-unused-vars", "src"]),
    ):
        r = ws.run(["oxlint", *args], "lint")
        out.append(
            ws.fixture(
                fid,
                "lint/oxlint",
                r,
                family="oxlint",
                signals=_oxlint_signals(ws, args),
                signal_source="oxlint --format=json on the same files and options",
                tool_version=ver,
            )
        )
    return out


def _tsdown(ws: Workspace) -> list[dict[str, Any]]:
    ws.write("lib/package.json", json.dumps({"name": "tiny-lib", "version": "1.0.0", "type": "module"}) + "\n")
    ws.write("lib/src/index.ts", "export const add = (a: number, b: number): number => a + b;\n")
    ver = ws.version(["tsdown", "--version"])
    r = ws.run(["tsdown", "src/index.ts"], "lib")
    ok = ws.fixture(
        "tsdown-build-ok",
        "build/tsdown",
        r,
        family="tsdown",
        signals=[sig("output", "dist/index.mjs"), sig("outcome", "Build complete")],
        signal_source="the file tsdown wrote (dist/index.mjs exists after the run)",
        tool_version=ver,
    )
    assert ws.path("lib/dist/index.mjs").is_file()
    r = ws.run(["tsdown", "src/missing.ts"], "lib")
    missing = ws.fixture(
        "tsdown-missing-entry",
        "build/tsdown",
        r,
        family="tsdown",
        signals=[sig("error", "UNRESOLVED_ENTRY"), sig("error", "src/missing.ts"), sig("error", "Build failed")],
        signal_source="the entry given on the command line, which does not exist",
        tool_version=ver,
    )
    return [ok, missing]
