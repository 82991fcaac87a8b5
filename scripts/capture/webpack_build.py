"""webpack 5 (npm webpack + webpack-cli) on small projects: unresolved imports and a
parse error (plain, and coloured with resolver traces), a large development build with
`--progress`, and a production build over the size limits (warnings).

Signals: a second run with `--json` (webpack's stats): each error's and warning's
`moduleName loc` and first message line; for successful builds the emitted assets.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

RULE = "build/webpack"
FAMILY = "webpack"


def _stats_signals(ws: Workspace, cwd: str, args: str) -> list[Any]:
    out = ws.sh(f"webpack {args} --json 2>/dev/null; true", cwd)
    stats = json.loads(out[out.index("{") :])
    sigs: list[Any] = []
    for kind in ("errors", "warnings"):
        for e in stats.get(kind, []):
            where = " ".join(x for x in (e.get("moduleName"), e.get("loc")) if x)
            if where:
                sigs.append(sig(f"{kind[:-1]}_location", where))
            first = (e.get("message") or "").strip().splitlines()
            if first:
                sigs.append(sig(f"{kind[:-1]}_message", first[0]))
    if not stats.get("errors"):
        for a in stats.get("assets", []):
            sigs.append(sig("asset", f"asset {a['name']}"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("webpack", "webpack-cli")
    ws.require("webpack", "node")
    versions = {"webpack": ws.version(["webpack", "--version"]).replace("\n", " ")}
    fixtures: list[dict[str, Any]] = []
    source = "webpack --json stats of the same build: errors/warnings (moduleName loc, first message line), assets"

    def add(id: str, r: Any, cwd: str, args: str) -> None:
        fixtures.append(
            ws.fixture(
                id,
                RULE,
                r,
                family=FAMILY,
                signals=_stats_signals(ws, cwd, args),
                signal_source=source,
                tool_version=versions,
            )
        )

    ws.write("app/webpack.config.js", "module.exports = { mode: 'production', entry: './src/index.js' };\n")
    ws.write(
        "app/src/index.js",
        "import { formatPrice } from './format';\n"
        "import { loadCart } from './cart-store';\n"
        "import debounce from 'lodash.debounce';\n"
        "const render = debounce(() => console.log(formatPrice(loadCart().total)), 50);\n"
        "render();\n",
    )
    ws.write(
        "app/src/format.js",
        "export function formatPrice(cents) {\n"
        "  return `$${(cents / 100).toFixed(2)}`\n"
        "export const CURRENCY = 'USD';\n",
    )
    r = ws.run("webpack", "app")
    add("webpack-errors", r, "app", "")
    r = ws.run("webpack --stats-error-details --color", "app")
    add("webpack-errors-details-color", r, "app", "--stats-error-details")

    # A larger development build with --progress (every step printed on its own line).
    ws.write(
        "big/webpack.config.js", "module.exports = { mode: 'development', devtool: false, entry: './src/index.js' };\n"
    )
    imports = []
    for k in range(60):
        ws.write(
            f"big/src/widgets/widget{k:02d}.js",
            f"export function widget{k:02d}(props) {{ return {{ id: {k}, ...props }}; }}\n",
        )
        imports.append(f"import {{ widget{k:02d} }} from './widgets/widget{k:02d}';")
    ws.write(
        "big/src/index.js",
        "\n".join(imports) + "\nconsole.log(" + ", ".join(f"widget{k:02d}({{}})" for k in range(60)) + ");\n",
    )
    r = ws.run("webpack --progress", "big")
    add("webpack-progress-large", r, "big", "")

    # Production build of a bundle over the recommended size: performance warnings.
    ws.write("heavy/webpack.config.js", "module.exports = { mode: 'production', entry: './src/index.js' };\n")
    blob = "".join(f"{k:05d}:{'qwertyuiopasdfghjklzxcvbnm'[k % 26] * 10};" for k in range(20000))
    ws.write("heavy/src/data.js", f'export const TABLE = "{blob}";\n')
    ws.write("heavy/src/index.js", "import { TABLE } from './data';\ndocument.body.textContent = TABLE;\n")
    r = ws.run("webpack", "heavy")
    add("webpack-size-warnings", r, "heavy", "")
    return fixtures
