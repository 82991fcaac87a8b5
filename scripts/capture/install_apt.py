"""apt / apt-get on this Debian machine: simulations of big transactions, a real install
and removal of small packages, lookup and permission failures, `apt list`.

Signals: the simulation's own machine lines (`Inst`/`Remv`, which apt prints for `-s`)
counted into the summary line (`N upgraded, N newly installed, N to remove`) and the
names removed; `dpkg-query` after a real install (package and version); `apt-mark
showmanual` for `apt list --installed`; the package names the command asked for.
"""

from __future__ import annotations

import re
import subprocess
from typing import Any

from capture._install_util import NOBODY, relabel
from capture._lib import Result, Skip, Workspace, sig

RULE = "package/apt-install"
RULE_UPGRADE = "package/apt-upgrade"  # upgrade/dist-upgrade/full-upgrade, as in the TypeScript tokenjuice
FAMILY = "apt"
SMALL = ["sl", "cowsay", "figlet"]


def _sim(ws: Workspace, args: list[str]) -> dict[str, Any]:
    """Run the transaction with -s and read apt's Inst/Remv lines."""
    out = subprocess.run(["apt-get", "-s", *args], capture_output=True, text=True, env=ws.env).stdout
    inst = re.findall(r"^Inst (\S+) (\[\S+\] )?\(", out, re.M)
    remv = re.findall(r"^Remv (\S+)", out, re.M)
    upgraded = sum(1 for _, old in inst if old)
    return {"new": len(inst) - upgraded, "upgraded": upgraded, "removed": remv}


def _counts(sim: dict[str, Any]) -> list[Any]:
    return [
        sig("summary", f"{sim['upgraded']} upgraded"),
        sig("summary", f"{sim['new']} newly installed"),
        sig("summary", f"{len(sim['removed'])} to remove"),
    ]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("apt-get", "apt", "dpkg-query")
    if subprocess.run(["id", "-u"], capture_output=True, text=True).stdout.strip() != "0":
        raise Skip("apt captures need root")
    ws.env["DEBIAN_FRONTEND"] = "noninteractive"
    version = ws.version(["apt-get", "--version"])
    fixtures: list[dict[str, Any]] = []
    sim_src = "apt-get -s: the Inst/Remv lines of the simulated transaction, counted"

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        fixtures.append(
            ws.fixture(
                id,
                RULE_UPGRADE if "upgrade" in id else RULE,
                r,
                family=FAMILY,
                signals=signals,
                signal_source=source,
                tool_version=version,
                notes=notes,
            )
        )

    # A large simulated install (hundreds of dependencies).
    args = ["install", "libreoffice-writer"]
    sim = _sim(ws, args)
    r = ws.run(["apt-get", *args[:1], "-s", *args[1:]])
    add("apt-get-install-simulate-large", r, [*_counts(sim), sig("package", "libreoffice-writer")], sim_src)

    # A simulated upgrade of everything upgradable.
    sim = _sim(ws, ["upgrade"])
    r = ws.run(["apt-get", "upgrade", "-s"])
    add("apt-get-upgrade-simulate", r, _counts(sim), sim_src)

    # A simulated removal that cascades.
    sim = _sim(ws, ["remove", "python3"])
    r = ws.run(["apt-get", "remove", "-s", "python3"])
    add(
        "apt-get-remove-simulate",
        r,
        [*_counts(sim), *(sig("removed", n) for n in sim["removed"])],
        sim_src + "; every package it removes",
    )

    # A real install of three small packages, then their removal (restores the machine).
    # Removed packages keep a "deinstall ... config-files" status: only "installed" counts.
    missing = [
        p
        for p in SMALL
        if "install ok installed"
        not in subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True).stdout
    ]
    if len(missing) == len(SMALL):
        sim = _sim(ws, ["install", *SMALL])
        r = ws.run(["apt-get", "install", "-y", *SMALL])
        q = ws.sh("dpkg-query -W -f '${Package} (${Version})\\n' " + " ".join(SMALL))
        add(
            "apt-get-install-real",
            r,
            [*_counts(sim), *(sig("installed", ln.strip()) for ln in q.splitlines() if ln.strip())],
            "apt-get -s counts beforehand; dpkg-query afterwards: each requested package and its version",
        )
        r = ws.run(["apt", "remove", "-y", *SMALL])
        add(
            "apt-remove-real",
            r,
            [sig("removed", p) for p in SMALL] + [sig("summary", f"{len(SMALL)} to remove")],
            "the packages installed by the previous fixture",
            "`apt` (not apt-get) prints its CLI-stability warning",
        )
        ws.sh("apt-get autoremove -y -q", check=False)

    # Already installed (packages with no pending upgrade, so nothing changes).
    newest = [
        p
        for p in ("git", "tree", "make", "wget", "unzip", "rsync", "tmux")
        if "0 upgraded, 0 newly installed, 0 to remove" in ws.sh(f"apt-get -s install {p}", check=False)
    ][:2]
    r = ws.run(["apt-get", "install", "-y", *newest])
    q = ws.sh("dpkg-query -W -f '${Package} is already the newest version (${Version})\\n' " + " ".join(newest))
    add(
        "apt-get-install-already-newest",
        r,
        [sig("status", ln.strip()) for ln in q.splitlines() if ln.strip()],
        "dpkg-query: installed version of each requested package",
    )

    # Unknown package.
    r = ws.run(["apt-get", "install", "-y", "tokenjuice-no-such-package"])
    add(
        "apt-get-install-unknown",
        r,
        [sig("error", "Unable to locate package tokenjuice-no-such-package")],
        "the package asked for",
    )

    # Not root: the dpkg lock cannot be opened.
    for d in (ws.root.parent, ws.root):
        d.chmod(0o755)
    r = ws.run([*NOBODY, "apt-get", "install", "-y", "sl"])
    relabel(r, "apt-get install -y sl")
    add(
        "apt-get-install-not-root",
        r,
        [sig("error", "Permission denied"), sig("error", "are you root?")],
        "the lock file apt needs as an unprivileged user",
        "run as an unprivileged user (setpriv)",
    )

    # apt-get update against a source list of our own, with one suite that does not exist.
    ws.write(
        "apt/sources.list",
        "deb http://deb.debian.org/debian bookworm main\n"
        "deb http://deb.debian.org/debian bookworm-updates main\n"
        "deb http://deb.debian.org/debian tokenjuice-nonexistent main\n",
    )
    ws.path("apt/lists/partial").mkdir(parents=True)
    opts = [
        "-o", f"Dir::Etc::sourcelist={ws.path('apt/sources.list')}",
        "-o", "Dir::Etc::sourceparts=/nonexistent",
        "-o", f"Dir::State::Lists={ws.path('apt/lists')}",
    ]  # fmt: skip
    r = ws.run(["apt-get", *opts, "update"])
    add(
        "apt-get-update-missing-release",
        r,
        [sig("error", "tokenjuice-nonexistent"), sig("error", "does not have a Release file")],
        "the suite the source list names that does not exist",
        "a private sources.list and lists dir (-o options)",
    )

    # apt list --installed: several hundred lines.
    manual = ws.sh("apt-mark showmanual").split()
    r = ws.run(["apt", "list", "--installed"])
    fixtures.append(
        ws.fixture(
            "apt-list-installed",
            "package/apt-list",
            r,
            family=FAMILY,
            signals=[sig("package", n) for n in manual],
            signal_source="apt-mark showmanual: every manually installed package",
            tool_version=version,
        )
    )
    r = ws.run(["apt", "list", "--upgradable"])
    up = ws.sh("apt-get -s upgrade | sed -n 's/^Inst \\([^ ]*\\) \\[\\([^]]*\\)\\].*/\\1/p'").split()
    fixtures.append(
        ws.fixture(
            "apt-list-upgradable",
            "package/apt-list",
            r,
            family=FAMILY,
            signals=[sig("package", n) for n in up],
            signal_source="apt-get -s upgrade: every package with an upgrade",
            tool_version=version,
        )
    )
    return fixtures
