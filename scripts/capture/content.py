"""Content-recognised outputs from any command: Python tracebacks, Node.js uncaught
errors, `--help` texts and long service logs.

Real programs run with the real interpreters. Python signals come from re-running the
crashing code under `runpy` and reading the exception chain with `traceback`
(format_exception_only, extract_tb); Node signals from the error the script throws
(its message and throw site); help signals from the program's own parser (argparse
actions, pip's optparse options); service-log signals from the sidecar each generator
writes with every warning/error record and exception line it emitted. A crash of
`python3 x.py` or `node x.js` whose output ends in the exception gets task/python or
task/node (same stack-trace formatter); the content rules take any other command.
"""

from __future__ import annotations

import json
import re
from typing import Any

from capture._lib import Workspace, sig

# Re-run a script under runpy, catch what escapes, and record the exception chain.
CHAIN_PROBE = r"""
import json, runpy, sys, traceback
path = sys.argv[1]
sys.argv = sys.argv[1:]
try:
    runpy.run_path(path, run_name="__main__")
except BaseException as exc:
    chain, seen, e = [], set(), exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        chain.append(traceback.format_exception_only(type(e), e)[-1].strip())
        e = e.__cause__ or e.__context__
    tb = traceback.extract_tb(exc.__traceback__)[-1]
    json.dump({"chain": chain, "frame": [tb.filename.rsplit("/", 1)[-1], tb.lineno]}, open(sys.argv[-1] + ".probe.json", "w"))
"""

SYNC_USERS = r"""
import json
import sys


class SyncError(Exception):
    pass


def fetch_page(n):
    raw = '{"users": [{"id": 1, "name": "ada"} {"id": 2}]}'
    return json.loads(raw)


def fetch_all():
    try:
        return fetch_page(1)["users"]
    except json.JSONDecodeError as exc:
        raise SyncError(f"upstream returned malformed page 1: {exc.msg}") from exc


def sync():
    users = fetch_all()
    return len(users)


def main():
    cleanup = None
    try:
        sync()
    finally:
        cleanup.close()


if __name__ == "__main__":
    main()
"""

URLFETCH = r"""
import urllib.request


def download(url):
    with urllib.request.urlopen(url, timeout=5) as resp:
        return resp.read()


def refresh_rates():
    return download("http://127.0.0.1:9/rates.json")


if __name__ == "__main__":
    refresh_rates()
"""

RECURSE = r"""
def walk(node):
    return walk(node + 1)


if __name__ == "__main__":
    walk(0)
"""

YAML_APP = r"""
import sys
import yaml


def load_config(text):
    return yaml.safe_load(text)


def start():
    text = "server:\n  port: 8080\n  hosts: [a, b\n  debug: true\n"
    return load_config(text)


if __name__ == "__main__":
    for i in range(400):
        print(f"worker {i % 4}: preloaded template {i}")
    start()
"""

HANDLED = r"""
import logging
import sys

logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s", stream=sys.stdout)
log = logging.getLogger("importer")


def parse(row):
    return int(row["qty"])


rows = [{"qty": "3"}, {"qty": "x"}, {"qty": "7"}]
ok = 0
for n, row in enumerate(rows):
    try:
        ok += parse(row)
    except ValueError:
        log.exception("row %d skipped", n)
print(f"imported {ok} units")
"""

NODE_FILES = {
    "json_crash.js": r"""
const fs = require("fs");
function loadConfig(path) {
  const raw = fs.readFileSync(path, "utf8");
  return JSON.parse(raw);
}
for (let i = 0; i < 300; i++) console.log(`worker ${i % 4}: warmed cache shard ${i}`);
loadConfig("config.json");
""",
    "type_error.js": r"""
class OrderService {
  constructor(repo) { this.repo = repo; }
  total(id) {
    const order = this.repo.find(id);
    return order.items.reduce((s, it) => s + it.price, 0);
  }
}
const repo = { find: (id) => (id === 1 ? { items: [{ price: 3 }] } : undefined) };
const svc = new OrderService(repo);
[1, 2].forEach((id) => console.log(`order ${id}: ${svc.total(id)}`));
""",
    "rejection.js": r"""
const net = require("net");
function connect(port) {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1", () => resolve(s));
    s.on("error", reject);
  });
}
async function main() {
  console.log("connecting to the database on port 9");
  await connect(9);
}
main();
""",
    "cause.js": r"""
function readSettings() {
  try {
    JSON.parse("{bad json}");
  } catch (err) {
    throw new Error("settings.json is invalid", { cause: err });
  }
}
function boot() { readSettings(); }
boot();
""",
    "missing_module.js": r"""
const express = require("express");
express().listen(3000);
""",
}

SERVICE = r"""
import json, logging, random, sys
lines, errors, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
crash = len(sys.argv) > 4 and sys.argv[4] == "--crash"
rng = random.Random(seed)
logging.basicConfig(level=logging.DEBUG, stream=sys.stderr,
                    format="%(asctime)s.%(msecs)03d %(levelname)-5s [%(name)s] %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
services = ["http", "db", "health", "scheduler", "payments", "inventory", "webhooks"]
error_at = set(rng.sample(range(100, lines - 10), errors))
sidecar = []
class Clock:
    t = 1767225600.0
def stamp(record):
    Clock.t += 0.013
    record.created = Clock.t
    record.msecs = (Clock.t % 1) * 1000
    return True
for h in logging.getLogger().handlers:
    h.addFilter(stamp)
def boom(kind, job):
    if kind == 0:
        raise ConnectionResetError(104, "Connection reset by peer")
    if kind == 1:
        raise KeyError(f"sku-{job % 9999}")
    json.loads('{"id": 1 "x": 2}')
for i in range(lines):
    svc = rng.choice(services)
    if i in error_at:
        job = rng.randint(100000, 999999)
        msg = f"unhandled error while processing job {job}"
        try:
            boom(len(sidecar) % 3, job)
        except Exception as exc:
            logging.getLogger(svc).exception(msg)
            import traceback
            sidecar.append({"error": msg, "exception": traceback.format_exception_only(type(exc), exc)[-1].strip()})
        continue
    r = rng.random()
    if r < 0.5:
        logging.getLogger("http").info(f'10.0.{rng.randint(0,3)}.{rng.randint(1,254)} "GET /api/v1/orders/{rng.randint(1,9999)} HTTP/1.1" 200 {rng.randint(80,9000)}B {rng.uniform(1,90):.1f}ms')
    elif r < 0.8:
        logging.getLogger("db").debug(f"query ok table={rng.choice(['users','orders','items'])} rows={rng.randint(1,500)} elapsed={rng.uniform(0.2,3):.2f}ms")
    elif r < 0.985:
        logging.getLogger("scheduler").info(f"job {rng.choice(['sync-prices','reindex','rollup'])} finished in {rng.uniform(0.5,4):.2f}s")
    else:
        m = f"slow response from upstream after {rng.randint(900, 5000)}ms"
        logging.getLogger(svc).warning(m)
        sidecar.append({"warning": m})
if crash:
    m = "database pool exhausted: 20/20 connections busy for 30s"
    logging.getLogger("db").critical(m)
    sidecar.append({"error": m})
    json.dump(sidecar, open("sidecar.json", "w"))
    raise SystemExit(1)
json.dump(sidecar, open("sidecar.json", "w"))
"""

BIG_CLI = r"""
import argparse, json, sys
p = argparse.ArgumentParser(prog="shipctl", description="Manage deployments of the shipping platform.")
p.add_argument("--config", metavar="PATH", help="configuration file (default: ~/.shipctl.toml); environment variables override it")
p.add_argument("-v", "--verbose", action="count", default=0, help="more output; repeat for debug output of every HTTP request")
groups = {
    "deployment": ["release", "rollback-to", "canary-percent", "max-surge", "max-unavailable", "wait", "timeout", "dry-run"],
    "targets": ["region", "cluster", "namespace", "service", "exclude-service", "all-services"],
    "output": ["format", "color", "no-color", "quiet", "log-file", "json-errors"],
    "auth": ["token-file", "profile", "assume-role", "mfa-code"],
    "network": ["proxy", "ca-bundle", "insecure", "retries", "retry-backoff", "connect-timeout"],
}
for g, names in groups.items():
    grp = p.add_argument_group(f"{g} options", f"Options that control {g}.")
    for n in names:
        grp.add_argument(f"--{n}", help=f"set the {n.replace('-', ' ')} used for this {g} run; see the "
                         f"{g} chapter of the manual for the accepted values and their defaults")
sub = p.add_subparsers(dest="command", title="commands")
for c in ["deploy", "status", "logs", "scale", "rollback", "history", "diff", "config", "login", "doctor"]:
    sub.add_parser(c, help=f"{c} the selected services (see 'shipctl {c} --help')")
opts = sorted({s for a in p._actions for s in a.option_strings})
json.dump({"options": opts, "commands": ["deploy", "status", "logs", "scale", "rollback", "history", "diff",
           "config", "login", "doctor"]}, open("shipctl.options.json", "w"))
p.parse_args()
"""

PIP_OPTIONS = r"""
import json, optparse, sys
from pip._internal.commands import create_command
cmd = create_command("install")
opts = set()
for o in cmd.parser._get_all_options():
    # help shows the first long spelling of each visible option (aliases are hidden)
    if o.help != optparse.SUPPRESS_HELP and o._long_opts:
        opts.add(o._long_opts[0])
json.dump(sorted(opts), open(sys.argv[1], "w"))
"""

DENSE = r"""
import random
rng = random.Random(17)
colors = ["red", "blue", "green", "black", "white", "amber", "teal"]
items = ["widget", "gear", "bracket", "hinge", "valve", "sprocket", "flange", "gasket"]
print("inventory report (warehouse B)")
for i in range(3000):
    print(f"SKU-{10000 + i}  {rng.choice(colors)} {rng.choice(items)} {rng.randint(1, 400)}mm  qty={rng.randint(0, 900)}  bin={rng.choice('ABCDEFG')}{rng.randint(1, 60)}  cost={rng.uniform(0.2, 90):.2f}")
print("3000 SKUs listed; 2 bins over capacity: C17, F4")
"""

STREAMS = r"""
import sys
for i in range(1, 1201):
    print(f"checked record {i}: ok")
print("validation failed: 2 records have problems", file=sys.stderr)
print("record 311: field 'email' is empty", file=sys.stderr)
print("record 977: field 'zip' has 7 digits", file=sys.stderr)
sys.exit(2)
"""


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("python3")
    out: list[dict[str, Any]] = []
    out += _python(ws)
    if ws.which("node"):
        out += _node(ws)
    out += _help(ws)
    out += _logs(ws)
    return out


# ------------------------------------------------------------------ python


def _probe(ws: Workspace, cwd: str, script: str, python: str = "python3") -> dict[str, Any]:
    ws.write(f"{cwd}/_probe.py", CHAIN_PROBE)
    ws.sh(f"{python} _probe.py {script}", cwd, check=False)
    return json.loads(ws.path(f"{cwd}/{script}.probe.json").read_text())


def _chain_sigs(probe: dict[str, Any]) -> list[dict[str, Any]]:
    name, line = probe["frame"]
    sigs = [sig("exception", probe["chain"][0])]
    sigs += [sig("exception_cause", c) for c in probe["chain"][1:]]
    sigs.append(sig("innermost_frame", f'{name}", line {line}', f"{name}:{line}"))
    return sigs


def _line_of(source: str, needle: str) -> int:
    """1-based line of `needle` in a script as ws.write saves it (leading newline dropped)."""
    return next(n for n, ln in enumerate(source.lstrip("\n").splitlines(), 1) if needle in ln)


def _python(ws: Workspace) -> list[dict[str, Any]]:
    pyver = ws.version(["python3", "--version"])
    out = []
    src = (
        "the exception chain of a runpy re-run (traceback.format_exception_only of each exception and its "
        "__cause__/__context__) and the innermost frame of traceback.extract_tb"
    )
    ws.write("crash/sync_users.py", SYNC_USERS)
    r = ws.run("python3 sync_users.py", "crash")
    out.append(
        ws.fixture(
            "py-traceback-chained",
            "task/python",
            r,
            family="py-traceback",
            signals=[
                *_chain_sigs(_probe(ws, "crash", "sync_users.py")),
                sig("chain", "The above exception was the direct cause of the following exception:"),
                sig("chain", "During handling of the above exception, another exception occurred:"),
            ],
            signal_source=src + "; the chain separators Python prints",
            tool_version=pyver,
        )
    )
    ws.write("crash/urlfetch.py", URLFETCH)
    r = ws.run("python3 urlfetch.py", "crash")
    out.append(
        ws.fixture(
            "py-traceback-stdlib-frames",
            "task/python",
            r,
            family="py-traceback",
            signals=[*_chain_sigs(_probe(ws, "crash", "urlfetch.py")), sig("user_frame", 'urlfetch.py", line 10')],
            signal_source=src + "; the script's own call site",
            tool_version=pyver,
            notes="a refused connection deep inside urllib/http.client/socket",
        )
    )
    ws.write("crash/recurse.py", RECURSE)
    r = ws.run("python3 recurse.py", "crash")
    out.append(
        ws.fixture(
            "py-traceback-recursion",
            "task/python",
            r,
            family="py-traceback",
            signals=[*_chain_sigs(_probe(ws, "crash", "recurse.py"))],
            signal_source=src,
            tool_version=pyver,
        )
    )
    ws.pip_install("pyyaml")
    vpy = str(ws.tools / "venv" / "bin" / "python")
    ws.write("crash/yaml_app.py", YAML_APP)
    r = ws.run([vpy, "yaml_app.py"], "crash")
    r.argv = ["python", "yaml_app.py"]
    r.command = "python yaml_app.py"
    probe = _probe(ws, "crash", "yaml_app.py", vpy)
    out.append(
        ws.fixture(
            "py-traceback-site-packages",
            "generic/python-traceback",
            r,
            family="py-traceback",
            signals=[
                sig("exception", probe["chain"][0].splitlines()[0]),
                sig("user_frame", f'yaml_app.py", line {_line_of(YAML_APP, "yaml.safe_load")}'),
                sig("output", "worker 3: preloaded template 399"),
            ],
            signal_source=src + " (first line of the multi-line yaml error); the script's last print",
            tool_version={"python": pyver, "pyyaml": ws.sh(f"{vpy} -c 'import yaml; print(yaml.__version__)'").strip()},
            notes="400 stdout lines, then a ScannerError raised deep inside PyYAML (site-packages)",
        )
    )
    ws.write("crash/handled.py", HANDLED)
    r = ws.run("python3 handled.py", "crash")
    out.append(
        ws.fixture(
            "py-traceback-logged-exit0",
            "generic/python-traceback",
            r,
            family="py-traceback",
            signals=[
                sig("exception", "ValueError: invalid literal for int() with base 10: 'x'"),
                sig("error", "ERROR:importer:row 1 skipped"),
                sig("summary", "imported 10 units"),
            ],
            signal_source="handled.py as written: row 1 holds 'x', the other rows sum to 10",
            tool_version=pyver,
            notes="a logged traceback in a run that succeeds",
        )
    )
    return out


# -------------------------------------------------------------------- node


def _node(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["node", "--version"])
    for name, body in NODE_FILES.items():
        ws.write(f"njs/{name}", body)
    ws.write("njs/config.json", '{"port": 8080,\n "debug": true,,\n}\n')
    out = []
    cases = [
        (
            "node-json-parse-crash",
            "json_crash.js",
            [
                sig("exception", "SyntaxError"),
                sig("location", "json_crash.js:4"),
                sig("output", "worker 3: warmed cache shard 299"),
            ],
            "the script's throw site (JSON.parse in loadConfig, line 4) and its last stdout line",
        ),
        (
            "node-type-error",
            "type_error.js",
            [
                sig("exception", "TypeError: Cannot read properties of undefined (reading 'items')"),
                sig("location", "type_error.js:5"),
                sig("output", "order 1: 3"),
            ],
            "type_error.js as written: order 2 is undefined, order.items is read on line 5",
        ),
        (
            "node-unhandled-rejection",
            "rejection.js",
            [sig("exception", "Error: connect ECONNREFUSED 127.0.0.1:9"), sig("code", "code: 'ECONNREFUSED'")],
            "port 9 on 127.0.0.1, where nothing listens; Node's error properties",
        ),
        (
            "node-error-cause",
            "cause.js",
            [
                sig("exception", "Error: settings.json is invalid"),
                sig("cause", "[cause]: SyntaxError"),
                sig("location", "cause.js:5"),
            ],
            "cause.js as written: the wrapping error thrown on line 5 and its JSON.parse cause",
        ),
        (
            "node-missing-module",
            "missing_module.js",
            [sig("exception", "Error: Cannot find module 'express'"), sig("code", "MODULE_NOT_FOUND")],
            "missing_module.js requires express, which is not installed",
        ),
    ]
    for fid, script, sigs, source in cases:
        r = ws.run(["node", script], "njs")
        out.append(
            ws.fixture(fid, "task/node", r, family="node-error", signals=sigs, signal_source=source, tool_version=ver)
        )
    return out


# -------------------------------------------------------------------- help


def _help(ws: Workspace) -> list[dict[str, Any]]:
    out = []
    pyver = ws.version(["python3", "--version"])
    ws.write("cli/shipctl.py", BIG_CLI)
    r = ws.run("python3 shipctl.py --help", "cli")
    meta = json.loads(ws.path("cli/shipctl.options.json").read_text())
    out.append(
        ws.fixture(
            "help-argparse-large",
            "generic/help",
            r,
            family="help",
            signals=[
                *(sig("option", o) for o in meta["options"]),
                *(sig("command", c) for c in meta["commands"]),
                sig("usage", "usage: shipctl"),
            ],
            signal_source="the argparse parser itself: every option string of its actions and every subcommand",
            tool_version=pyver,
        )
    )
    ws.write("cli/pip_options.py", PIP_OPTIONS)
    ws.sh("python3 pip_options.py pip.options.json", "cli")
    opts = json.loads(ws.path("cli/pip.options.json").read_text())
    r = ws.run("python3 -m pip install --help", "cli")
    out.append(
        ws.fixture(
            "help-pip-install",
            "generic/help",
            r,
            family="help",
            signals=[*(sig("option", o) for o in opts), sig("usage", "Usage:")],
            signal_source="pip's own option parser for `install` (every long option)",
            tool_version=ws.version(["python3", "-m", "pip", "--version"]),
        )
    )
    r = ws.run(["tar", "--help"])
    long_opts = sorted({m.group(1) for m in re.finditer(r"\[--([\w-]+)", ws.sh("tar --usage"))})
    out.append(
        ws.fixture(
            "help-tar-gnu",
            "generic/help",
            r,
            family="help",
            signals=[*(sig("option", f"--{o}") for o in long_opts), sig("usage", "Usage: tar [OPTION...]")],
            signal_source="`tar --usage`, tar's own compact option list (every long option)",
            tool_version=ws.version(["tar", "--version"]),
        )
    )
    r = ws.run(["ssh", "-h"])
    out.append(
        ws.fixture(
            "help-ssh-usage-error",
            "generic/help",
            r,
            family="help",
            signals=[sig("usage", "usage: ssh"), sig("option", "[-p port]"), sig("option", "destination")],
            signal_source="ssh's usage synopsis (ssh -h is an unknown option: exit 255)",
            tool_version=ws.version(["ssh", "-V"]),
        )
    )
    r = ws.run(["rsync", "--help"])
    opts = sorted(
        {
            w.split("=")[0].rstrip(",")
            for ln in ws.sh("rsync --help").splitlines()
            for w in ln.split()
            if w.startswith("--") and len(w) > 3
        }
    )
    out.append(
        ws.fixture(
            "help-rsync",
            "generic/help",
            r,
            family="help",
            signals=[*(sig("option", o) for o in opts), sig("usage", "Usage: rsync [OPTION]...")],
            signal_source="every --option token of rsync --help, listed by the capture",
            tool_version=ws.version(["rsync", "--version"]),
        )
    )
    return out


# -------------------------------------------------------------------- logs


def _log_sigs(side: list[dict[str, str]]) -> list[dict[str, Any]]:
    sigs = []
    for rec in side:
        if "error" in rec:
            sigs.append(sig("error_line", rec["error"]))
            if "exception" in rec:
                sigs.append(sig("exception", rec["exception"]))
        else:
            sigs.append(sig("warning_line", rec["warning"]))
    return sigs


def _logs(ws: Workspace) -> list[dict[str, Any]]:
    pyver = ws.version(["python3", "--version"])
    out = []
    ws.write("logsvc/service.py", SERVICE)
    src = (
        "the generator's sidecar: each ERROR/WARNING/CRITICAL record it logged and the exception line of its traceback"
    )
    r = ws.run("python3 service.py 6000 4 11", "logsvc")
    out.append(
        ws.fixture(
            "service-log-large",
            "generic/service-log",
            r,
            family="service-log",
            signals=_log_sigs(json.loads(ws.path("logsvc/sidecar.json").read_text())),
            signal_source=src,
            tool_version=pyver,
            notes="6,000 records from the logging module, 4 errors with tracebacks",
        )
    )
    r = ws.run("python3 service.py 1500 2 5 --crash", "logsvc")
    out.append(
        ws.fixture(
            "service-log-crash",
            "generic/service-log",
            r,
            family="service-log",
            signals=_log_sigs(json.loads(ws.path("logsvc/sidecar.json").read_text())),
            signal_source=src,
            tool_version=pyver,
            notes="ends with CRITICAL and exit 1",
        )
    )
    r = ws.run("python3 service.py 120 1 3", "logsvc")
    out.append(
        ws.fixture(
            "service-log-small",
            "generic/service-log",
            r,
            family="service-log",
            signals=_log_sigs(json.loads(ws.path("logsvc/sidecar.json").read_text())),
            signal_source=src,
            tool_version=pyver,
        )
    )
    return out


# ------------------------------------------------------------ generic path


def generic_fixtures(ws: Workspace) -> list[dict[str, Any]]:
    """Outputs no rule claims (kept with the generic module's fixtures)."""
    pyver = ws.version(["python3", "--version"])
    out = []
    ws.write("dense/report.py", DENSE)
    r = ws.run("python3 report.py", "dense")
    out.append(
        ws.fixture(
            "dense-capped",
            "task/python",
            r,
            family="generic",
            signals=[
                sig("line", "inventory report (warehouse B)"),
                sig("line", "3000 SKUs listed; 2 bins over capacity: C17, F4"),
            ],
            signal_source="report.py as written: its title and closing line",
            tool_version=pyver,
            notes="dense output (unique lines): passes, capped to the budget",
        )
    )
    ws.write("streams/validate.py", STREAMS)
    r = ws.run("python3 validate.py", "streams")
    out.append(
        ws.fixture(
            "failing-run-streams",
            "task/python",
            r,
            family="generic",
            signals=[
                sig("error", "validation failed: 2 records have problems"),
                sig("error", "record 311: field 'email' is empty"),
                sig("error", "record 977: field 'zip' has 7 digits"),
            ],
            signal_source="validate.py as written: the three lines it writes to stderr before exit 2",
            tool_version=pyver,
            notes="stdout noise, stderr diagnostics, exit 2",
        )
    )
    return out
