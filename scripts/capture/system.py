"""System tools: ps, top, free, journalctl, systemctl, lsof, ss, netstat.

A "busy box" is built from real processes started here (CPU burners, a memory hog,
idle workers, many sleeps, a listener with hundreds of client connections); its
signals come from what was started (their tags and PIDs) and from machine-readable
views (`ps -o`, `/proc`). journalctl reads a real journal file written by
systemd-journal-remote from export-format records generated here (the records are the
signals). systemd is not running on the capture machine: systemctl and journalctl
failures are real; systemctl success output is synthesized from its documented format.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from capture._lib import Result, Workspace, sig, synthesized

BURNERS = 2
IDLE_WORKERS = 30
SLEEPERS = 120
LISTEN_PORT = 58181
EXTRA_PORTS = (58182, 58183)
CLIENTS = 240

LISTENER = r"""
import socket, sys, time, threading
ports = [int(p) for p in sys.argv[1:]]
socks = []
for p in ports:
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", p)); s.listen(512); socks.append(s)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", ports[0])); socks.append(u)
accepted = []
def loop(s):
    while True:
        c, _ = s.accept(); accepted.append(c)
for s in socks[:-1]:
    threading.Thread(target=loop, args=(s,), daemon=True).start()
while True:
    time.sleep(1)
"""

CLIENTS_PY = r"""
import socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
print("connected", flush=True)
time.sleep(3600)
"""

OPENER = r"""
import os, sys, time
n = int(sys.argv[1])
os.makedirs("data/cache", exist_ok=True)
handles = []
for i in range(n):
    handles.append(open(f"data/cache/segment-{i:04d}.bin", "ab"))
log = open("data/app.log", "a")
print("opened", flush=True)
time.sleep(3600)
"""


BOX = r"""
import json, os, subprocess, sys, time
py = sys.executable
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
pids = {}
def start(argv, cwd=None, wait=False):
    p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE if wait else subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if wait:
        p.stdout.readline()
    return p.pid
burners, workers, sleepers, port, extra, clients = (int(a) for a in sys.argv[1:7])
pids["burners"] = [start([py, "-c", "while True: pass", f"burner-{k}"]) for k in range(1, burners + 1)]
pids["hog"] = start([py, "-c", "import time; b = bytearray(400 * 2**20); b[::4096] = b'x' * len(b[::4096]); "
                     "print('ok', flush=True); time.sleep(3600)", "hog-mem"], wait=True)
for k in range(workers):
    start([py, "-c", "import time; time.sleep(3600)", "queue-worker", f"--id={k}"])
for _ in range(sleepers):
    start(["sleep", "3600"])
pids["listener"] = start([py, "listener.py", str(port), *(str(port + 1 + k) for k in range(extra))], cwd="net")
time.sleep(0.5)
start([py, "clients.py", str(port), str(clients)], cwd="net", wait=True)
start([py, "clients.py", str(port + 1), "12"], cwd="net", wait=True)
pids["opener"] = start([py, "opener.py", "400"], cwd="files", wait=True)
json.dump(pids, open("box-pids.json", "w"))
print("ready", flush=True)
time.sleep(3600)
"""


class Box:
    """The busy box: its own PID and network namespaces (`unshare`), so the captured
    process and socket tables hold only what the capture started, nothing of the host."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        ws.write("box.py", BOX)
        ws.write("net/listener.py", LISTENER)
        ws.write("net/clients.py", CLIENTS_PY)
        ws.write("files/opener.py", OPENER)
        self.proc = subprocess.Popen(
            [
                "unshare",
                "--pid",
                "--fork",
                "--mount-proc",
                "--net",
                sys.executable,
                "box.py",
                str(BURNERS),
                str(IDLE_WORKERS),
                str(SLEEPERS),
                str(LISTEN_PORT),
                str(len(EXTRA_PORTS)),
                str(CLIENTS),
            ],
            cwd=ws.root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != b"ready":
            raise RuntimeError("the busy box did not start")
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        self.init = int(children[0])
        self.pids = json.loads(ws.path("box-pids.json").read_text())

    def run(self, argv: list[str]) -> Result:
        """Run `argv` inside the box; the fixture records `argv` itself."""
        r = self.ws.run(["nsenter", "-t", str(self.init), "-p", "-n", "-m", *argv])
        r.argv = argv
        r.command = shlex.join(argv)
        return r

    def stop(self) -> None:
        # Killing a PID namespace's init kills every process in it.
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.init, signal.SIGKILL)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("ps", "top", "free", "lsof", "ss", "netstat", "unshare", "nsenter")
    fixtures: list[dict[str, Any]] = []
    box = Box(ws)
    try:
        time.sleep(2.5)  # burners accumulate CPU time, so %CPU ranks them first
        fixtures += _busy_box(ws, box)
    finally:
        box.stop()
    fixtures += _free(ws)
    fixtures += _journal(ws)
    fixtures += _systemctl(ws)
    return fixtures


# ------------------------------------------------------------------ busy box


def _busy_box(ws: Workspace, box: Box) -> list[dict[str, Any]]:
    burn_pids = box.pids["burners"]
    hog_pid = box.pids["hog"]
    listener_pid = box.pids["listener"]
    opener_pid = box.pids["opener"]
    fixtures: list[dict[str, Any]] = []
    psver = ws.version(["ps", "--version"])
    burner_sigs = [sig("top_cpu", f"burner-{k}") for k in range(1, BURNERS + 1)]
    fixtures.append(
        ws.fixture(
            "ps-aux-busy",
            "system/ps",
            box.run(["ps", "aux"]),
            family="ps",
            signals=[
                *burner_sigs,
                sig("top_mem", "hog-mem"),
                sig("process", "listener.py 58181 58182 58183"),
                sig("process", "opener.py 400"),
                sig("header", "USER PID %CPU %MEM"),
            ],
            signal_source="the processes started for the capture (their argv tags): burners are the top "
            "CPU consumers, hog-mem holds 400 MiB; unique long-running commands; the ps header",
            tool_version=psver,
            notes="a busy box in its own PID namespace: 2 CPU burners, a memory hog, 30 idle workers, "
            "120 sleeps, a listener with 252 client connections",
        )
    )
    fixtures.append(
        ws.fixture(
            "ps-ef-busy",
            "system/ps",
            box.run(["ps", "-ef"]),
            family="ps",
            signals=[
                sig("process", "listener.py 58181 58182 58183"),
                sig("process", "opener.py 400"),
                *(sig("process", f"burner-{k}") for k in range(1, BURNERS + 1)),
                sig("header", "UID PID PPID C STIME TTY TIME CMD"),
            ],
            signal_source="the processes started for the capture (their argv tags); the ps -ef header",
            tool_version=psver,
        )
    )
    fixtures.append(
        ws.fixture(
            "ps-o-sorted",
            "system/ps",
            box.run(["ps", "-eo", "pid,ppid,user,%cpu,%mem,rss,args", "--sort=-%mem"]),
            family="ps",
            signals=[
                sig("top_mem", "hog-mem"),
                sig("header", "PID PPID USER %CPU %MEM RSS COMMAND"),
                *burner_sigs,
            ],
            signal_source="the processes started for the capture: hog-mem has the largest RSS, the burners "
            "use the most CPU",
            tool_version=psver,
        )
    )
    fixtures.append(
        ws.fixture(
            "ps-bad-option",
            "system/ps",
            ws.run(["ps", "--bogus-option"]),
            family="ps",
            signals=[sig("error", "unknown gnu long option")],
            signal_source="procps' own error message for an unknown long option (stderr)",
            tool_version=psver,
        )
    )
    fixtures.append(
        ws.fixture(
            "ps-no-such-pid",
            "system/ps",
            ws.run(["ps", "-p", "999999", "-o", "pid,args"]),
            family="ps",
            signals=[sig("header", "PID COMMAND")],
            signal_source="ps -o column headers (ps exits 1 when no process matched)",
            tool_version=psver,
        )
    )

    topver = ws.version(["top", "-v"])
    fixtures.append(
        ws.fixture(
            "top-batch-busy",
            "observability/top",
            box.run(["top", "-b", "-n", "1", "-w", "200"]),
            family="top",
            signals=[
                *(sig("top_cpu_pid", f" {p} root") for p in burn_pids),
                sig("summary", "Tasks:"),
                sig("summary", "load average:"),
                sig("summary", "MiB Mem"),
            ],
            signal_source="PIDs of the CPU burners started for the capture (they top the CPU column); "
            "top's summary area labels",
            tool_version=topver,
        )
    )
    fixtures.append(
        ws.fixture(
            "top-batch-by-mem",
            "observability/top",
            box.run(["top", "-b", "-n", "1", "-c", "-o", "%MEM", "-w", "250"]),
            family="top",
            signals=[sig("top_mem", "hog-mem"), sig("top_mem_pid", f" {hog_pid} root"), sig("summary", "Tasks:")],
            signal_source="the memory hog started for the capture (400 MiB RSS) tops the %MEM sort",
            tool_version=topver,
        )
    )
    fixtures.append(
        ws.fixture(
            "top-no-such-pid",
            "observability/top",
            box.run(["top", "-b", "-n", "1", "-p", "999999"]),
            family="top",
            signals=[sig("summary", "Tasks: 0 total"), sig("header", "PID USER")],
            signal_source="top's summary for a pid list that matches nothing (the pid does not exist)",
            tool_version=topver,
        )
    )

    ports = (LISTEN_PORT, *EXTRA_PORTS)
    ssver = ws.version(["ss", "-V"])
    fixtures.append(
        ws.fixture(
            "ss-tulpn",
            "service/ss",
            box.run(["ss", "-tulpn"]),
            family="sockets",
            signals=[*(sig("listen", f"127.0.0.1:{p}") for p in ports), sig("process", f"pid={listener_pid}")],
            signal_source="the ports the capture's listener bound (TCP and UDP) and its PID",
            tool_version=ssver,
        )
    )
    fixtures.append(
        ws.fixture(
            "ss-tanp-many",
            "service/ss",
            box.run(["ss", "-tanp"]),
            family="sockets",
            signals=[*(sig("listen", f"127.0.0.1:{p}") for p in ports), sig("established", str(CLIENTS))],
            signal_source=f"the listener's ports; {CLIENTS} client connections to 127.0.0.1:{LISTEN_PORT} "
            "opened by the capture (each appears twice: client and accepted end)",
            tool_version=ssver,
            notes="hundreds of ESTAB sockets on one port",
        )
    )
    fixtures.append(
        ws.fixture(
            "ss-bad-option",
            "service/ss",
            ws.run(["ss", "-tulpn", "--bogus"]),
            family="sockets",
            signals=[sig("error", "unrecognized option")],
            signal_source="getopt's error for an unknown option (stderr)",
            tool_version=ssver,
        )
    )
    nsver = ws.version(["netstat", "--version"])
    fixtures.append(
        ws.fixture(
            "netstat-tulpn",
            "service/netstat",
            box.run(["netstat", "-tulpn"]),
            family="sockets",
            signals=[*(sig("listen", f"127.0.0.1:{p}") for p in ports), sig("process", f"{listener_pid}/python")],
            signal_source="the ports the capture's listener bound and its PID",
            tool_version=nsver,
        )
    )
    fixtures.append(
        ws.fixture(
            "netstat-tanp-many",
            "service/netstat",
            box.run(["netstat", "-tanp"]),
            family="sockets",
            signals=[*(sig("listen", f"127.0.0.1:{p}") for p in ports), sig("established", str(CLIENTS))],
            signal_source=f"the listener's ports; the {CLIENTS} client connections opened by the capture",
            tool_version=nsver,
        )
    )
    fixtures.append(
        ws.fixture(
            "netstat-bad-option",
            "service/netstat",
            ws.run(["netstat", "-Q"]),
            family="sockets",
            signals=[sig("error", "invalid option")],
            signal_source="netstat's error for an unknown option",
            tool_version=nsver,
        )
    )

    lsofver = ws.version(["lsof", "-v"])
    fixtures.append(
        ws.fixture(
            "lsof-process-many-files",
            "service/lsof",
            box.run(["lsof", "-p", str(opener_pid)]),
            family="lsof",
            signals=[
                sig("file", "data/app.log"),
                sig("file", "segment-0000.bin"),
                sig("file", "segment-0399.bin"),
                sig("header", "COMMAND PID USER FD TYPE"),
            ],
            signal_source="the files the capture's opener process holds open (400 segments + a log)",
            tool_version=lsofver,
            notes="a process with 400 open files plus its mapped libraries",
        )
    )
    fixtures.append(
        ws.fixture(
            "lsof-network",
            "service/lsof",
            box.run(["lsof", "-i", "-P", "-n"]),
            family="lsof",
            signals=[*(sig("listen", f"127.0.0.1:{p} (LISTEN)") for p in ports)],
            signal_source="the listener's TCP ports (lsof shows them LISTEN)",
            tool_version=lsofver,
        )
    )
    fixtures.append(
        ws.fixture(
            "lsof-port-listen",
            "service/lsof",
            box.run(["lsof", "-i", f":{LISTEN_PORT}", "-s", "TCP:LISTEN", "-P", "-n"]),
            family="lsof",
            signals=[sig("listen", f"127.0.0.1:{LISTEN_PORT} (LISTEN)"), sig("pid", f" {listener_pid} ")],
            signal_source="the listener's port and PID",
            tool_version=lsofver,
        )
    )
    fixtures.append(
        ws.fixture(
            "lsof-missing-path",
            "service/lsof",
            ws.run(["lsof", "/nonexistent/app.sock"]),
            family="lsof",
            signals=[sig("error", "status error on /nonexistent/app.sock: No such file or directory")],
            signal_source="lsof's stat error for the path the capture asked about",
            tool_version=lsofver,
        )
    )
    return fixtures


# ---------------------------------------------------------------------- free


def _free(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["free", "--version"])
    meminfo = {
        ln.split(":")[0]: int(ln.split()[1]) for ln in Path("/proc/meminfo").read_text().splitlines() if ln.strip()
    }
    out = []
    r = ws.run(["free", "-h"])
    out.append(
        ws.fixture(
            "free-human",
            "observability/free",
            r,
            family="free",
            signals=[sig("row", "Mem:"), sig("row", "Swap:"), sig("header", "total used free")],
            signal_source="free's row labels and header",
            tool_version=ver,
        )
    )
    r = ws.run(["free", "-k"])
    out.append(
        ws.fixture(
            "free-kib",
            "observability/free",
            r,
            family="free",
            signals=[sig("total", str(meminfo["MemTotal"])), sig("row", "Swap:")],
            signal_source="MemTotal from /proc/meminfo (free -k prints it as the Mem: total)",
            tool_version=ver,
        )
    )
    r = ws.run(["free", "-m", "-s", "0.2", "-c", "25"])
    out.append(
        ws.fixture(
            "free-sampled",
            "observability/free",
            r,
            family="free",
            signals=[sig("row", "Mem:"), sig("row", "Swap:"), sig("header", "total used free")],
            signal_source="free's row labels and header (25 samples)",
            tool_version=ver,
            notes="repeated samples: the first and last stay",
        )
    )
    r = ws.run(["free", "--gibi", "-z"])
    out.append(
        ws.fixture(
            "free-bad-option",
            "observability/free",
            r,
            family="free",
            signals=[sig("error", "invalid option")],
            signal_source="getopt's error for an unknown option",
            tool_version=ver,
        )
    )
    return out


# ---------------------------------------------------------------- journalctl

UNITS = {
    "nginx": ("nginx.service", "nginx"),
    "api": ("api.service", "gunicorn"),
    "worker": ("worker.service", "celery"),
    "cron": ("cron.service", "CRON"),
    "sshd": ("ssh.service", "sshd"),
    "kernel": (None, "kernel"),
}


def _journal_records(rng: random.Random, n: int) -> tuple[str, list[dict[str, str]]]:
    """Export-format records (the journal's own serialization) and the error/warning ones."""
    base = 1_767_225_600_000_000  # 2026-01-01 00:00:00 UTC, in µs
    chunks: list[str] = []
    notable: list[dict[str, str]] = []
    special = {
        700: ("api", 3, "worker 3 crashed: sqlalchemy.exc.OperationalError: could not connect to server"),
        701: ("api", 4, "Traceback was written to /var/log/api/crash-700.txt"),
        1500: (
            "nginx",
            3,
            "[error] 812#812: *4411 connect() failed (111: Connection refused) while connecting "
            'to upstream, upstream: "http://127.0.0.1:8000/api/orders"',
        ),
        2100: ("kernel", 3, "Out of memory: Killed process 4242 (celery) total-vm:2316020kB, anon-rss:1811200kB"),
        2101: ("worker", 3, "worker.service: Main process exited, code=killed, status=9/KILL"),
        2102: ("worker", 4, "worker.service: Failed with result 'signal'."),
        2600: ("sshd", 4, "Failed password for invalid user admin from 203.0.113.9 port 52144 ssh2"),
    }
    for i in range(n):
        if i in special:
            key, prio, msg = special[i]
        else:
            key = rng.choice(["nginx", "nginx", "api", "api", "worker", "cron"])
            prio = 6
            if key == "nginx":
                msg = (
                    f'10.0.{rng.randint(0, 3)}.{rng.randint(1, 254)} - - "GET /api/orders/{rng.randint(1, 9999)} '
                    f'HTTP/1.1" 200 {rng.randint(100, 9000)}'
                )
            elif key == "api":
                msg = f"request_id={rng.randint(10**7, 10**8)} handled in {rng.uniform(1, 80):.1f}ms"
            elif key == "worker":
                msg = f"Task tasks.sync_prices[{rng.randint(10**5, 10**6)}] succeeded in {rng.uniform(0.1, 3):.2f}s"
            else:
                msg = "(root) CMD (/usr/local/bin/rotate-logs --quiet)"
        unit, ident = UNITS[key]
        pid = {"nginx": 812, "api": 1404, "worker": 1520, "cron": 2210 + i % 50, "sshd": 3011, "kernel": 0}[key]
        fields = [
            f"__REALTIME_TIMESTAMP={base + i * 1_150_000}",
            f"__MONOTONIC_TIMESTAMP={i * 1_150_000 + 5_000_000}",
            "_BOOT_ID=6f1d3c2ab8e54b0f9c1e2d3a4b5c6d7e",
            "_HOSTNAME=web-01",
            f"SYSLOG_IDENTIFIER={ident}",
            f"PRIORITY={prio}",
            f"MESSAGE={msg}",
        ]
        if pid:
            fields.append(f"_PID={pid}")
        if unit:
            fields.append(f"_SYSTEMD_UNIT={unit}")
        else:
            fields.append("_TRANSPORT=kernel")
        chunks.append("\n".join(fields) + "\n\n")
        if prio <= 4:
            notable.append({"message": msg, "priority": str(prio)})
    return "".join(chunks), notable


def _journal(ws: Workspace) -> list[dict[str, Any]]:
    out = []
    ver = ws.version(["journalctl", "--version"])
    r = ws.run(["journalctl", "-u", "nginx", "--no-pager", "-n", "50"])
    out.append(
        ws.fixture(
            "journalctl-no-journal",
            "service/journalctl",
            r,
            family="journalctl",
            signals=[sig("message", "No journal files were found."), sig("message", "-- No entries --")],
            signal_source="journalctl's own messages on a machine without journald (stderr/stdout)",
            tool_version=ver,
        )
    )
    remote = "/lib/systemd/systemd-journal-remote"
    if not os.path.exists(remote):
        ws.apt_install("systemd-journal-remote")
    if not os.path.exists(remote):
        return out
    rng = random.Random(5)
    export, notable = _journal_records(rng, 3000)
    ws.write("journal/app.export", export)
    ws.sh(f"{remote} --output=journal/app.journal journal/app.export")
    r = ws.run(["journalctl", "--file", "journal/app.journal", "--no-pager"])
    out.append(
        ws.fixture(
            "journalctl-file-large",
            "service/journalctl",
            r,
            family="journalctl",
            signals=[sig("error_line", n["message"]) for n in notable],
            signal_source="the export-format records written into the journal: every record with "
            "PRIORITY <= 4 (warning or worse)",
            tool_version=ver,
            notes="3,000 entries from nginx/api/worker/cron/sshd/kernel in a journal made by systemd-journal-remote",
        )
    )
    r = ws.run(["journalctl", "--file", "journal/app.journal", "--no-pager", "-p", "warning", "-o", "short-iso"])
    out.append(
        ws.fixture(
            "journalctl-file-priority",
            "service/journalctl",
            r,
            family="journalctl",
            signals=[sig("error_line", n["message"]) for n in notable],
            signal_source="the export-format records with PRIORITY <= 4",
            tool_version=ver,
        )
    )
    r = ws.run(["journalctl", "--file", "journal/app.journal", "--no-pager", "-u", "worker.service", "-n", "400"])
    worker = [n for n in notable if "worker.service" in n["message"]]
    out.append(
        ws.fixture(
            "journalctl-file-unit",
            "service/journalctl",
            r,
            family="journalctl",
            signals=[sig("error_line", n["message"]) for n in worker],
            signal_source="the worker.service records with PRIORITY <= 4",
            tool_version=ver,
        )
    )
    ws.write("journal/broken.journal", "this is not a journal file\n" * 20)
    r = ws.run(["journalctl", "--file", "journal/broken.journal", "--no-pager"])
    out.append(
        ws.fixture(
            "journalctl-file-corrupt",
            "service/journalctl",
            r,
            family="journalctl",
            signals=[sig("error", "Failed to open files: Bad message")],
            signal_source="the corrupt file the capture wrote: journalctl cannot open it",
            tool_version=ver,
        )
    )
    return out


# ----------------------------------------------------------------- systemctl

SYSTEMCTL_DOC = (
    "systemctl(1) (freedesktop.org man page: status shows the unit's Loaded/Active/Main PID/CGroup "
    "lines followed by recent journal lines; list-units prints UNIT LOAD ACTIVE SUB DESCRIPTION "
    "columns, a LOAD/ACTIVE/SUB legend and 'N loaded units listed.')"
)


def _systemctl(ws: Workspace) -> list[dict[str, Any]]:
    out = []
    ver = ws.version(["systemctl", "--version"])
    r = ws.run(["systemctl", "status", "nginx"])
    out.append(
        ws.fixture(
            "systemctl-status-no-systemd",
            "service/systemctl-status",
            r,
            family="systemctl",
            signals=[sig("error", "System has not been booted with systemd"), sig("error", "Failed to connect to bus")],
            signal_source="systemctl's own errors on a machine whose PID 1 is not systemd",
            tool_version=ver,
        )
    )
    r = ws.run(["systemctl", "restart", "nginx"])
    out.append(
        ws.fixture(
            "systemctl-restart-no-systemd",
            "service/systemctl",
            r,
            family="systemctl",
            signals=[sig("error", "System has not been booted with systemd"), sig("error", "Failed to connect to bus")],
            signal_source="systemctl's own errors on a machine whose PID 1 is not systemd",
            tool_version=ver,
        )
    )
    r = ws.run(["systemctl", "list-units", "--type=service", "--no-pager"])
    out.append(
        ws.fixture(
            "systemctl-list-no-systemd",
            "service/systemctl-units",
            r,
            family="systemctl",
            signals=[sig("error", "System has not been booted with systemd")],
            signal_source="systemctl's own error on a machine whose PID 1 is not systemd",
            tool_version=ver,
        )
    )
    out += _systemctl_synth(ver)
    return out


def _systemctl_synth(ver: str) -> list[dict[str, Any]]:
    rng = random.Random(9)
    out = []
    # status of a running unit, with its journal tail
    journal = []
    for i in range(10):
        journal.append(
            f"Jan 01 09:{10 + i:02d}:0{i % 10} web-01 nginx[812]: 10.0.0.{rng.randint(2, 250)} - - "
            f'"GET /healthz HTTP/1.1" 200 2'
        )
    status_ok = (
        "\n".join(
            [
                "● nginx.service - A high performance web server and a reverse proxy server",
                "     Loaded: loaded (/lib/systemd/system/nginx.service; enabled; preset: enabled)",
                "     Active: active (running) since Thu 2026-01-01 08:00:03 UTC; 1h 12min ago",
                "       Docs: man:nginx(8)",
                "    Process: 801 ExecStartPre=/usr/sbin/nginx -t -q -g daemon on; master_process on; (code=exited, status=0/SUCCESS)",
                "    Process: 810 ExecStart=/usr/sbin/nginx -g daemon on; master_process on; (code=exited, status=0/SUCCESS)",
                "   Main PID: 812 (nginx)",
                "      Tasks: 5 (limit: 9387)",
                "     Memory: 7.9M",
                "        CPU: 1.204s",
                "     CGroup: /system.slice/nginx.service",
                '             ├─812 "nginx: master process /usr/sbin/nginx -g daemon on; master_process on;"',
                *(f'             {"└" if k == 3 else "├"}─{813 + k} "nginx: worker process"' for k in range(4)),
                "",
                *journal,
            ]
        )
        + "\n"
    )
    out.append(
        synthesized(
            "systemctl-status-running",
            "service/systemctl-status",
            family="systemctl",
            command="systemctl status nginx",
            exit_code=0,
            stdout=status_ok,
            signals=[
                sig("state", "Active: active (running)"),
                sig("pid", "Main PID: 812"),
                sig("unit", "nginx.service"),
            ],
            format_source=SYSTEMCTL_DOC,
            tool_version="systemd 252 (252.39-1~deb12u1)",
        )
    )
    # a failed unit: exit 3, the error lines of its journal
    failed_journal = [
        "Jan 01 09:41:02 web-01 systemd[1]: Starting api.service - Orders API (gunicorn)...",
        "Jan 01 09:41:03 web-01 gunicorn[5120]: [2026-01-01 09:41:03 +0000] [5120] [INFO] Starting gunicorn 21.2.0",
        "Jan 01 09:41:03 web-01 gunicorn[5120]: [2026-01-01 09:41:03 +0000] [5120] [ERROR] Connection in use: ('0.0.0.0', 8000)",
        "Jan 01 09:41:04 web-01 gunicorn[5120]: [2026-01-01 09:41:04 +0000] [5120] [ERROR] Retrying in 1 second.",
        "Jan 01 09:41:08 web-01 gunicorn[5120]: [2026-01-01 09:41:08 +0000] [5120] [ERROR] Can't connect to ('0.0.0.0', 8000)",
        "Jan 01 09:41:08 web-01 systemd[1]: api.service: Main process exited, code=exited, status=1/FAILURE",
        "Jan 01 09:41:08 web-01 systemd[1]: api.service: Failed with result 'exit-code'.",
        "Jan 01 09:41:08 web-01 systemd[1]: Failed to start api.service - Orders API (gunicorn).",
    ]
    status_failed = (
        "\n".join(
            [
                "× api.service - Orders API (gunicorn)",
                "     Loaded: loaded (/etc/systemd/system/api.service; enabled; preset: enabled)",
                "     Active: failed (Result: exit-code) since Thu 2026-01-01 09:41:08 UTC; 2min 5s ago",
                "   Duration: 5.120s",
                "    Process: 5120 ExecStart=/srv/api/venv/bin/gunicorn -b 0.0.0.0:8000 app:app (code=exited, status=1/FAILURE)",
                "   Main PID: 5120 (code=exited, status=1/FAILURE)",
                "        CPU: 812ms",
                "",
                *failed_journal,
            ]
        )
        + "\n"
    )
    out.append(
        synthesized(
            "systemctl-status-failed",
            "service/systemctl-status",
            family="systemctl",
            command="systemctl status api.service",
            exit_code=3,
            stdout=status_failed,
            signals=[
                sig("state", "Active: failed (Result: exit-code)"),
                sig("error", "Connection in use: ('0.0.0.0', 8000)"),
                sig("error", "status=1/FAILURE"),
                sig("error", "Failed to start api.service"),
            ],
            format_source=SYSTEMCTL_DOC,
            tool_version="systemd 252 (252.39-1~deb12u1)",
        )
    )
    # list-units with ~140 services, two failed
    names = [
        "accounts-daemon",
        "apparmor",
        "apport",
        "atd",
        "blk-availability",
        "chrony",
        "console-setup",
        "containerd",
        "cron",
        "dbus",
        "docker",
        "e2scrub_reap",
        "finalrd",
        "fwupd",
        "getty@tty1",
        "grub-common",
        "irqbalance",
        "keyboard-setup",
        "kmod-static-nodes",
        "lvm2-monitor",
        "ModemManager",
        "multipathd",
        "networkd-dispatcher",
        "nginx",
        "packagekit",
        "polkit",
        "postgresql@15-main",
        "redis-server",
        "rsyslog",
        "serial-getty@ttyS0",
        "setvtrgb",
        "snapd",
        "ssh",
        "sysstat",
        "systemd-binfmt",
        "systemd-fsck-root",
        "systemd-journal-flush",
        "systemd-journald",
        "systemd-logind",
        "systemd-modules-load",
        "systemd-networkd",
        "systemd-random-seed",
        "systemd-remount-fs",
        "systemd-resolved",
        "systemd-sysctl",
        "systemd-sysusers",
        "systemd-timesyncd",
        "systemd-tmpfiles-setup",
        "systemd-tmpfiles-setup-dev",
        "systemd-udev-trigger",
        "systemd-udevd",
        "systemd-update-utmp",
        "systemd-user-sessions",
        "thermald",
        "ufw",
        "unattended-upgrades",
        "udisks2",
        "upower",
        "user-runtime-dir@1000",
        "user@1000",
        "api",
        "worker",
        "celery-beat",
        "flower",
        "node-exporter",
        "prometheus",
        "grafana-server",
        "loki",
        "promtail",
    ]
    names += [f"app-shard@{k}" for k in range(70)]
    failed = {"worker", "app-shard@17"}
    rows = []
    width = max(len(n) for n in names) + len(".service") + 2
    for n in sorted(names, key=str.lower):
        unit = f"{n}.service"
        if n in failed:
            rows.append(f"● {unit:<{width - 2}}loaded failed failed  {n.replace('-', ' ').title()} service")
            continue
        oneshot = n.startswith(
            (
                "systemd-tmpfiles",
                "systemd-sysctl",
                "systemd-remount",
                "systemd-random",
                "kmod",
                "keyboard",
                "console",
                "setvtrgb",
                "systemd-udev-trigger",
                "systemd-modules",
                "systemd-fsck",
                "systemd-journal-flush",
                "systemd-sysusers",
                "systemd-binfmt",
                "finalrd",
                "grub",
                "apport",
                "blk",
                "e2scrub",
            )
        )
        sub = "exited " if oneshot else "running"
        rows.append(f"  {unit:<{width - 2}}loaded active {sub} {n.replace('-', ' ').title()} service")
    header = f"  {'UNIT':<{width - 2}}LOAD   ACTIVE SUB     DESCRIPTION"
    legend = [
        "",
        "LOAD   = Reflects whether the unit definition was properly loaded.",
        "ACTIVE = The high-level unit activation state, i.e. generalization of SUB.",
        "SUB    = The low-level unit activation state, values depend on unit type.",
        f"{len(rows)} loaded units listed.",
        "To show all installed unit files use 'systemctl list-unit-files'.",
    ]
    listing = "\n".join([header, *rows, *legend]) + "\n"
    out.append(
        synthesized(
            "systemctl-list-units-services",
            "service/systemctl-units",
            family="systemctl",
            command="systemctl list-units --type=service --no-pager",
            exit_code=0,
            stdout=listing,
            signals=[
                sig("failed_unit", "worker.service"),
                sig("failed_unit", "app-shard@17.service"),
                sig("count", f"{len(rows)} loaded units listed"),
            ],
            format_source=SYSTEMCTL_DOC,
            tool_version="systemd 252 (252.39-1~deb12u1)",
        )
    )
    return out
