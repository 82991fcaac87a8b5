"""tsc (npm `typescript`) on small projects: type errors in the plain layout and with
`--pretty` (colours, source excerpts, related information), a large project after a
refactor (40 files), and a verbose `tsc --build` that succeeds.

Signals: the TypeScript compiler API (the 5.x JavaScript API, installed beside the
`tsc` under test as `typescript5`, since `typescript` 7 ships no JS API):
`ts.getPreEmitDiagnostics` over the same tsconfig, each diagnostic's file, line,
column, code and first message line. Locations are offered in both layouts,
`file(line,col)` and `file:line:col`.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

RULE = "build/tsc"
FAMILY = "tsc"

SIGNALS_JS = r"""
const ts = require("typescript5");
const path = require("path");
const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
const cfg = ts.getParsedCommandLineOfConfigFile(path.resolve(process.argv[2] || "tsconfig.json"), {}, host);
const program = ts.createProgram({ rootNames: cfg.fileNames, options: cfg.options });
const out = [];
for (const d of ts.getPreEmitDiagnostics(program)) {
  const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0];
  const cat = ts.DiagnosticCategory[d.category].toLowerCase();
  if (d.file && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    out.push({ file: path.relative(process.cwd(), d.file.fileName), line: line + 1, col: character + 1, code: d.code, cat, msg });
  } else {
    out.push({ code: d.code, cat, msg });
  }
}
console.log(JSON.stringify(out));
"""

TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "target": "ES2020",
        "module": "commonjs",
        "outDir": "dist",
        "declaration": True,
        "skipLibCheck": True,
        "types": [],
    },
    "include": ["src"],
}

MODELS = """
export interface Address { street: string; city: string; zip: string }
export interface Customer { id: number; name: string; email: string; address: Address; tags: string[] }
export type OrderStatus = "open" | "paid" | "shipped";
export interface Order { id: number; customer: Customer; status: OrderStatus; totalCents: number }
"""

SERVICE = """
import { Customer, Order, OrderStatus } from "./models";

export function label(c: Customer): string {
  return c.nmae + " <" + c.email + ">";
}

export function total(orders: Order[]): number {
  const sum: number = orders.map(o => o.totalCents).join("+");
  return sum + discount;
}

export function markShipped(o: Order): Order {
  const next: OrderStatus = "delivered";
  return { ...o, status: next };
}

export const sample: Customer = {
  id: "c-1",
  name: "Ada",
  email: "ada@example.com",
  address: { street: "1 Main St", city: "Springfield", zip: 12345 },
  tags: [],
};
"""

REPORT = """
import { Order } from "./models";
import { total } from "./service";

export function summary(orders: Order[]) {
  const byStatus = new Map<string, number>();
  for (const o of orders) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
  return { count: orders.length, total: total(orders, true), open: byStatus.get("open").toFixed() };
}
"""


def _large_file(k: int) -> str:
    """A handler written against the old API: `fetchUser(id)` became `fetchUser({ id })`."""
    return f"""
import {{ fetchUser, User }} from "../api";

export async function handler{k}(id: number): Promise<string> {{
  const user: User = await fetchUser(id);
  const display: number = user.displayName;
  if (user.role === "superuser") {{
    return user.name.first + " " + user.name.last;
  }}
  return String(display) + user.emial;
}}

export function format{k}(u: User): string {{
  return `${{u.name}} (${{u.id.toUpperCase()}})`;
}}
"""


API = """
export interface User { id: number; name: { first: string; last: string }; displayName: string; role: "admin" | "member"; email: string }
export async function fetchUser(q: { id: number }): Promise<User> {
  return { id: q.id, name: { first: "a", last: "b" }, displayName: "ab", role: "member", email: "a@b.c" };
}
"""


def _signals(ws: Workspace, cwd: str, config: str = "tsconfig.json") -> list[Any]:
    out = ws.sh(f"node {ws.path('_tjts/signals.js')} {config}", cwd, check=False)
    sigs: list[Any] = []
    for d in json.loads(out.strip().splitlines()[-1]):
        code = f"{d['cat']} TS{d['code']}: {d['msg']}"
        if "file" in d:
            sigs.append(sig("location", f"{d['file']}({d['line']},{d['col']})", f"{d['file']}:{d['line']}:{d['col']}"))
        sigs.append(sig("message", code))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("typescript", "typescript5@npm:typescript@5")
    ws.require("tsc", "node")
    ws.env["NODE_PATH"] = str(ws.tools / "node_modules")
    versions = {"tsc": ws.version(["tsc", "-v"]), "signals": "typescript 5 compiler API"}
    ws.write("_tjts/signals.js", SIGNALS_JS)
    fixtures: list[dict[str, Any]] = []
    source = "TypeScript compiler API (getPreEmitDiagnostics): file, line, column, code and first message line"

    def add(id: str, r: Any, cwd: str, signals: list[Any] | None = None) -> None:
        fixtures.append(
            ws.fixture(
                id,
                RULE,
                r,
                family=FAMILY,
                signals=_signals(ws, cwd) if signals is None else signals,
                signal_source=source,
                tool_version=versions,
            )
        )

    ws.write("shop/tsconfig.json", json.dumps(TSCONFIG, indent=2))
    ws.write("shop/src/models.ts", MODELS)
    ws.write("shop/src/service.ts", SERVICE)
    ws.write("shop/src/report.ts", REPORT)
    r = ws.run("tsc -p .", "shop")
    add("tsc-errors", r, "shop")
    r = ws.run("tsc -p . --pretty", "shop")
    add("tsc-errors-pretty-color", r, "shop")
    r = ws.run("tsc --noEmit --pretty false", "shop")
    add("tsc-noemit-errors", r, "shop")

    ws.write("big/tsconfig.json", json.dumps(TSCONFIG, indent=2))
    ws.write("big/src/api.ts", API)
    for k in range(40):
        ws.write(f"big/src/handlers/handler{k:02d}.ts", _large_file(k))
    r = ws.run("tsc -p . --pretty", "big")
    add("tsc-large-pretty", r, "big")

    # tsc --build --verbose on two referenced projects that compile.
    ws.write(
        "refs/core/tsconfig.json",
        json.dumps(
            {
                "compilerOptions": {
                    **TSCONFIG["compilerOptions"],
                    "composite": True,
                    "outDir": "dist",
                    "rootDir": "src",
                },
                "include": ["src"],
            }
        ),
    )
    ws.write("refs/core/src/index.ts", "export const add = (a: number, b: number): number => a + b;\n")
    ws.write(
        "refs/app/tsconfig.json",
        json.dumps(
            {
                "compilerOptions": {
                    **TSCONFIG["compilerOptions"],
                    "composite": True,
                    "outDir": "dist",
                    "rootDir": "src",
                },
                "include": ["src"],
                "references": [{"path": "../core"}],
            }
        ),
    )
    ws.write("refs/app/src/main.ts", 'import { add } from "../../core/src/index";\nexport const three = add(1, 2);\n')
    ws.write("refs/tsconfig.json", json.dumps({"files": [], "references": [{"path": "core"}, {"path": "app"}]}))
    r = ws.run("tsc --build --verbose", "refs")
    add(
        "tsc-build-verbose-success",
        r,
        "refs",
        [sig("project", "core/tsconfig.json"), sig("project", "app/tsconfig.json")],
    )
    return fixtures
