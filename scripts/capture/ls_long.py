"""`ls -l` of a directory whose entries differ in what only the long format shows.

A release directory as agents meet it: many data files, a few larger ones, an
executable script, a private key readable by its owner only, a group-writable
upload directory, a symlink to the current release and one that dangles. The
signals come from `os.lstat` and `os.readlink`: each mode held by three entries or
fewer with the entries that have it, every link with its target, the largest file
with its size.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from capture._lib import Workspace, sig

RARE = 3  # path_listing.RARE_NAMES: a mode this rare is listed with its entries


def _tree(root: Path) -> None:
    root.mkdir(parents=True)
    for i in range(1, 49):
        (root / f"shard-{i:03d}.csv").write_text("id,value\n" + f"{i},{i * i}\n" * (i % 7 + 1))
    (root / "index.parquet").write_bytes(bytes(range(256)) * 700)
    (root / "snapshot.tar").write_bytes(b"\0" * 512 * 90)
    deploy = root / "deploy.sh"
    deploy.write_text("#!/bin/sh\nset -eu\nexec ./bin/server --port 8080\n")
    deploy.chmod(0o755)
    key = root / "signing.key"
    key.write_text("not a real key\n")
    key.chmod(0o600)
    uploads = root / "uploads"
    uploads.mkdir()
    uploads.chmod(0o775)
    (root / "releases").mkdir()
    (root / "releases" / "v2.4.1").mkdir()
    os.symlink("releases/v2.4.1", root / "current")
    os.symlink("/srv/shared/config.yaml", root / "config.yaml")
    # One fixed time for every entry, so a re-capture gives the same bytes.
    for p in [*root.iterdir(), root]:
        os.utime(p, (1_764_460_800, 1_764_460_800), follow_symlinks=False)


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("ls")
    root = ws.path("data")
    _tree(root)
    r = ws.run(["ls", "-la"], root)
    entries = os.listdir(root)
    by_mode: dict[str, list[str]] = {}
    for name in entries:
        by_mode.setdefault(stat.filemode(os.lstat(root / name).st_mode), []).append(name)
    signals = []
    for mode, names in sorted(by_mode.items()):
        if len(names) <= RARE:
            signals.append(sig("mode", mode))
            signals += [sig("name", n) for n in sorted(names)]
    for name in sorted(entries):
        if os.path.islink(root / name):
            signals.append(sig("link", f"{name} -> {os.readlink(root / name)}"))
    largest = max((e for e in entries if os.path.isfile(root / e) and not os.path.islink(root / e)),
                  key=lambda e: os.lstat(root / e).st_size)  # fmt: skip
    signals.append(sig("size", f"{largest} {os.lstat(root / largest).st_size}"))
    return [
        ws.fixture(
            "ls-la-mixed-metadata",
            "filesystem/ls",
            r,
            family="ls",
            signals=signals,
            signal_source="os.lstat and os.readlink of each entry",
            tool_version=ws.version(["ls", "--version"]),
            notes=f"{len(entries)} entries: rare modes, links and the largest file carry the signal",
        )
    ]
