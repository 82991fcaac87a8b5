"""ping, dig and ssh against 127.0.0.1: replies, failures, a local DNS server, a throwaway sshd.

* ping: real echo replies from 127.0.0.1 and a real unresolvable name; a lossy run
  cannot happen on loopback, so it is synthesized from iputils' documented format.
* dig: a small authoritative DNS server written here (UDP and TCP, stdlib sockets)
  answers A/MX/TXT queries and NXDOMAIN, so dig's answers are real; a port nothing
  listens on and a port that never answers give the real failures.
* ssh: an sshd started as root on a free port with its own host key and
  authorized_keys; refused, unknown host, changed host key, denied key, a verbose
  success and a verbose remote failure are all real.

Signals come from the data served (zone records, the remote command's output), the
server configuration (only public keys accepted), and documented messages.
"""

from __future__ import annotations

import shutil
import socket
import socketserver
import struct
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from capture._lib import Result, Skip, Workspace, sig, synthesized

PING, DIG, SSH = "network/ping", "network/dig", "network/ssh"

# ---------------------------------------------------------------------- DNS

TTL = 300
ZONE: dict[tuple[str, str], list[str]] = {
    ("example.test", "A"): ["192.0.2.10"],
    ("www.example.test", "A"): ["192.0.2.11", "192.0.2.12"],
    ("example.test", "MX"): ["10 mx1.example.test", "20 mx2.example.test"],
    ("mx1.example.test", "A"): ["192.0.2.25"],
    ("mx2.example.test", "A"): ["192.0.2.26"],
    ("example.test", "TXT"): ["v=spf1 mx -all", "site-verification=4f9c2a71e0"],
    ("pool.example.test", "A"): [f"198.51.100.{i}" for i in range(1, 61)],
    ("keys.example.test", "TXT"): [f"key-{i:03d}=k{(i * 7919) % 100000:05d}-rotated-2026-11" for i in range(1, 241)],
}
QTYPES = {1: "A", 15: "MX", 16: "TXT", 28: "AAAA", 255: "ANY"}
QCODES = {v: k for k, v in QTYPES.items()}


def _encode_name(name: str) -> bytes:
    out = b""
    for label in name.rstrip(".").split("."):
        out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def _rdata(rtype: str, value: str) -> bytes:
    if rtype == "A":
        return socket.inet_aton(value)
    if rtype == "MX":
        pref, host = value.split()
        return struct.pack("!H", int(pref)) + _encode_name(host)
    data = value.encode()
    return bytes([len(data)]) + data  # TXT: one character-string


def dns_answer(query: bytes) -> bytes:
    """A response to `query` from ZONE (NXDOMAIN when the name is unknown)."""
    qid, _flags, qd = struct.unpack("!HHH", query[:6])
    i = 12
    labels = []
    while query[i]:
        n = query[i]
        labels.append(query[i + 1 : i + 1 + n].decode())
        i += n + 1
    qname = ".".join(labels).lower()
    qtype_code, _qclass = struct.unpack("!HH", query[i + 1 : i + 5])
    question = query[12 : i + 5]
    qtype = QTYPES.get(qtype_code, "?")
    names = {n for n, _ in ZONE}
    answers = []
    for (name, rtype), values in ZONE.items():
        if name == qname and qtype in (rtype, "ANY"):
            for v in values:
                rd = _rdata(rtype, v)
                answers.append(struct.pack("!HHHIH", 0xC00C, QCODES[rtype], 1, TTL, len(rd)) + rd)
    rcode = 0 if qname in names else 3
    flags = 0x8400 | rcode  # QR, AA
    header = struct.pack("!HHHHHH", qid, flags, qd, len(answers), 0, 0)
    return header + question + b"".join(answers)


class _UDP(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        data, sock = self.request
        sock.sendto(dns_answer(data), self.client_address)


class _TCP(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        head = self.request.recv(2)
        if len(head) < 2:
            return
        (n,) = struct.unpack("!H", head)
        data = b""
        while len(data) < n:
            chunk = self.request.recv(n - len(data))
            if not chunk:
                return
            data += chunk
        resp = dns_answer(data)
        self.request.sendall(struct.pack("!H", len(resp)) + resp)


class DnsServer:
    def __init__(self) -> None:
        self.udp = socketserver.ThreadingUDPServer(("127.0.0.1", 0), _UDP)
        port = self.udp.server_address[1]
        self.tcp = socketserver.ThreadingTCPServer(("127.0.0.1", port), _TCP)
        self.port = port
        for srv in (self.udp, self.tcp):
            threading.Thread(target=srv.serve_forever, daemon=True).start()

    def stop(self) -> None:
        for srv in (self.udp, self.tcp):
            srv.shutdown()
            srv.server_close()


def _free_port(kind: int = socket.SOCK_STREAM) -> int:
    s = socket.socket(socket.AF_INET, kind)
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


# ---------------------------------------------------------------------- ping


def _ping(ws: Workspace, out: list[dict[str, Any]]) -> None:
    ws.require("ping")
    version = ws.version(["ping", "-V"])

    def fx(id: str, r: Result, signals: list[Any], source: str) -> None:
        out.append(ws.fixture(id, PING, r, family="ping", signals=signals, signal_source=source, tool_version=version))

    r = ws.run(["ping", "-c", "4", "127.0.0.1"])
    fx(
        "ping-loopback",
        r,
        [sig("summary", "4 packets transmitted, 4 received, 0% packet loss"), sig("rtt", "rtt min/avg/max/mdev")],
        "4 echo requests to loopback all answer (-c 4)",
    )
    r = ws.run(["ping", "-c", "400", "-i", "0.002", "127.0.0.1"])
    fx(
        "ping-many-replies",
        r,
        [sig("summary", "400 packets transmitted, 400 received, 0% packet loss"), sig("rtt", "rtt min/avg/max/mdev")],
        "400 echo requests to loopback all answer (-c 400, root may use -i 0.002)",
    )
    r = ws.run(["ping", "-c", "2", "no-such-host.invalid"])
    fx(
        "ping-unknown-host",
        r,
        [sig("error", "no-such-host.invalid: Name or service not known")],
        "the .invalid TLD never resolves (RFC 6761)",
    )
    # Packet loss needs a real network path; built from iputils' format instead.
    lines = ["PING 10.40.0.7 (10.40.0.7) 56(84) bytes of data."]
    received = 0
    for seq in range(1, 21):
        if seq in (4, 5, 6, 11, 17):
            lines.append(f"From 10.40.0.1 icmp_seq={seq} Destination Host Unreachable")
        elif seq in (9, 14):
            lines.append(f"no answer yet for icmp_seq={seq}")
        else:
            received += 1
            lines.append(f"64 bytes from 10.40.0.7: icmp_seq={seq} ttl=63 time={1.1 + (seq * 37 % 11) / 10:.1f} ms")
    loss = round(100 * (20 - received) / 20)
    stats = f"20 packets transmitted, {received} received, +5 errors, {loss}% packet loss, time 19032ms"
    lines += [
        "",
        "--- 10.40.0.7 ping statistics ---",
        stats,
        "rtt min/avg/max/mdev = 1.100/1.582/2.100/0.302 ms, pipe 3",
    ]
    out.append(
        synthesized(
            "ping-packet-loss",
            PING,
            family="ping",
            command="ping -c 20 -O 10.40.0.7",
            exit_code=1,
            stdout="\n".join(lines) + "\n",
            signals=[
                sig("summary", stats),
                sig("error", "icmp_seq=4 Destination Host Unreachable"),
                sig("error", "no answer yet for icmp_seq=9"),
            ],
            format_source="iputils ping(8): -O reports 'no answer yet for icmp_seq=N'; ICMP errors print "
            "'From GATEWAY icmp_seq=N Destination Host Unreachable'; statistics line with '+N errors'; exit 1 "
            "when packets are lost",
            tool_version=version,
        )
    )


# ----------------------------------------------------------------------- dig


def _dig(ws: Workspace, out: list[dict[str, Any]]) -> None:
    ws.require("dig")
    version = ws.version(["dig", "-v"])
    dns = DnsServer()
    p = str(dns.port)

    def fx(id: str, r: Result, signals: list[Any], source: str) -> None:
        out.append(ws.fixture(id, DIG, r, family="dig", signals=signals, signal_source=source, tool_version=version))

    def rr(name: str, rtype: str) -> list[Any]:
        return [sig("record", f"{v}") for v in ZONE[(name, rtype)]]

    zone_src = "the records the local DNS server serves for the query"
    try:
        r = ws.run(["dig", "@127.0.0.1", "-p", p, "example.test"])
        fx("dig-a-record", r, [sig("status", "status: NOERROR"), *rr("example.test", "A")], zone_src)
        r = ws.run(["dig", "@127.0.0.1", "-p", p, "example.test", "MX"])
        fx("dig-mx-records", r, [sig("status", "status: NOERROR"), *rr("example.test", "MX")], zone_src)
        r = ws.run(["dig", "@127.0.0.1", "-p", p, "pool.example.test"])
        fx("dig-many-a-records", r, [sig("status", "status: NOERROR"), *rr("pool.example.test", "A")], zone_src)
        r = ws.run(["dig", "+tcp", "@127.0.0.1", "-p", p, "keys.example.test", "TXT"])
        fx("dig-large-txt-tcp", r, [sig("status", "status: NOERROR"), *rr("keys.example.test", "TXT")], zone_src)
        r = ws.run(["dig", "@127.0.0.1", "-p", p, "missing.example.test"])
        fx(
            "dig-nxdomain",
            r,
            [sig("status", "status: NXDOMAIN"), sig("question", "missing.example.test")],
            "the server answers NXDOMAIN for names it does not have",
        )
        r = ws.run(["dig", "+short", "@127.0.0.1", "-p", p, "www.example.test"])
        fx("dig-short", r, rr("www.example.test", "A"), zone_src)
    finally:
        dns.stop()
    closed = str(_free_port(socket.SOCK_DGRAM))
    r = ws.run(["dig", "@127.0.0.1", "-p", closed, "+tries=2", "example.test"])
    fx(
        "dig-connection-refused",
        r,
        [sig("error", "connection refused"), sig("error", "no servers could be reached")],
        "a UDP port nothing listens on: ICMP port unreachable, dig's documented exit 9",
    )
    silent = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    silent.bind(("127.0.0.1", 0))
    try:
        r = ws.run(["dig", "@127.0.0.1", "-p", str(silent.getsockname()[1]), "+time=1", "+tries=2", "example.test"])
    finally:
        silent.close()
    fx(
        "dig-timeout",
        r,
        [sig("error", "timed out"), sig("error", "no servers could be reached")],
        "a bound UDP socket that never answers: dig times out (exit 9)",
    )


# ----------------------------------------------------------------------- ssh


SSHD_CONFIG = """
Port {port}
ListenAddress 127.0.0.1
HostKey {root}/ssh/host_ed25519
PidFile {root}/ssh/sshd.pid
AuthorizedKeysFile {root}/ssh/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
LogLevel ERROR
"""


def _ssh(ws: Workspace, out: list[dict[str, Any]]) -> None:
    ws.require("ssh", "ssh-keygen")
    version = ws.version(["ssh", "-V"])

    def fx(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        out.append(
            ws.fixture(
                id, SSH, r, family="ssh", signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    d = ws.path("ssh")
    d.mkdir(exist_ok=True)
    for name in ("host_ed25519", "other_host_ed25519", "id_ed25519", "stranger_ed25519"):
        ws.sh(f"ssh-keygen -q -t ed25519 -N '' -C capture -f ssh/{name}")
    shutil.copy(d / "id_ed25519.pub", d / "authorized_keys")
    base = ["ssh", "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "UserKnownHostsFile=ssh/known_hosts"]

    closed = _free_port()
    r = ws.run([*base, "-p", str(closed), "-i", "ssh/id_ed25519", "root@127.0.0.1", "true"])
    fx(
        "ssh-connection-refused",
        r,
        [sig("error", f"connect to host 127.0.0.1 port {closed}: Connection refused")],
        "a port nothing listens on",
    )
    r = ws.run([*base, "-i", "ssh/id_ed25519", "deploy@no-such-host.invalid", "true"])
    fx(
        "ssh-unknown-host",
        r,
        [sig("error", "Could not resolve hostname no-such-host.invalid")],
        "the .invalid TLD never resolves (RFC 6761)",
    )

    sshd = shutil.which("sshd") or "/usr/sbin/sshd"
    if not Path(sshd).exists():
        raise Skip("sshd is not installed")
    port = _free_port()
    ws.write("ssh/sshd_config", SSHD_CONFIG.format(port=port, root=ws.root))
    Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege-separation directory
    proc = subprocess.Popen([sshd, "-D", "-f", str(d / "sshd_config"), "-E", str(d / "sshd.log")])
    try:
        for _ in range(50):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        else:
            raise Skip("sshd did not start: " + (d / "sshd.log").read_text(errors="replace")[-300:])
        target = [*base, "-p", str(port), "-i", "ssh/id_ed25519", "root@127.0.0.1"]
        uname = ws.sh("uname -sr").strip()
        r = ws.run([*target[:3], "-o", "StrictHostKeyChecking=accept-new", *target[3:], "-v", "uname -sr; echo done"])
        fx(
            "ssh-verbose-success",
            r,
            [
                sig("output", uname),
                sig("output", "done"),
                sig("auth", "Authenticated to 127.0.0.1"),
                sig("exit", "Exit status 0"),
            ],
            "the remote command's output (uname -sr run locally, same host), ssh's documented -v milestones",
            "first connection: the host key is added to known_hosts (accept-new)",
        )
        r = ws.run([*target, "-vvv", "ls /nonexistent-dir; exit 2"])
        fx(
            "ssh-vvv-remote-failure",
            r,
            [
                sig("error", "ls: cannot access '/nonexistent-dir': No such file or directory"),
                sig("exit", "Exit status 2"),
            ],
            "the remote command fails with ls's message and exits 2",
        )
        r = ws.run([*base, "-p", str(port), "-i", "ssh/stranger_ed25519", "root@127.0.0.1", "true"])
        fx(
            "ssh-permission-denied",
            r,
            [sig("error", "root@127.0.0.1: Permission denied (publickey).")],
            "sshd accepts only keys in authorized_keys and no passwords",
        )
        # Another key for the same host in known_hosts: what a reinstalled server looks like.
        other = (d / "other_host_ed25519.pub").read_text().split()
        (d / "known_hosts").write_text(f"[127.0.0.1]:{port} {other[0]} {other[1]}\n")
        r = ws.run([*target[:3], "-o", "StrictHostKeyChecking=yes", *target[3:], "true"])
        fx(
            "ssh-host-key-changed",
            r,
            [
                sig("error", "REMOTE HOST IDENTIFICATION HAS CHANGED"),
                sig("error", "Host key verification failed."),
                sig("location", "known_hosts:1"),
            ],
            "known_hosts holds a different key for the server: ssh's documented refusal",
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def capture(ws: Workspace) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    _ping(ws, out)
    _dig(ws, out)
    _ssh(ws, out)
    return out
