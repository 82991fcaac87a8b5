"""Commands no specific rule knows: the generic path (density fallback, streams).

Real scripts run with the real interpreters. Each writes a sidecar JSON listing the
error/warning records and exception lines it emitted; those are the signals.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

RULE = "generic/fallback"
FAMILY = "generic"

SERVICE = r"""
import json, random, sys, traceback
lines, errors, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
services = ["http", "db", "health", "scheduler", "payments", "inventory", "webhooks"]
error_at = set(rng.sample(range(100, lines - 10), errors))
sidecar = []
def boom(kind, job):
    if kind == 0:
        raise ConnectionResetError(104, "Connection reset by peer")
    if kind == 1:
        raise KeyError(f"sku-{job % 9999}")
    json.loads('{"id": 1 "x": 2}')
for i in range(lines):
    ts = f"2026-01-01 00:{(i // 600) % 60:02d}:{(i // 10) % 60:02d}.{i % 1000:03d}"
    svc = rng.choice(services)
    if i in error_at:
        job = rng.randint(100000, 999999)
        msg = f"ERROR [{svc}] unhandled error while processing job {job}"
        print(f"{ts} {msg}", file=sys.stderr)
        try:
            boom(len(sidecar) % 3, job)
        except Exception as exc:
            tb = traceback.format_exc().rstrip().splitlines()
            for t in tb:
                print(t, file=sys.stderr)
            sidecar.append({"error": msg, "exception": tb[-1]})
        continue
    r = rng.random()
    if r < 0.5:
        print(f"{ts} INFO  [http] 10.0.{rng.randint(0,3)}.{rng.randint(1,254)} \"GET /api/v1/orders/{rng.randint(1,9999)} HTTP/1.1\" 200 {rng.randint(80,9000)}B {rng.uniform(1,90):.1f}ms", file=sys.stderr)
    elif r < 0.8:
        print(f"{ts} DEBUG [db] query ok table={rng.choice(['users','orders','items'])} rows={rng.randint(1,500)} elapsed={rng.uniform(0.2,3):.2f}ms", file=sys.stderr)
    elif r < 0.97:
        print(f"{ts} INFO  [scheduler] job {rng.choice(['sync-prices','reindex','rollup'])} finished in {rng.uniform(0.5,4):.2f}s", file=sys.stderr)
    else:
        m = f"WARN  [{svc}] slow response from upstream after {rng.randint(900, 5000)}ms"
        print(f"{ts} {m}", file=sys.stderr)
        sidecar.append({"warning": m})
json.dump(sidecar, open("sidecar.json", "w"))
"""

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

MIGRATE = r"""
import json, sys, traceback
sidecar = {}
def apply(row):
    if row == 1733:
        raise ValueError(f"row {row}: column 'amount' is not numeric: 'N/A'")
    return row
def migrate(rows):
    for r in range(rows):
        print(f"migrated row {r} of table payments (ok)")
        apply(r)
try:
    migrate(5000)
except ValueError as exc:
    sidecar["exception"] = f"ValueError: {exc}"
    frame = traceback.extract_tb(exc.__traceback__)[-1]
    sidecar["frame"] = [frame.filename.rsplit("/", 1)[-1], frame.lineno]
    json.dump(sidecar, open("sidecar.json", "w"))
    raise
"""

NODE_CRASH = r"""
const fs = require("fs");
function loadConfig(path) {
  const raw = fs.readFileSync(path, "utf8");
  return JSON.parse(raw);
}
for (let i = 0; i < 300; i++) console.log(`worker ${i % 4}: warmed cache shard ${i}`);
fs.writeFileSync("sidecar.json", JSON.stringify({ error: "SyntaxError" }));
loadConfig("config.json");
"""


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("python3")
    pyver = ws.version(["python3", "--version"])
    fixtures: list[dict[str, Any]] = []

    ws.write("logsvc/service.py", SERVICE)
    r = ws.run("python3 service.py 6000 4 11", "logsvc")
    side = json.loads(ws.path("logsvc/sidecar.json").read_text())
    sigs = []
    for rec in side:
        if "error" in rec:
            sigs += [sig("error_line", rec["error"]), sig("exception", rec["exception"])]
        else:
            sigs.append(sig("warning_line", rec["warning"]))
    fixtures.append(
        ws.fixture(
            "service-log-dense",
            RULE,
            r,
            family=FAMILY,
            signals=sigs,
            signal_source="the generator's sidecar: each ERROR/WARN record and the exception line of its traceback",
            tool_version=pyver,
            notes="dense output (high density): passes, capped, keeping errors and warnings",
        )
    )

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

    ws.write("migrate/migrate.py", MIGRATE)
    r = ws.run("python3 migrate.py", "migrate")
    side = json.loads(ws.path("migrate/sidecar.json").read_text())
    fixtures.append(
        ws.fixture(
            "failing-script-streams",
            RULE,
            r,
            family=FAMILY,
            signals=[
                sig("exception", side["exception"]),
                sig("traceback", "Traceback (most recent call last):"),
                sig(
                    "location",
                    f'{side["frame"][0]}", line {side["frame"][1]}',
                    f"{side['frame'][0]}:{side['frame'][1]}",
                ),
            ],
            signal_source="the exception the script recorded before raising, with the "
            "innermost frame of traceback.extract_tb; the traceback header",
            tool_version=pyver,
            notes="stdout noise, stderr traceback, exit 1",
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

    if ws.which("node"):
        ws.write("nodecrash/main.js", NODE_CRASH)
        ws.write("nodecrash/config.json", '{"port": 8080,\n "debug": true,,\n}\n')
        r = ws.run("node main.js", "nodecrash")
        fixtures.append(
            ws.fixture(
                "node-uncaught-exception",
                RULE,
                r,
                family=FAMILY,
                signals=[
                    sig("exception", "SyntaxError"),
                    sig("location", "main.js:4"),
                    sig("summary", "worker 3: warmed cache shard 299"),
                ],
                signal_source="the script's own throw site (JSON.parse in loadConfig, "
                "main.js line 4) and its last stdout line",
                tool_version=ws.version(["node", "--version"]),
            )
        )
    return fixtures
