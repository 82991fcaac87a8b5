"""esbuild (npm esbuild) bundling small projects: errors (unresolved imports, a syntax
error, a duplicate export with a note), warnings on a successful build (plain and
coloured), and a large build with a hundred warnings.

Signals: esbuild's JavaScript API (`build({ write: false, logLevel: "silent" })`) on the
same entry points: each error's and warning's text and `file:line:column` (esbuild
prints the API's 0-based column as is); for successes, the output file.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

RULE = "build/esbuild"
FAMILY = "esbuild"

SIGNALS_JS = r"""
const esbuild = require("esbuild");
const [entry, outfile] = process.argv.slice(2);
const opts = { entryPoints: [entry], bundle: true, outfile, write: false, logLevel: "silent" };
const show = (m) => ({ text: m.text, loc: m.location ? `${m.location.file}:${m.location.line}:${m.location.column}` : null });
esbuild.build(opts).then(
  (r) => console.log(JSON.stringify({ ok: true, errors: [], warnings: r.warnings.map(show) })),
  (e) => console.log(JSON.stringify({ ok: false, errors: (e.errors || []).map(show), warnings: (e.warnings || []).map(show) })),
);
"""


def _signals(ws: Workspace, cwd: str, entry: str, outfile: str) -> list[Any]:
    out = ws.sh(f"node {ws.path('_tjesbuild/signals.js')} {entry} {outfile}", cwd, check=False)
    res = json.loads(out.strip().splitlines()[-1])
    sigs: list[Any] = []
    for kind in ("errors", "warnings"):
        for m in res[kind]:
            label = "[ERROR]" if kind == "errors" else "[WARNING]"
            sigs.append(sig(f"{kind[:-1]}_message", f"{label} {m['text']}"))
            if m["loc"]:
                sigs.append(sig(f"{kind[:-1]}_location", m["loc"]))
    if res["ok"]:
        sigs.append(sig("output", outfile))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("esbuild")
    ws.require("esbuild", "node")
    ws.env["NODE_PATH"] = str(ws.tools / "node_modules")
    versions = {"esbuild": ws.version(["esbuild", "--version"])}
    ws.write("_tjesbuild/signals.js", SIGNALS_JS)
    fixtures: list[dict[str, Any]] = []
    source = "esbuild JS API build() on the same entry: errors/warnings text and file:line:column; output file"

    def add(id: str, r: Any, cwd: str, entry: str = "src/index.js", outfile: str = "dist/app.js") -> None:
        fixtures.append(
            ws.fixture(
                id,
                RULE,
                r,
                family=FAMILY,
                signals=_signals(ws, cwd, entry, outfile),
                signal_source=source,
                tool_version=versions,
            )
        )

    ws.write(
        "app/src/index.js",
        'import { renderCart } from "./cart";\nimport { money } from "./money";\nimport confetti from "canvas-confetti";\n'
        "renderCart(money(1250));\nconfetti();\n",
    )
    ws.write(
        "app/src/cart.js",
        'export function renderCart(total) {\n  const rows = [total;\n  return rows.join("\\n");\n}\n',
    )
    ws.write(
        "app/src/money.js", "export const money = (c) => (c / 100).toFixed(2);\nexport const money = (c) => `$${c}`;\n"
    )
    r = ws.run("esbuild src/index.js --bundle --outfile=dist/app.js", "app")
    add("esbuild-errors", r, "app")

    ws.write(
        "app/src/cart.js",
        'export function renderCart(total) {\n  if (total == -0) return "";\n  return typeof total == "strng" ? total : String(total);\n}\n',
    )
    ws.write(
        "app/src/money.js",
        "export const money = (c) => { const o = { a: 1, a: 2 }; return (c / 100).toFixed(2) + o.a; };\n",
    )
    ws.write(
        "app/src/index.js",
        'import { renderCart } from "./cart";\nimport { money } from "./money";\nrenderCart(money(1250));\n',
    )
    r = ws.run("esbuild src/index.js --bundle --outfile=dist/app.js", "app")
    add("esbuild-warnings-success", r, "app")
    r = ws.run("esbuild src/index.js --bundle --outfile=dist/app.js --color=true", "app")
    add("esbuild-warnings-color", r, "app")

    # A larger code base: 50 modules, each with the same two suspicious comparisons.
    imports = []
    for k in range(50):
        ws.write(
            f"big/src/lib/mod{k:02d}.js",
            f'export function check{k:02d}(x) {{\n  if (x == -0) return 0;\n  if (typeof x == "undefned") return -1;\n'
            f"  const cfg = {{ retries: {k}, retries: {k + 1} }};\n  return x * cfg.retries;\n}}\n",
        )
        imports.append(f'import {{ check{k:02d} }} from "./lib/mod{k:02d}";')
    ws.write(
        "big/src/index.js",
        "\n".join(imports) + "\nconsole.log(" + " + ".join(f"check{k:02d}(1)" for k in range(50)) + ");\n",
    )
    r = ws.run("esbuild src/index.js --bundle --outfile=dist/app.js --log-limit=0", "big")
    add("esbuild-many-warnings-large", r, "big")
    return fixtures
