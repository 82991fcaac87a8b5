"""poetry install / add / remove in a throwaway project (real PyPI).

This machine's PyPI mirror lacks the per-version JSON API Poetry uses for pypi.org, so
the project names PyPI's simple index as its primary source (a legacy source: same
packages, metadata from the index). Signals: the `poetry.lock` written (every locked
package with its version, as Poetry prints `name (version)`), a lock diff for removals,
and for failures the requirement the project asked for and Poetry's own message line.
"""

from __future__ import annotations

import tomllib
from typing import Any

from capture._install_util import pkg_sig
from capture._lib import Result, Skip, Workspace, sig

RULE = "install/poetry"
FAMILY = "poetry"

PYPROJECT = """
[project]
name = "{name}"
version = "0.1.0"
requires-python = ">=3.11,<4"
dependencies = [{deps}]

[tool.poetry]
package-mode = false

[[tool.poetry.source]]
name = "pypi-simple"
url = "https://pypi.org/simple/"
priority = "primary"
"""


def _lock(ws: Workspace, cwd: str) -> dict[str, str]:
    p = ws.path(f"{cwd}/poetry.lock")
    if not p.exists():
        return {}
    data = tomllib.loads(p.read_text())
    return {pkg["name"]: pkg["version"] for pkg in data.get("package", [])}


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.pip_install("poetry")
    ws.require("poetry")
    version = ws.version(["poetry", "--version"])
    ws.env.update(
        {
            "POETRY_VIRTUALENVS_IN_PROJECT": "true",
            "POETRY_CACHE_DIR": str(ws.path("poetry-cache")),
            "POETRY_CONFIG_DIR": str(ws.path("poetry-config")),
            "POETRY_NO_INTERACTION": "1",
        }
    )
    ws.env.pop("VIRTUAL_ENV", None)
    fixtures: list[dict[str, Any]] = []
    lock_src = "the poetry.lock written: every locked package as `name (version)`"

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        fixtures.append(
            ws.fixture(
                id, RULE, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    def locked(lock: dict[str, str], only: set[str] | None = None) -> list[Any]:
        return [sig("package", f"{n} ({v})") for n, v in lock.items() if only is None or n in only]

    deps = '"requests>=2.31", "click>=8"'
    ws.write("api/pyproject.toml", PYPROJECT.format(name="api", deps=deps))
    r = ws.run(["poetry", "install"], "api")
    if r.exit_code != 0:
        raise Skip(f"poetry install failed: {r.stderr[-300:]}")
    lock = _lock(ws, "api")
    add("poetry-install-resolve", r, [*locked(lock), sig("summary", "Package operations")], lock_src)

    ws.sh("rm -rf .venv", "api")
    r = ws.run(["poetry", "install"], "api")
    add("poetry-install-from-lock", r, locked(lock), lock_src)

    r = ws.run(["poetry", "install"], "api")
    add("poetry-install-nothing", r, [sig("summary", "No dependencies to install or update")], "a second install")

    before = dict(lock)
    r = ws.run(["poetry", "add", "flask"], "api")
    lock = _lock(ws, "api")
    added = {n for n in lock if n not in before}
    add("poetry-add", r, locked(lock, added), "poetry.lock before and after: the packages the add locked")

    for fid, args in (
        ("poetry-add-conflict", ["flask==3.0.0", "werkzeug<2"]),
        ("poetry-add-unknown", ["tokenjuice-no-such-package-zzz"]),
    ):
        r = ws.run(["poetry", "add", *args], "api")
        names = [a.split("=")[0].split("<")[0] for a in args]
        add(
            fid,
            r,
            [sig("requirement", n) for n in names]
            + [sig("error", "version solving failed", "Could not find a matching version")],
            "the requirements asked for; Poetry's failure phrase for the case",
        )

    before = dict(lock)
    r = ws.run(["poetry", "remove", "flask"], "api")
    lock = _lock(ws, "api")
    gone = {n: v for n, v in before.items() if n not in lock}
    add("poetry-remove", r, [sig("removed", f"{n} ({v})") for n, v in gone.items()], "poetry.lock before and after")

    # pyproject.toml changed behind the lock file's back.
    ws.sh('sed -i \'s/"click>=8"/"click>=8", "rich"/\' pyproject.toml', "api")
    r = ws.run(["poetry", "install"], "api")
    add(
        "poetry-install-lock-outdated",
        r,
        [sig("error", "poetry.lock"), sig("hint", "poetry lock")],
        "the file and command Poetry's message names",
    )

    # A bigger project, very verbose (-vvv): the resolver's and installer's debug output.
    ws.write("lab/pyproject.toml", PYPROJECT.format(name="lab", deps='"pandas", "matplotlib", "httpx"'))
    r = ws.run(["poetry", "install", "-vvv"], "lab")
    # poetry.lock also holds other platforms' wheels-only packages: read what the venv got.
    frozen = ws.sh(".venv/bin/python -m pip freeze --all", "lab")
    pins = [ln.split("==", 1) for ln in frozen.splitlines() if "==" in ln]
    add(
        "poetry-install-vvv",
        r,
        [pkg_sig("package", n, f"({v})", " ") for n, v in pins if n.lower() not in ("pip", "setuptools", "wheel")],
        "pip freeze in the project's .venv afterwards: every package Poetry installed",
        "fresh cache, -vvv",
    )
    return fixtures
