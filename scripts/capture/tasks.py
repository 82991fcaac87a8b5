"""Task runners: `npm run <script>` and just.

npm runs real tools from package.json scripts (TypeScript's tsc, a Node build script);
just is installed from PyPI (the `rust-just` wheel ships the binary). Signals come
from the projects as written (the type errors planted, the recipe that fails) and
from tsc's own machine-readable listing (`--listFilesOnly` / `--pretty false`).
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Skip, Workspace, sig

BUILD_JS = r"""
const fs = require("fs");
const path = require("path");
fs.mkdirSync("dist", { recursive: true });
const pages = 600;
for (let i = 0; i < pages; i++) {
  const name = `page-${String(i).padStart(4, "0")}.html`;
  fs.writeFileSync(path.join("dist", name), `<h1>${i}</h1>`);
  console.log(`  rendered ${name}  ${(1.2 + (i % 17) / 10).toFixed(1)} kB`);
}
if (process.argv[2] === "--strict") {
  console.error("error: page-0413.html links to /docs/missing-page (404)");
  console.error("error: page-0588.html has an empty <title>");
  process.exit(1);
}
console.log(`built ${pages} pages into dist/ in 0.42s`);
"""


def capture(ws: Workspace) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if ws.which("npm") and ws.which("node"):
        out += _npm(ws)
    out += _just(ws)
    if not out:
        raise Skip("neither npm nor just could run")
    return out


def _npm(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("typescript@5")
    npmver = ws.version(["npm", "--version"])
    tscver = ws.version(["tsc", "--version"])
    ver = {"npm": npmver, "tsc": tscver, "node": ws.version(["node", "--version"])}
    out = []
    pkg = {
        "name": "web-shop",
        "version": "1.4.0",
        "private": True,
        "scripts": {
            "build": "tsc -p .",
            "typecheck": "tsc -p . --noEmit",
            "pages": "node build.js",
            "pages:strict": "node build.js --strict",
            "lint": 'node -e "process.exit(0)"',
        },
    }
    ws.write("shop/package.json", json.dumps(pkg, indent=2) + "\n")
    ws.write(
        "shop/tsconfig.json",
        '{"compilerOptions": {"strict": true, "outDir": "dist", "target": "es2020", "module": "commonjs"},'
        ' "include": ["src"]}\n',
    )
    ws.write("shop/build.js", BUILD_JS)
    # A clean project: many modules, no errors.
    for k in range(40):
        ws.write(f"shop/src/mod{k:02d}.ts", f"export function f{k}(x: number): number {{\n  return x + {k};\n}}\n")
    r = ws.run(["npm", "run", "build"], "shop")
    out.append(
        ws.fixture(
            "npm-run-build-ok",
            "task/npm-run",
            r,
            family="npm-run",
            signals=[sig("header", "> web-shop@1.4.0 build"), sig("script", "tsc -p .")],
            signal_source="package.json as written (name, version, the build script)",
            tool_version=ver,
        )
    )
    # Planted type errors.
    errors = {
        "src/cart.ts": ('export const total: number = "12";\n', 1, "TS2322"),
        "src/user.ts": ("export function name(u: { first: string }) {\n  return u.last;\n}\n", 2, "TS2339"),
        "src/order.ts": ('import { nope } from "./mod00";\nexport const x = nope;\n', 1, "TS2305"),
    }
    for rel, (body, _line, _code) in errors.items():
        ws.write(f"shop/{rel}", body)
    diag = ws.sh("cd shop && tsc -p . --noEmit --pretty false", check=False).splitlines()
    r = ws.run(["npm", "run", "build"], "shop")
    out.append(
        ws.fixture(
            "npm-run-build-type-errors",
            "task/npm-run",
            r,
            family="npm-run",
            signals=[
                *(
                    sig("diagnostic", d.split(": error ")[0] + ": error " + d.split(": error ")[1][:6])
                    for d in diag
                    if ": error " in d
                ),
            ],
            signal_source="tsc --pretty false of the same project (file(line,col): error TSxxxx)",
            tool_version=ver,
        )
    )
    r = ws.run(["npm", "run", "pages"], "shop")
    out.append(
        ws.fixture(
            "npm-run-pages-long",
            "task/npm-run",
            r,
            family="npm-run",
            signals=[sig("summary", "built 600 pages into dist/"), sig("header", "> web-shop@1.4.0 pages")],
            signal_source="build.js as written: its closing line after 600 per-page lines",
            tool_version=ver,
        )
    )
    r = ws.run(["npm", "run", "pages:strict"], "shop")
    out.append(
        ws.fixture(
            "npm-run-pages-failing",
            "task/npm-run",
            r,
            family="npm-run",
            signals=[
                sig("error", "page-0413.html links to /docs/missing-page (404)"),
                sig("error", "page-0588.html has an empty <title>"),
            ],
            signal_source="build.js as written: the two errors it reports under --strict, then exit 1",
            tool_version=ver,
        )
    )
    r = ws.run(["npm", "run", "deploy"], "shop")
    out.append(
        ws.fixture(
            "npm-run-missing-script",
            "task/npm-run",
            r,
            family="npm-run",
            signals=[sig("error", 'Missing script: "deploy"')],
            signal_source="package.json as written: it has no deploy script",
            tool_version=ver,
        )
    )
    return out


JUSTFILE = """
set shell := ["bash", "-cu"]

# Build the release artefacts
build:
    echo "compiling 3 targets"
    for t in api worker cli; do echo "  built $t"; done

# Run the test suites
test: build
    for i in $(seq 1 120); do echo "test_case_$i ... ok"; done
    echo "120 passed"

# Check formatting (fails on purpose)
check:
    echo "checking 12 files"
    echo "src/api.rs: line 14 is not formatted" >&2
    exit 3

# Deploy to an environment
deploy env="staging":
    echo "deploying to {{env}}"
"""


def _just(ws: Workspace) -> list[dict[str, Any]]:
    try:
        ws.pip_install("rust-just")
    except Skip:
        return []
    if not ws.which("just"):
        return []
    ver = ws.version(["just", "--version"])
    ws.write("jproj/justfile", JUSTFILE)
    out = []
    r = ws.run(["just", "--list"], "jproj")
    out.append(
        ws.fixture(
            "just-list",
            "task/just",
            r,
            family="just",
            signals=[sig("recipe", n) for n in ("build", "test", "check", "deploy")],
            signal_source="the justfile as written: its four recipes",
            tool_version=ver,
        )
    )
    r = ws.run(["just", "test"], "jproj")
    out.append(
        ws.fixture(
            "just-test-pass",
            "task/just",
            r,
            family="just",
            signals=[sig("summary", "120 passed"), sig("step", "built worker")],
            signal_source="the justfile as written: build's output, then test's closing line",
            tool_version=ver,
        )
    )
    r = ws.run(["just", "check"], "jproj")
    out.append(
        ws.fixture(
            "just-recipe-fails",
            "task/just",
            r,
            family="just",
            signals=[
                sig("error", "src/api.rs: line 14 is not formatted"),
                sig("error", "recipe `check` failed on line 17 with exit code 3"),
            ],
            signal_source="the justfile as written: check writes one error and exits 3 on its line 17",
            tool_version=ver,
        )
    )
    r = ws.run(["just", "release"], "jproj")
    out.append(
        ws.fixture(
            "just-unknown-recipe",
            "task/just",
            r,
            family="just",
            signals=[sig("error", "justfile does not contain recipe `release`")],
            signal_source="the justfile as written: it has no release recipe",
            tool_version=ver,
        )
    )
    return out
