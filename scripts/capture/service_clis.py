"""service, pm2, vercel and mongosh on this machine.

`service` (sysvinit-utils) lists the init scripts here and fails on a name that has
none; pm2 (from npm) starts two small Node processes, one of which crashes on start,
and lists them; vercel and mongosh (from npm) run without network or server here, so
their real failure output is captured: vercel with no credentials, mongosh against a
port nothing listens on. Signals come from the processes started and the names asked for.
"""

from __future__ import annotations

from typing import Any

from capture._lib import Skip, Workspace, sig
from capture.net_diag import _free_port

APP_OK = "setInterval(() => console.log('api heartbeat', Date.now() % 1000), 1000);\n"
APP_CRASH = "console.error('worker: cannot bind queue port');\nprocess.exit(3);\n"


def capture(ws: Workspace) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if ws.which("service"):
        out += _service(ws)
    for fn in (_pm2, _vercel, _mongosh):
        try:
            out += fn(ws)
        except Skip as exc:
            print(f"service_clis: {fn.__name__} skipped: {exc}")
    if not out:
        raise Skip("none of service, pm2, vercel, mongosh could run")
    return out


def _service(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["dpkg-query", "-W", "-f=${Version}", "sysvinit-utils"])
    r1 = ws.run(["service", "--status-all"])
    r2 = ws.run(["service", "no-such-daemon", "status"])
    stopped = [ln.split("]", 1)[1].strip() for ln in r1.combined.splitlines() if ln.startswith(" [ - ]")]
    return [
        ws.fixture(
            "service-status-all",
            "service/service",
            r1,
            family="service",
            signals=[sig("stopped", f"[ - ]  {name}") for name in stopped[:5]],
            signal_source="the init scripts on this machine that report not running",
            tool_version=f"sysvinit-utils {ver}",
        ),
        ws.fixture(
            "service-unrecognized",
            "service/service",
            r2,
            family="service",
            signals=[sig("error", "no-such-daemon: unrecognized service")],
            signal_source="a service name with no init script",
            tool_version=f"sysvinit-utils {ver}",
        ),
    ]


def _pm2(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("pm2@5")
    home = ws.path("pm2home")
    home.mkdir(exist_ok=True)
    env = dict(ws.env, PM2_HOME=str(home))
    ws.write("procs/api.js", APP_OK)
    ws.write("procs/worker.js", APP_CRASH)
    ws.run(["pm2", "start", "api.js", "--name", "api"], "procs", env=env)
    ws.run(["pm2", "start", "worker.js", "--name", "worker", "--max-restarts", "3"], "procs", env=env)
    ws.sh("sleep 4")
    try:
        r = ws.run(["pm2", "list"], "procs", env=env)
        r2 = ws.run(["pm2", "logs", "worker", "--nostream", "--lines", "20"], "procs", env=env)
    finally:
        ws.run(["pm2", "kill"], "procs", env=env)
    ver = ws.version(["pm2", "--version"])
    return [
        ws.fixture(
            "pm2-list-errored",
            "service/pm2",
            r,
            family="pm2",
            signals=[sig("process", "api"), sig("process", "worker"), sig("state", "errored")],
            signal_source="the two processes started: api keeps running, worker exits 3 on start",
            tool_version=ver,
        ),
        ws.fixture(
            "pm2-logs-worker",
            "service/pm2",
            r2,
            family="pm2",
            signals=[sig("error", "worker: cannot bind queue port")],
            signal_source="the line the worker prints before exiting",
            tool_version=ver,
        ),
    ]


def _vercel(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("vercel@37")
    ws.write("site/index.html", "<h1>shop</h1>\n")
    home = ws.path("vhome")
    home.mkdir(exist_ok=True)
    env = dict(ws.env, HOME=str(home), VERCEL_TELEMETRY_DISABLED="1")
    r = ws.run(["vercel", "deploy", "--prod", "--yes"], "site", env=env, timeout=120)
    return [
        ws.fixture(
            "vercel-deploy-no-credentials",
            "cloud/vercel",
            r,
            family="vercel",
            signals=[sig("error", "Error")],
            signal_source="a deploy with no stored credentials and no network: vercel's error",
            tool_version=ws.version(["vercel", "--version"]),
        )
    ]


def _mongosh(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("mongosh@2")
    port = _free_port()
    r = ws.run(
        ["mongosh", "--quiet", f"mongodb://127.0.0.1:{port}/shop", "--eval", "db.users.countDocuments()"],
        timeout=120,
    )
    return [
        ws.fixture(
            "mongosh-connection-refused",
            "database/mongosh",
            r,
            family="mongosh",
            signals=[sig("error", "MongoNetworkError"), sig("error", "ECONNREFUSED")],
            signal_source="a port nothing listens on",
            tool_version=ws.version(["mongosh", "--version"]),
        )
    ]
