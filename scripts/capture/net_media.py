"""nslookup and traceroute on loopback, ffmpeg and mediainfo on media made here.

* nslookup asks the small DNS server of `net_diag` (answers from its zone), a port
  nothing listens on (refused), and for a name the zone does not hold (NXDOMAIN).
* traceroute reaches 127.0.0.1 in one hop; a TEST-NET address no route answers gives
  real `* * *` hops; an unresolvable name gives the real error.
* ffmpeg encodes a clip from its own test sources (lavfi), fails on a missing input and
  on a text file; mediainfo reports on the clip.

Signals come from the zone served, the addresses asked for, and the clip's parameters.
"""

from __future__ import annotations

from typing import Any

from capture._lib import Skip, Workspace, sig
from capture.net_diag import ZONE, DnsServer, _free_port


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.apt_install("bind9-dnsutils", "traceroute", "ffmpeg", "mediainfo")
    out: list[dict[str, Any]] = []
    if ws.which("nslookup"):
        out += _nslookup(ws)
    if ws.which("traceroute"):
        out += _traceroute(ws)
    if ws.which("ffmpeg"):
        out += _ffmpeg(ws)
    if not out:
        raise Skip("none of nslookup, traceroute, ffmpeg could run")
    return out


def _nslookup(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["nslookup", "-version"])
    dns = DnsServer()
    p = str(dns.port)
    try:
        r1 = ws.run(["nslookup", f"-port={p}", "pool.example.test", "127.0.0.1"])
        r2 = ws.run(["nslookup", f"-port={p}", "missing.example.test", "127.0.0.1"])
        r3 = ws.run(["nslookup", "-port=" + str(_free_port()), "-timeout=1", "-retry=1", "example.test", "127.0.0.1"])
    finally:
        dns.stop()
    return [
        ws.fixture(
            "nslookup-many-addresses",
            "network/nslookup",
            r1,
            family="nslookup",
            signals=[sig("record", a) for a in ZONE[("pool.example.test", "A")]],
            signal_source="the A records the local DNS server serves for the name",
            tool_version=ver,
        ),
        ws.fixture(
            "nslookup-nxdomain",
            "network/nslookup",
            r2,
            family="nslookup",
            signals=[sig("error", "server can't find missing.example.test: NXDOMAIN")],
            signal_source="the server answers NXDOMAIN for names it does not have",
            tool_version=ver,
        ),
        ws.fixture(
            "nslookup-refused",
            "network/nslookup",
            r3,
            family="nslookup",
            signals=[sig("error", "connection refused"), sig("error", "no servers could be reached")],
            signal_source="a port nothing listens on",
            tool_version=ver,
        ),
    ]


def _traceroute(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["traceroute", "--version"])
    r1 = ws.run(["traceroute", "-n", "-m", "30", "-q", "1", "-w", "1", "192.0.2.77"], timeout=120)
    r2 = ws.run(["traceroute", "-n", "127.0.0.1"])
    r3 = ws.run(["traceroute", "no-such-host.invalid"])
    return [
        ws.fixture(
            "traceroute-unanswered",
            "network/traceroute",
            r1,
            family="traceroute",
            signals=[sig("destination", "traceroute to 192.0.2.77")],
            signal_source="the TEST-NET-1 address asked for (RFC 5737: never routed)",
            tool_version=ver,
        ),
        ws.fixture(
            "traceroute-loopback",
            "network/traceroute",
            r2,
            family="traceroute",
            signals=[sig("destination", "traceroute to 127.0.0.1"), sig("hop", "1  127.0.0.1")],
            signal_source="loopback answers in one hop",
            tool_version=ver,
        ),
        ws.fixture(
            "traceroute-unknown-host",
            "network/traceroute",
            r3,
            family="traceroute",
            signals=[sig("error", "no-such-host.invalid: Name or service not known")],
            signal_source="the .invalid top-level domain never resolves (RFC 2606)",
            tool_version=ver,
        ),
    ]


def _ffmpeg(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["ffmpeg", "-version"])
    ws.path("media").mkdir(exist_ok=True)
    ws.write("media/notes.txt", "not a video\n" * 20)
    clip = [
        "ffmpeg",
        "-y",
        "-f",
        "lavfi",
        "-i",
        "testsrc=duration=3:size=320x240:rate=25",
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=440:duration=3",
        "-c:v",
        "mpeg4",
        "-c:a",
        "aac",
        "-metadata",
        "title=tokenjuice test clip",
        "clip.mp4",
    ]
    r1 = ws.run(clip, "media")
    r2 = ws.run(["ffmpeg", "-y", "-i", "missing.mov", "-vf", "scale=1280:-1", "out.mp4"], "media")
    r3 = ws.run(["ffmpeg", "-y", "-i", "notes.txt", "out.mp4"], "media")
    out = [
        ws.fixture(
            "ffmpeg-encode-testsrc",
            "media/ffmpeg",
            r1,
            family="ffmpeg",
            signals=[
                sig("stream", "320x240"),
                sig("stream", "440"),
                sig("mapping", "Stream mapping:"),
                sig("output", "Output #0, mp4, to 'clip.mp4'"),
                sig("progress", "frame=   75"),
            ],
            signal_source="the clip's parameters (3 s at 25 fps = 75 frames, 320x240, a 440 Hz tone)",
            tool_version=ver,
        ),
        ws.fixture(
            "ffmpeg-missing-input",
            "media/ffmpeg",
            r2,
            family="ffmpeg",
            signals=[sig("error", "missing.mov: No such file or directory")],
            signal_source="the input file never created",
            tool_version=ver,
        ),
        ws.fixture(
            "ffmpeg-invalid-input",
            "media/ffmpeg",
            r3,
            family="ffmpeg",
            signals=[sig("error", "notes.txt: Invalid data found when processing input")],
            signal_source="a text file given as the input",
            tool_version=ver,
        ),
    ]
    if ws.which("mediainfo"):
        r4 = ws.run(["mediainfo", "clip.mp4"], "media")
        out.append(
            ws.fixture(
                "mediainfo-clip",
                "media/mediainfo",
                r4,
                family="mediainfo",
                signals=[
                    sig("field", "320 pixels"),
                    sig("field", "240 pixels"),
                    sig("field", "25.000 FPS"),
                    sig("field", "tokenjuice test clip"),
                ],
                signal_source="the clip's parameters as encoded above",
                tool_version=ws.version(["mediainfo", "--version"]),
            )
        )
    return out
