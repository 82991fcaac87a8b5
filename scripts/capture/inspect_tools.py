"""git grep, npm ls, iostat and vmstat on this machine.

git grep searches a repository written here (the planted TODO lines are the signals);
npm ls lists a project installed here from the npm registry, with a dependency removed
from node_modules and one added by hand so the tree reports a missing and an
extraneous package (`npm ls --json` says which); iostat and vmstat sample this
machine (sysstat and procps from apt), their headers being the signals.
"""

from __future__ import annotations

import json
import shutil
from typing import Any

from capture._lib import Skip, Workspace, sig


def capture(ws: Workspace) -> list[dict[str, Any]]:
    out = _git_grep(ws)
    if ws.which("npm"):
        out += _npm_ls(ws)
    ws.apt_install("sysstat", "procps")
    if ws.which("iostat"):
        out += _iostat(ws)
    if ws.which("vmstat"):
        out += _vmstat(ws)
    if not out:
        raise Skip("nothing could run")
    return out


def _git_grep(ws: Workspace) -> list[dict[str, Any]]:
    todos: list[tuple[str, int]] = []
    for m in range(30):
        lines = [f"// module {m}: order pipeline step", "export function step(input) {"]
        for k in range(40):
            if (m * 40 + k) % 23 == 0:
                lines.append(f"  // TODO(shop-{m * 40 + k}): validate the quantity before pricing")
                todos.append((f"src/step{m:02d}.js", len(lines)))
            else:
                lines.append(f"  input.total{k} = (input.total{k} ?? 0) + {k};")
        lines += ["  return input;", "}"]
        ws.write(f"repo/src/step{m:02d}.js", "\n".join(lines) + "\n")
    ws.sh("git init -q -b main && git add -A && git -c user.name=t -c user.email=t@e commit -qm init", "repo")
    ver = ws.version(["git", "--version"])
    r1 = ws.run(["git", "grep", "-n", "TODO"], "repo")
    r2 = ws.run(["git", "grep", "-n", "TODO", "no-such-rev"], "repo")
    return [
        ws.fixture(
            "git-grep-todos",
            "search/git-grep",
            r1,
            family="git-grep",
            signals=[sig("match", f"{path}:{line}") for path, line in todos],
            signal_source="the TODO lines planted in the repository, by file and line",
            tool_version=ver,
        ),
        ws.fixture(
            "git-grep-bad-revision",
            "search/git-grep",
            r2,
            family="git-grep",
            signals=[sig("error", "'no-such-rev': unknown revision or path not in the working tree")],
            signal_source="the revision named that does not exist",
            tool_version=ver,
        ),
    ]


def _npm_ls(ws: Workspace) -> list[dict[str, Any]]:
    pkg = {
        "name": "shop-api",
        "version": "2.1.0",
        "private": True,
        "dependencies": {"express": "4.21.2", "ms": "2.1.3", "left-pad": "1.3.0"},
    }
    ws.write("api/package.json", json.dumps(pkg, indent=2) + "\n")
    r = ws.run(["npm", "install", "--no-audit", "--no-fund"], "api")
    if r.exit_code != 0:
        raise Skip(f"npm install failed: {r.combined[-300:]}")
    # A dependency deleted and a package nobody asked for: npm ls reports both.
    shutil.rmtree(ws.path("api/node_modules/left-pad"))
    ws.write("api/node_modules/stray-helper/package.json", '{"name": "stray-helper", "version": "0.0.1"}\n')
    ver = {"npm": ws.version(["npm", "--version"]), "node": ws.version(["node", "--version"])}
    problems = json.loads(ws.run(["npm", "ls", "--json"], "api").stdout or "{}").get("problems", [])
    r = ws.run(["npm", "ls", "--all"], "api")
    return [
        ws.fixture(
            "npm-ls-all-problems",
            "package/npm-ls",
            r,
            family="npm-ls",
            signals=[sig("root", "shop-api@2.1.0"), sig("package", "express@4.21.2")]
            + [sig("problem", p.split(",")[0].replace("missing: ", "")) for p in problems],
            signal_source="npm ls --json's problems list, and the project's own dependencies",
            tool_version=ver,
        )
    ]


def _iostat(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["iostat", "-V"])
    r1 = ws.run(["iostat", "-x", "1", "6"])
    r2 = ws.run(["iostat", "-x", "no-such-device-zz", "1", "1"])
    return [
        ws.fixture(
            "iostat-extended-interval",
            "observability/iostat",
            r1,
            family="iostat",
            signals=[sig("header", "avg-cpu:"), sig("header", "Device")],
            signal_source="the report headers iostat -x prints (sysstat documentation)",
            tool_version=ver,
        ),
        ws.fixture(
            "iostat-unknown-device",
            "observability/iostat",
            r2,
            family="iostat",
            signals=[sig("header", "avg-cpu:")],
            signal_source="the report header iostat prints before the (empty) device list",
            tool_version=ver,
        ),
    ]


def _vmstat(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["vmstat", "--version"])
    r1 = ws.run(["vmstat", "-w", "1", "50"])
    r2 = ws.run(["vmstat", "-s"])
    return [
        ws.fixture(
            "vmstat-wide-samples",
            "observability/vmstat",
            r1,
            family="vmstat",
            signals=[sig("header", "procs"), sig("header", "swpd")],
            signal_source="the column headers vmstat prints (procps documentation)",
            tool_version=ver,
        ),
        ws.fixture(
            "vmstat-summary",
            "observability/vmstat",
            r2,
            family="vmstat",
            signals=[sig("total", "K total memory"), sig("total", "boot time")],
            signal_source="the counters vmstat -s lists (procps documentation)",
            tool_version=ver,
        ),
    ]
