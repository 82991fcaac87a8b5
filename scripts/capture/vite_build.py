"""vite 7 (npm vite) `vite build` on small apps: a clean build, a syntax error (plain and coloured), an
unresolved import, and a large code-split app (80 lazy routes and a chunk over the size
limit).

Signals: vite's JavaScript API (`build({ logLevel: "silent" })`) on the same project:
for a failure the error's message and `loc` (file:line:column); for a success the
emitted file names (first and last in vite's listing order: the html page and the
largest chunk) and any chunk above `build.chunkSizeWarningLimit`.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

RULE = "build/vite"
FAMILY = "vite"

SIGNALS_MJS = r"""
import { build } from "vite";
const root = process.argv[2];
try {
  const res = await build({ root, logLevel: "silent", build: { write: false } });
  const outputs = (Array.isArray(res) ? res : [res]).flatMap(r => r.output);
  const files = outputs.map(o => ({ name: o.fileName, size: o.type === "chunk" ? Buffer.byteLength(o.code) : (typeof o.source === "string" ? Buffer.byteLength(o.source) : o.source.length), type: o.type }));
  console.log(JSON.stringify({ ok: true, files }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, message: String(e.message).split("\n")[0], loc: e.loc || null, id: e.id || null }));
}
"""

INDEX_HTML = (
    '<!doctype html><html><body><div id="app"></div><script type="module" src="/src/main.js"></script></body></html>\n'
)


def _signals(ws: Workspace, project: str) -> list[Any]:
    out = ws.sh(f"node {ws.path('_tjvite/signals.mjs')} .", project, check=False)
    res = json.loads(out.strip().splitlines()[-1])
    if not res["ok"]:
        sigs = [
            sig(
                "error_message", res["message"].split(": ", 1)[-1] if res["message"].startswith("[") else res["message"]
            )
        ]
        if res.get("loc"):
            loc = res["loc"]
            sigs.append(sig("error_location", f"{loc['file']}:{loc['line']}:{loc['column']}"))
        elif res.get("id"):
            sigs.append(sig("error_file", res["id"]))
        return sigs
    files = res["files"]
    html = [f for f in files if f["name"].endswith(".html")]
    biggest = max(files, key=lambda f: f["size"])
    sigs = [sig("asset", "dist/" + f["name"]) for f in html[:1]]
    sigs.append(sig("asset", "dist/" + biggest["name"]))
    if biggest["size"] > 500 * 1024:
        sigs.append(sig("warning", "Some chunks are larger than 500 kB after minification"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("vite@7")
    ws.require("vite", "node")
    versions = {"vite": ws.version(["vite", "--version"])}
    # The signal script imports vite from the tools dir.
    ws.write("_tjvite/package.json", '{"type": "module"}\n')
    ws.write("_tjvite/signals.mjs", SIGNALS_MJS)
    ws.sh(f"ln -sfn {ws.tools / 'node_modules'} node_modules", "_tjvite")
    fixtures: list[dict[str, Any]] = []
    source = "vite build() JavaScript API on the same project: error message and loc, or the emitted files"

    def add(id: str, r: Any, project: str) -> None:
        fixtures.append(
            ws.fixture(
                id, RULE, r, family=FAMILY, signals=_signals(ws, project), signal_source=source, tool_version=versions
            )
        )

    ws.write("app/index.html", INDEX_HTML)
    ws.write(
        "app/src/main.js",
        "import { greet } from './greet.js';\nimport './style.css';\ndocument.querySelector('#app').textContent = greet('vite');\n",
    )
    ws.write("app/src/greet.js", "export const greet = (name) => `Hello, ${name}!`;\n")
    ws.write("app/src/style.css", "body { font-family: sans-serif; color: #222; }\n")
    r = ws.run("vite build", "app")
    add("vite-build-success", r, "app")

    ws.write(
        "app/src/greet.js",
        "export const greet = (name) => {\n  const parts = [`Hello, ${name}`;\n  return parts.join('');\n};\n",
    )
    r = ws.run("vite build", "app")
    add("vite-build-syntax-error", r, "app")
    r = ws.run("vite build", "app", env={**ws.env, "FORCE_COLOR": "1"})
    add("vite-build-syntax-error-color", r, "app")

    ws.write(
        "app/src/greet.js",
        "import { titleCase } from './text/case.js';\nexport const greet = (name) => `Hello, ${titleCase(name)}!`;\n",
    )
    r = ws.run("vite build", "app")
    add("vite-build-unresolved-import", r, "app")

    # A code-split app: 80 lazily loaded routes and one chunk above the 500 kB warning limit.
    ws.write("big/index.html", INDEX_HTML)
    routes = []
    for k in range(80):
        ws.write(
            f"big/src/routes/route{k:02d}.js",
            f"export default function render{k:02d}() {{ return 'route {k} ' + '{'x' * (200 + k)}'; }}\n",
        )
        routes.append(f"  '/r{k:02d}': () => import('./routes/route{k:02d}.js'),")
    blob = "".join(f"{k:05d}:{'abcdefghijklmnopqrstuvwxyz'[k % 26] * 12};" for k in range(32000))
    ws.write("big/src/atlas.js", f'export const ATLAS = "{blob}";\n')
    ws.write(
        "big/src/main.js",
        "import { ATLAS } from './atlas.js';\nconst routes = {\n" + "\n".join(routes) + "\n};\n"
        "const load = routes[location.pathname] || routes['/r00'];\n"
        "load().then(m => { document.body.textContent = m.default() + ATLAS.slice(0, 10); });\n",
    )
    r = ws.run("vite build", "big")
    add("vite-build-large-chunks", r, "big")
    return fixtures
