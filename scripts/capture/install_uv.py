"""uv: `uv pip install/uninstall` in a venv, `uv add` / `uv sync` in a uv project.

Signals: `uv pip freeze` before and after (what an install added, removed or changed),
the `uv.lock` the command wrote (name and version of every locked package), and for
failures uv's own `error:` line and the requirement the project asked for.
"""

from __future__ import annotations

import tomllib
from typing import Any

from capture._install_util import lines_starting
from capture._lib import Result, Skip, Workspace, sig

RULE = "install/uv"
RULE_PIP = "install/uv-pip"
FAMILY = "uv"


def _freeze(ws: Workspace, cwd: str) -> dict[str, str]:
    out = ws.sh("uv pip freeze 2>/dev/null", cwd, check=False)
    pins = {}
    for line in out.splitlines():
        if "==" in line:
            name, ver = line.split("==", 1)
            pins[name.lower()] = ver
    return pins


def _lock(ws: Workspace, cwd: str, project: str) -> dict[str, str]:
    data = tomllib.loads(ws.path(f"{cwd}/uv.lock").read_text())
    return {p["name"]: p["version"] for p in data.get("package", []) if p["name"] != project and "version" in p}


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.pip_install("uv")
    ws.require("uv")
    version = ws.version(["uv", "--version"])
    # A cache of our own, so packages are really downloaded (the progress lines of a first install).
    ws.env["UV_CACHE_DIR"] = str(ws.path("uv-cache"))
    ws.env.pop("VIRTUAL_ENV", None)
    fixtures: list[dict[str, Any]] = []

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        rule = RULE_PIP if id.startswith("uv-pip-") else RULE
        fixtures.append(
            ws.fixture(
                id, rule, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    def diff_sigs(before: dict[str, str], after: dict[str, str]) -> list[Any]:
        out = []
        for name, ver in after.items():
            if before.get(name) != ver:
                out.append(sig("installed", f"{name}=={ver}"))
        for name, ver in before.items():
            if after.get(name) != ver:
                out.append(sig("removed", f"{name}=={ver}"))
        return out

    freeze_src = "uv pip freeze before and after: every package added, removed or changed"

    # --- uv pip in a plain venv
    ws.sh("uv venv -q venv", ".")
    ws.env["VIRTUAL_ENV"] = str(ws.path("venv"))
    before = _freeze(ws, ".")
    r = ws.run(["uv", "pip", "install", "flask==3.0.0", "requests"])
    if r.exit_code != 0:
        raise Skip(f"uv pip install failed: {r.stderr[-300:]}")
    add("uv-pip-install", r, diff_sigs(before, _freeze(ws, ".")), freeze_src)

    r = ws.run(["uv", "pip", "install", "flask==3.0.0", "requests"])
    add(
        "uv-pip-install-satisfied",
        r,
        [sig("summary", "Checked 2 packages", "Audited 2 packages")],
        "the two requirements asked for, both installed by the previous fixture",
    )

    before = _freeze(ws, ".")
    r = ws.run(["uv", "pip", "install", "werkzeug==2.3.8"])
    add("uv-pip-install-downgrade", r, diff_sigs(before, _freeze(ws, ".")), freeze_src)

    for fid, args in (
        ("uv-pip-install-conflict", ["flask==3.0.0", "werkzeug<2"]),
        ("uv-pip-install-unknown", ["tokenjuice-no-such-package-zzz"]),
    ):
        r = ws.run(["uv", "pip", "install", *args])
        add(
            fid,
            r,
            [sig("error", e) for e in lines_starting(r.stderr, "error:")] + [sig("requirement", a) for a in args],
            "uv's own error: line; the requirements asked for (named in the explanation)",
        )

    r = ws.run(
        ["uv", "pip", "install", "--index-url", "http://127.0.0.1:9/simple", "attrs"],
        env=dict(ws.env, UV_HTTP_RETRIES="0"),
    )
    add(
        "uv-pip-install-network-error",
        r,
        [sig("error", e) for e in lines_starting(r.stderr, "error:")] + [sig("cause", "Connection refused")],
        "uv's own error: line; the socket error of the closed local port",
        "index on a closed local port, UV_HTTP_RETRIES=0",
    )

    before = _freeze(ws, ".")
    r = ws.run(["uv", "pip", "uninstall", "flask", "jinja2"])
    add("uv-pip-uninstall", r, diff_sigs(before, _freeze(ws, ".")), freeze_src)
    ws.env.pop("VIRTUAL_ENV", None)

    # --- a uv project
    ws.write(
        "app/pyproject.toml",
        """
        [project]
        name = "app"
        version = "0.1.0"
        requires-python = ">=3.11"
        dependencies = []
        """,
    )
    r = ws.run(["uv", "add", "httpx", "rich>=13"], "app")
    lock = _lock(ws, "app", "app")
    # uv.lock also holds other platforms' packages: the installed set comes from the env.
    env_src = "uv pip freeze in the project's .venv afterwards: every package installed; uv.lock names the direct ones"
    add(
        "uv-add",
        r,
        [*diff_sigs({}, _freeze(ws, "app")), sig("locked", f"httpx=={lock['httpx']}")],
        env_src,
    )

    r = ws.run(["uv", "add", "flask==3.0.0", "werkzeug<2"], "app")
    add(
        "uv-add-conflict",
        r,
        [sig("error", e) for e in lines_starting(r.stderr, "error:")]
        + [sig("requirement", "flask==3.0.0"), sig("requirement", "werkzeug<2")],
        "uv's own error: line; the requirements asked for",
    )

    # The lock file no longer matches pyproject.toml.
    ws.sh('sed -i \'s/"rich>=13",/"rich>=13", "click",/\' pyproject.toml', "app")
    r = ws.run(["uv", "sync", "--locked"], "app")
    add(
        "uv-sync-locked-outdated",
        r,
        [sig("error", e) for e in lines_starting(r.stderr, "error:")] + [sig("hint", "uv lock")],
        "uv's own error: line; the command its hint names",
    )

    # A larger project synced from scratch, verbose (DEBUG lines, downloads).
    ws.write(
        "notebook/pyproject.toml",
        """
        [project]
        name = "notebook-env"
        version = "0.1.0"
        requires-python = ">=3.11"
        dependencies = ["jupyterlab", "pandas", "matplotlib"]
        """,
    )
    ws.sh("uv lock -q", "notebook")
    r = ws.run(["uv", "sync", "-v"], "notebook")
    installed = diff_sigs({}, _freeze(ws, "notebook"))
    add("uv-sync-verbose-large", r, installed, env_src, f"{len(installed)} packages, fresh cache")
    ws.sh("rm -rf .venv", "notebook")
    r = ws.run(["uv", "sync"], "notebook")
    add("uv-sync", r, installed, env_src, "cache warm")
    return fixtures
