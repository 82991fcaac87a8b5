"""Archives and transfers: tar, zip/unzip, rsync, scp.

A project tree of a few thousand files is generated here; signals come from that tree
(its top-level directories, the files planted with errors) and from machine-readable
views (`tar -tf`, `unzip -Z1`), never from tokenjuice. scp runs against a real sshd
started on a high port with throwaway keys (and against a closed port).
"""

from __future__ import annotations

import os
import random
import subprocess
import time
from typing import Any

from capture._lib import Workspace, sig

TOP_DIRS = ["src", "docs", "assets", "tests", "vendor"]
SSH_PORT = 52222


def _tree(ws: Workspace, root: str, n_files: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    files = []
    subs = {
        "src": ["core", "api", "cli", "storage", "utils"],
        "docs": ["guide", "reference", "img"],
        "assets": ["icons", "fonts", "css"],
        "tests": ["unit", "integration", "fixtures"],
        "vendor": ["lib-a/dist", "lib-b/dist", "lib-c/src"],
    }
    for i in range(n_files):
        top = rng.choice(TOP_DIRS)
        sub = rng.choice(subs[top])
        ext = {"src": ".py", "docs": ".md", "assets": ".svg", "tests": ".py", "vendor": ".js"}[top]
        rel = f"{root}/{top}/{sub}/file_{i:05d}{ext}"
        p = ws.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"# {rel}\n" + "x = 1\n" * rng.randint(1, 40))
        files.append(rel)
    ws.write(f"{root}/README.md", "# project\n")
    ws.write(f"{root}/setup.cfg", "[metadata]\nname = project\n")
    return files


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("tar", "zip", "unzip", "rsync")
    out: list[dict[str, Any]] = []
    _tree(ws, "project", 3000, 1)
    _tree(ws, "small", 40, 2)
    out += _tar(ws)
    out += _zip(ws)
    out += _rsync(ws)
    if ws.which("scp") and ws.which("sshd") and ws.which("ssh-keygen"):
        out += _scp(ws)
    return out


def _top_sigs(prefix: str) -> list[dict[str, Any]]:
    return [sig("directory", f"{prefix}{d}/") for d in TOP_DIRS]


# --------------------------------------------------------------------- tar


def _tar(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["tar", "--version"])
    out = []
    r = ws.run(["tar", "-cvzf", "project.tar.gz", "project"])
    out.append(
        ws.fixture(
            "tar-create-verbose",
            "archive/tar",
            r,
            family="tar",
            signals=_top_sigs("project/"),
            signal_source="the generated tree: its top-level directories (3,000 files below them)",
            tool_version=ver,
        )
    )
    listing = ws.sh("tar -tzf project.tar.gz").splitlines()
    r = ws.run(["tar", "-tvzf", "project.tar.gz"])
    out.append(
        ws.fixture(
            "tar-list-verbose",
            "archive/tar",
            r,
            family="tar",
            signals=[*_top_sigs("project/"), sig("entry", "project/README.md")],
            signal_source=f"tar -tf of the same archive ({len(listing)} entries): its top-level directories "
            "and the top-level file",
            tool_version=ver,
        )
    )
    r = ws.run(["tar", "-tzf", "project.tar.gz"])
    out.append(
        ws.fixture(
            "tar-list-names",
            "archive/tar",
            r,
            family="tar",
            signals=_top_sigs("project/"),
            signal_source="the generated tree's top-level directories",
            tool_version=ver,
        )
    )
    os.makedirs(ws.path("restore"), exist_ok=True)
    r = ws.run(["tar", "-xvzf", "../project.tar.gz"], "restore")
    out.append(
        ws.fixture(
            "tar-extract-verbose",
            "archive/tar",
            r,
            family="tar",
            signals=_top_sigs("project/"),
            signal_source="the archive's top-level directories (tar -tf)",
            tool_version=ver,
        )
    )
    r = ws.run(["tar", "-tvf", "small.tar"])
    ws.sh("tar -cf small.tar small")
    r = ws.run(["tar", "-tvf", "small.tar"])
    out.append(
        ws.fixture(
            "tar-list-small",
            "archive/tar",
            r,
            family="tar",
            signals=[sig("entry", e) for e in ws.sh("tar -tf small.tar").splitlines()[:5]],
            signal_source="tar -tf of the same archive",
            tool_version=ver,
        )
    )
    r = ws.run(["tar", "-xzf", "missing-backup.tar.gz"])
    out.append(
        ws.fixture(
            "tar-missing-archive",
            "archive/tar",
            r,
            family="tar",
            signals=[
                sig("error", "missing-backup.tar.gz: Cannot open: No such file or directory"),
                sig("error", "Error is not recoverable"),
            ],
            signal_source="the archive name the capture asked for, which does not exist",
            tool_version=ver,
        )
    )
    data = ws.path("project.tar.gz").read_bytes()
    ws.path("truncated.tar.gz").write_bytes(data[: len(data) // 2])
    r = ws.run(["tar", "-tvzf", "truncated.tar.gz"])
    out.append(
        ws.fixture(
            "tar-truncated-archive",
            "archive/tar",
            r,
            family="tar",
            signals=[
                sig("error", "unexpected end of file"),
                sig("error", "Error is not recoverable"),
                sig("directory", "project/"),
            ],
            signal_source="the archive the capture cut in half: gzip and tar report the truncation",
            tool_version=ver,
        )
    )
    ws.write("notatar.tar", "plain text, not an archive\n" * 50)
    r = ws.run(["tar", "-xvf", "notatar.tar"])
    out.append(
        ws.fixture(
            "tar-not-an-archive",
            "archive/tar",
            r,
            family="tar",
            signals=[
                sig("error", "This does not look like a tar archive"),
                sig("error", "Exiting with failure status due to previous errors"),
            ],
            signal_source="the text file the capture wrote in place of an archive",
            tool_version=ver,
        )
    )
    return out


# --------------------------------------------------------------------- zip


def _zip(ws: Workspace) -> list[dict[str, Any]]:
    zver = ws.version(["zip", "-v"]).strip()
    uver = ws.version(["unzip", "-v"])
    ver = {"zip": ws.sh("zip -v | sed -n 2p").strip() or zver, "unzip": uver}
    out = []
    r = ws.run(["zip", "-r", "project.zip", "project"])
    out.append(
        ws.fixture(
            "zip-create-recursive",
            "archive/zip",
            r,
            family="zip",
            signals=_top_sigs("project/"),
            signal_source="the generated tree's top-level directories",
            tool_version=ver,
        )
    )
    names = ws.sh("unzip -Z1 project.zip").splitlines()
    r = ws.run(["unzip", "-l", "project.zip"])
    out.append(
        ws.fixture(
            "unzip-list",
            "archive/unzip",
            r,
            family="zip",
            signals=[*_top_sigs("project/"), sig("total", f"{len(names)} files")],
            signal_source=f"unzip -Z1 of the same archive ({len(names)} entries): top-level directories and "
            "the entry count unzip prints in its total line",
            tool_version=ver,
        )
    )
    os.makedirs(ws.path("unzipped"), exist_ok=True)
    r = ws.run(["unzip", "-o", "../project.zip"], "unzipped")
    out.append(
        ws.fixture(
            "unzip-extract",
            "archive/unzip",
            r,
            family="zip",
            signals=[*_top_sigs("project/"), sig("archive", "Archive:  ../project.zip")],
            signal_source="the archive's top-level directories (unzip -Z1)",
            tool_version=ver,
        )
    )
    r = ws.run(["unzip", "-t", "project.zip"])
    out.append(
        ws.fixture(
            "unzip-test-ok",
            "archive/unzip",
            r,
            family="zip",
            signals=[sig("result", "No errors detected in compressed data of project.zip.")],
            signal_source="unzip's documented success line for -t",
            tool_version=ver,
        )
    )
    ws.sh("zip -qr small.zip small")
    r = ws.run(["unzip", "-v", "small.zip"])
    out.append(
        ws.fixture(
            "unzip-verbose-small",
            "archive/unzip",
            r,
            family="zip",
            signals=[sig("entry", n) for n in ws.sh("unzip -Z1 small.zip").splitlines()[:3]],
            signal_source="unzip -Z1 of the same archive",
            tool_version=ver,
        )
    )
    data = bytearray(ws.path("small.zip").read_bytes())
    # Corrupt the first file's compressed bytes: CRC errors, central directory intact.
    for k in range(80, 200):
        data[k] ^= 0x5A
    ws.path("damaged.zip").write_bytes(bytes(data))
    r = ws.run(["unzip", "-t", "damaged.zip"])
    out.append(
        ws.fixture(
            "unzip-test-damaged",
            "archive/unzip",
            r,
            family="zip",
            signals=[sig("error", "At least one error was detected in damaged.zip.")],
            signal_source="the archive the capture corrupted (bytes 80-200 flipped)",
            tool_version=ver,
        )
    )
    ws.path("cut.zip").write_bytes(ws.path("project.zip").read_bytes()[:5000])
    r = ws.run(["unzip", "-l", "cut.zip"])
    out.append(
        ws.fixture(
            "unzip-truncated",
            "archive/unzip",
            r,
            family="zip",
            signals=[sig("error", "End-of-central-directory signature not found")],
            signal_source="the archive the capture truncated to 5,000 bytes",
            tool_version=ver,
        )
    )
    r = ws.run(["zip", "-r", "out.zip", "no-such-dir"])
    out.append(
        ws.fixture(
            "zip-missing-input",
            "archive/zip",
            r,
            family="zip",
            signals=[sig("error", "name not matched: no-such-dir")],
            signal_source="the directory the capture named, which does not exist",
            tool_version=ver,
        )
    )
    return out


# ------------------------------------------------------------------- rsync


def _rsync(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["rsync", "--version"])
    out = []
    r = ws.run(["rsync", "-av", "--progress", "project/", "mirror/"])
    out.append(
        ws.fixture(
            "rsync-progress-large",
            "transfer/rsync",
            r,
            family="rsync",
            signals=[
                *(sig("directory", f"{d}/") for d in TOP_DIRS),
                sig("summary", "sent "),
                sig("summary", "total size is"),
            ],
            signal_source="the generated tree's top-level directories; rsync's documented closing summary",
            tool_version=ver,
            notes="3,000 files with --progress lines",
        )
    )
    # a second pass after touching a few files: a short incremental list
    rng = random.Random(3)
    changed = sorted(rng.sample(ws.sh("cd project && find src -name '*.py'").split(), 4))
    for c in changed:
        with open(ws.path(f"project/{c}"), "a", encoding="utf-8") as f:
            f.write("y = 2\n")
    r = ws.run(["rsync", "-av", "project/", "mirror/"])
    out.append(
        ws.fixture(
            "rsync-incremental",
            "transfer/rsync",
            r,
            family="rsync",
            signals=[*(sig("changed", c) for c in changed), sig("summary", "total size is")],
            signal_source="the four files the capture modified after the first sync",
            tool_version=ver,
        )
    )
    r = ws.run(["rsync", "-av", "/nonexistent/data/", "mirror/"])
    out.append(
        ws.fixture(
            "rsync-missing-source",
            "transfer/rsync",
            r,
            family="rsync",
            signals=[
                sig("error", 'change_dir "/nonexistent/data" failed: No such file or directory'),
                sig("error", "(code 23)"),
            ],
            signal_source="the source path the capture named, which does not exist",
            tool_version=ver,
        )
    )
    ws.sh("mkdir -p locked && chmod 555 locked && chmod 755 small")
    ws.sh(f"chmod 755 {ws.root} && chmod -R a+rX small")
    r = ws.run(["runuser", "-u", "nobody", "--", "rsync", "-av", "small/", "locked/"])
    r.argv = r.argv[4:]
    r.command = " ".join(r.argv)
    out.append(
        ws.fixture(
            "rsync-permission-denied",
            "transfer/rsync",
            r,
            family="rsync",
            signals=[
                sig("error", "Permission denied (13)"),
                sig("error", "rsync error: errors selecting input/output files, dirs (code 3)"),
            ],
            signal_source="a read-only destination the capture made, written by an unprivileged user",
            tool_version=ver,
            notes="run as the unprivileged user `nobody` (the fixture records the rsync command)",
        )
    )
    r = ws.run(["rsync", "-av", "project/", "127.0.0.1:/tmp/x/", "-e", "ssh -p 1 -o BatchMode=yes"])
    out.append(
        ws.fixture(
            "rsync-ssh-refused",
            "transfer/rsync",
            r,
            family="rsync",
            signals=[sig("error", "Connection refused"), sig("error", f"(code {r.exit_code})")],
            signal_source="port 1 on 127.0.0.1, where nothing listens; rsync's exit code (12 or 255) in its error line",
            tool_version=ver,
        )
    )
    return out


# --------------------------------------------------------------------- scp


def _scp(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["ssh", "-V"])
    out = []
    r = ws.run(
        ["scp", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5", "-P", "1", "small/README.md", "127.0.0.1:/tmp/"]
    )
    out.append(
        ws.fixture(
            "scp-connection-refused",
            "transfer/scp",
            r,
            family="scp",
            signals=[sig("error", "connect to host 127.0.0.1 port 1: Connection refused")],
            signal_source="port 1 on 127.0.0.1, where nothing listens",
            tool_version=ver,
        )
    )
    d = ws.path("sshd")
    d.mkdir()
    ws.sh(
        f"ssh-keygen -q -t ed25519 -N '' -f {d}/host_key && ssh-keygen -q -t ed25519 -N '' -f {d}/client_key "
        f"&& ssh-keygen -q -t ed25519 -N '' -f {d}/other_key && cp {d}/client_key.pub {d}/authorized_keys "
        f"&& chmod 600 {d}/authorized_keys"
    )
    ws.write(
        "sshd/sshd_config",
        f"""
        Port {SSH_PORT}
        ListenAddress 127.0.0.1
        HostKey {d}/host_key
        AuthorizedKeysFile {d}/authorized_keys
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        PermitRootLogin prohibit-password
        StrictModes no
        UsePAM no
        PidFile {d}/sshd.pid
        Subsystem sftp internal-sftp
        """,
    )
    os.makedirs("/run/sshd", exist_ok=True)
    server = subprocess.Popen(
        ["/usr/sbin/sshd", "-D", "-e", "-f", str(d / "sshd_config")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(1)
        common = [
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            f"UserKnownHostsFile={d}/known",
            "-P",
            str(SSH_PORT),
        ]
        os.makedirs(ws.path("remote"), exist_ok=True)
        r = ws.run(["scp", "-v", *common, "-i", f"{d}/client_key", "-r", "small", f"127.0.0.1:{ws.path('remote')}/"])
        out.append(
            ws.fixture(
                "scp-verbose-copy",
                "transfer/scp",
                r,
                family="scp",
                signals=[sig("auth", "Authenticated to 127.0.0.1"), sig("exit", "Exit status 0")],
                signal_source="ssh's documented debug1 lines for a successful key login and the remote exit status",
                tool_version=ver,
                notes="a real sshd on a high port with throwaway keys",
            )
        )
        r = ws.run(["scp", *common, "-i", f"{d}/other_key", "small/README.md", "127.0.0.1:/tmp/"])
        out.append(
            ws.fixture(
                "scp-permission-denied",
                "transfer/scp",
                r,
                family="scp",
                signals=[sig("error", "Permission denied (publickey)")],
                signal_source="a key the capture never authorized",
                tool_version=ver,
            )
        )
        r = ws.run(["scp", *common, "-i", f"{d}/client_key", f"127.0.0.1:{ws.path('remote')}/nope.txt", "."])
        out.append(
            ws.fixture(
                "scp-remote-missing",
                "transfer/scp",
                r,
                family="scp",
                signals=[sig("error", "nope.txt: No such file or directory")],
                signal_source="a remote path the capture never created",
                tool_version=ver,
            )
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    return out
