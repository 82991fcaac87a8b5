"""Package scripts whose body tokenjuice cannot know: `npm test`, `pnpm test`, `yarn test`
run silently (no `> pkg@1.0.0 test` header naming the script) and `pnpm build` whose
script is a chain (`rm -rf dist && tsc -p .`) no single rule claims.

The test script is Node's own runner (`node --test`) over a small suite with two
planted failures; the build compiles a project with one planted type error. Signals
are the planted failures and the runner's own summary counts. pnpm and yarn are
installed from npm into the shared tools directory.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

SUITE = """
const test = require("node:test");
const assert = require("node:assert");
const { add, slug } = require("../src/lib.js");

for (let i = 0; i < 24; i++) {
  test(`add ${i} + 1`, () => assert.strictEqual(add(i, 1), i + 1));
}
test("slug keeps digits", () => assert.strictEqual(slug("Release 2.0"), "release-2-0"));
test("add handles negatives", () => assert.strictEqual(add(-2, -3), -6));
test("slug trims dashes", () => assert.strictEqual(slug("--Hello--"), "hello"));
"""

LIB = """
exports.add = (a, b) => a + b;
exports.slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-");
"""

BAD_TS = """
export function total(prices: number[]): number {
  let sum: string = 0;
  for (const p of prices) sum += p;
  return sum;
}
"""


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("npm", "node")
    ws.npm_install("pnpm@9", "yarn@1", "typescript@5")
    ver = {
        "node": ws.version(["node", "--version"]),
        "npm": ws.version(["npm", "--version"]),
        "pnpm": ws.version(["pnpm", "--version"]),
        "yarn": ws.version(["yarn", "--version"]),
    }
    pkg = {"name": "mini-lib", "version": "1.0.0", "private": True, "scripts": {"test": "node --test test/"}}
    ws.write("lib/package.json", json.dumps(pkg, indent=2) + "\n")
    ws.write("lib/src/lib.js", LIB)
    ws.write("lib/test/lib.test.js", SUITE)
    fails = [sig("failure", "add handles negatives"), sig("failure", "slug trims dashes"), sig("count", "fail 2")]
    source = "the suite as written: 27 tests, two planted to fail (add handles negatives, slug trims dashes)"
    out = []
    for pm, cmd in (("npm", "npm test --silent"), ("pnpm", "pnpm --silent test"), ("yarn", "yarn --silent test")):
        r = ws.run(cmd, "lib")
        out.append(
            ws.fixture(
                f"{pm}-test-silent-node-runner",
                f"tests/{pm}-test",
                r,
                family="package-scripts",
                signals=fails,
                signal_source=source,
                tool_version={"node": ver["node"], pm: ver[pm]},
            )
        )

    bpkg = {
        "name": "shop-api",
        "version": "0.3.0",
        "private": True,
        "scripts": {"build": "rm -rf dist && tsc -p ."},
    }
    tsconfig = {"compilerOptions": {"strict": True, "outDir": "dist", "target": "ES2020"}, "include": ["src"]}
    ws.write("api/package.json", json.dumps(bpkg, indent=2) + "\n")
    ws.write("api/tsconfig.json", json.dumps(tsconfig, indent=2) + "\n")
    ws.write("api/src/total.ts", BAD_TS)
    r = ws.run("pnpm build", "api")
    out.append(
        ws.fixture(
            "pnpm-build-chain-type-error",
            "build/pnpm-build",
            r,
            family="package-scripts",
            signals=[sig("error", "src/total.ts(2,7): error TS2322"), sig("error", "src/total.ts(4,3): error TS2322")],
            signal_source="the type errors planted in src/total.ts (tsc --pretty false positions)",
            tool_version={"pnpm": ver["pnpm"], "tsc": ws.version(["tsc", "--version"])},
        )
    )
    return out
