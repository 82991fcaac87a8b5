"""pnpm (latest and 10.x), yarn v1 and bun installs on throwaway projects (real registry).

Signals: the tool's own machine-readable listing after the run (`pnpm list --json`,
`yarn list --json`, `bun pm ls`): every direct dependency with its installed version,
as each tool prints it; for failures, the package or lock file the project was built
with, and the error code the tool names.
"""

from __future__ import annotations

import json
import re
from typing import Any

from capture._install_util import npm_userconfig, relabel
from capture._lib import Result, Skip, Workspace, sig

DEPS = {"express": "^4.19.0", "react": "18", "react-dom": "17"}
BIG = {"webpack": "^5", "jest": "^29", "typescript": "^5"}


def _pkg(ws: Workspace, d: str, deps: dict[str, str]) -> None:
    data = {"name": d.rsplit("/", 1)[-1], "version": "1.0.0", "license": "MIT", "dependencies": deps}
    ws.write(f"{d}/package.json", json.dumps(data, indent=2) + "\n")


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("pnpm", "yarn", "bun")
    ws.require("pnpm", "yarn", "bun", "npm")
    npm_userconfig(ws)
    fixtures: list[dict[str, Any]] = []
    fixtures += _pnpm(ws, "pnpm", "pnpm", ws.version(["pnpm", "--version"]))
    # pnpm 10, the JavaScript implementation most projects still pin, prints differently.
    ws.write("pnpm10tool/package.json", '{"name": "pnpm10tool", "private": true}\n')
    ws.sh("npm install -s --no-audit --no-fund pnpm@10", "pnpm10tool")
    p10 = str(ws.path("pnpm10tool/node_modules/.bin/pnpm"))
    fixtures += _pnpm(ws, "pnpm10", p10, ws.version([p10, "--version"]))
    fixtures += _yarn(ws)
    fixtures += _bun(ws)
    return fixtures


def _pnpm(ws: Workspace, tag: str, exe: str, version: str) -> list[dict[str, Any]]:
    rule, family = "install/pnpm-install", "pnpm"
    env = dict(ws.env, npm_config_store_dir=str(ws.path(f"{tag}-store")))
    out: list[dict[str, Any]] = []

    def run(argv: list[str], cwd: str) -> Result:
        r = ws.run([exe, *argv], cwd, env=env)
        return relabel(r, "pnpm " + " ".join(argv))

    def listed(cwd: str) -> list[Any]:
        data = json.loads(ws.sh(f"{exe} list --json", cwd))
        deps = data[0].get("dependencies", {})
        return [sig("dependency", f"{n} {d['version']}") for n, d in deps.items()]

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        out.append(
            ws.fixture(
                id,
                rule,
                r,
                family=family,
                signals=signals,
                signal_source=source,
                tool_version=version,
                notes=(f"pnpm {version}" + (f"; {notes}" if notes else "")),
            )
        )

    d = f"{tag}/app"
    _pkg(ws, d, DEPS)
    r = run(["install"], d)
    if r.exit_code != 0:
        raise Skip(f"pnpm install failed: {r.stderr[-300:]}")
    add(
        f"{tag}-install-peer-warning",
        r,
        [*listed(d), sig("warning", "peer")],
        "pnpm list --json: direct dependencies and versions; react-dom 17 needs react 17 (the project's data)",
    )
    r = run(["add", "tokenjuice-no-such-package-zzz"], d)
    add(
        f"{tag}-add-unknown",
        r,
        [sig("package", "tokenjuice-no-such-package-zzz"), sig("error", "404")],
        "the package asked for",
    )
    _pkg(ws, d, {**DEPS, "ms": "^2"})
    r = run(["install", "--frozen-lockfile"], d)
    add(
        f"{tag}-install-frozen-outdated",
        r,
        [sig("error", "ERR_PNPM_OUTDATED_LOCKFILE"), sig("dependency", "ms@^2", "ms")],
        "the dependency added to package.json after locking",
    )
    big = f"{tag}/big"
    _pkg(ws, big, BIG)
    r = run(["install"], big)
    add(
        f"{tag}-install-large",
        r,
        listed(big),
        "pnpm list --json: direct dependencies and versions",
        "webpack + jest + typescript, cold store",
    )
    return out


def _yarn(ws: Workspace) -> list[dict[str, Any]]:
    rule, family = "install/yarn-install", "yarn"
    version = ws.version(["yarn", "--version"])
    env = dict(ws.env, YARN_CACHE_FOLDER=str(ws.path("yarn-cache")))
    out: list[dict[str, Any]] = []

    def listed(cwd: str, names: list[str]) -> list[Any]:
        data = ws.sh("yarn list --depth=0 --json", cwd)
        trees = json.loads(data.splitlines()[-1])["data"]["trees"]
        have = {t["name"].rsplit("@", 1)[0]: t["name"] for t in trees}
        return [sig("dependency", have[n]) for n in names if n in have]

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        out.append(
            ws.fixture(
                id, rule, r, family=family, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    d = "yarn/app"
    _pkg(ws, d, DEPS)
    r = ws.run(["yarn"], d, env=env)
    if r.exit_code != 0:
        raise Skip(f"yarn failed: {r.stderr[-300:]}")
    add(
        "yarn-install-peer-warning",
        r,
        [sig("warning", 'has incorrect peer dependency "react@17.0.2"'), sig("summary", "Saved lockfile")],
        "react-dom 17's peer requirement (the project's data); the lockfile the run wrote",
        "bare `yarn` (install)",
    )
    before = _yarn_lock(ws, d)
    r = ws.run(["yarn", "add", "ms@2.1.3", "debug@4"], d, env=env)
    new = sorted(_yarn_lock(ws, d) - before)
    add(
        "yarn-add",
        r,
        [*(sig("dependency", f"{n}@{v}") for n, v in new), sig("summary", f"Saved {len(new)} new dependenc")],
        "yarn.lock before and after: the package versions the add brought in (ms@2.1.3 was locked already)",
    )
    r = ws.run(["yarn", "add", "tokenjuice-no-such-package-zzz"], d, env=env)
    add(
        "yarn-add-unknown",
        r,
        [sig("error", 'Couldn\'t find package "tokenjuice-no-such-package-zzz"')],
        "the package asked for",
    )
    _pkg(ws, d, {**DEPS, "ms": "2.1.3", "debug": "^4", "lodash": "^4"})
    r = ws.run(["yarn", "install", "--frozen-lockfile"], d, env=env)
    add(
        "yarn-install-frozen-lockfile",
        r,
        [sig("error", "frozen-lockfile"), sig("error", "lockfile needs to be updated")],
        "the dependency added after locking",
    )
    big = "yarn/big"
    _pkg(ws, big, BIG)
    r = ws.run(["yarn", "install", "--verbose"], big, env=env)
    add(
        "yarn-install-verbose-large",
        r,
        [sig("summary", "Saved lockfile")],
        "the lockfile the run wrote (yarn install names no packages)",
        "cold cache, --verbose",
    )
    return out


def _yarn_lock(ws: Workspace, d: str) -> set[tuple[str, str]]:
    """(name, version) of every entry in yarn.lock (v1 format)."""
    out: set[tuple[str, str]] = set()
    name = None
    for line in ws.path(f"{d}/yarn.lock").read_text().splitlines():
        if line and not line.startswith((" ", "#")):
            name = line.split(",")[0].strip('"').rsplit("@", 1)[0]
        elif line.startswith("  version ") and name:
            out.add((name, line.split('"')[1]))
    return out


def _bun(ws: Workspace) -> list[dict[str, Any]]:
    rule, family = "install/bun-install", "bun"
    version = ws.version(["bun", "--version"])
    env = dict(ws.env, BUN_INSTALL_CACHE_DIR=str(ws.path("bun-cache")))
    out: list[dict[str, Any]] = []

    def listed(cwd: str) -> list[Any]:
        text = ws.sh("bun pm ls", cwd)
        return [sig("dependency", m) for m in re.findall(r"── (\S+@\S+)", text)]

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        out.append(
            ws.fixture(
                id, rule, r, family=family, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    d = "bun/app"
    _pkg(ws, d, DEPS)
    r = ws.run(["bun", "install"], d, env=env)
    if r.exit_code != 0:
        raise Skip(f"bun install failed: {r.stderr[-300:]}")
    add("bun-install", r, listed(d), "bun pm ls: direct dependencies with versions")
    r = ws.run(["bun", "add", "tokenjuice-no-such-package-zzz"], d, env=env)
    add(
        "bun-add-unknown",
        r,
        [sig("package", "tokenjuice-no-such-package-zzz"), sig("error", "404")],
        "the package asked for",
    )
    _pkg(ws, d, {**DEPS, "ms": "^2"})
    r = ws.run(["bun", "install", "--frozen-lockfile"], d, env=env)
    add("bun-install-frozen-lockfile", r, [sig("error", "frozen")], "the dependency added after locking")
    big = "bun/big"
    _pkg(ws, big, BIG)
    r = ws.run(["bun", "install", "--verbose"], big, env=env)
    add(
        "bun-install-verbose-large",
        r,
        listed(big),
        "bun pm ls: direct dependencies with versions",
        "cold cache, --verbose",
    )
    return out
