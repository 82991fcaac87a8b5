"""pip install / uninstall / download in throwaway venvs (real PyPI).

Signals: for installs, a `pip install --dry-run --report` run beforehand names every
distribution and version pip will install; `pip check` names broken requirements;
`pip freeze` before/after names what an uninstall removed; for failures, pip's own
`ERROR:` lines (first 100 characters) and the requirement the project asked for.
"""

from __future__ import annotations

import json
import re
from typing import Any

from capture._install_util import NOBODY, clean_pip_env, lines_starting, pkg_sig, relabel
from capture._lib import Result, Skip, Workspace, sig

RULE = "install/pip"
FAMILY = "pip-install"

SETUP_PY_BROKEN = """
from setuptools import setup

raise RuntimeError("libfoo headers not found: set FOO_INCLUDE_DIR")

setup(name="fastparse", version="0.3.0")
"""

REQUIREMENTS = """
# web service dependencies
flask==3.0.0
requests>=2.31
sqlalchemy>=2.0
pydantic>=2.5
alembic
celery[redis]
boto3
rich
jupyterlab
sphinx
"""


def _report(ws: Workspace, pip: str, args: list[str]) -> list[dict[str, Any]]:
    out = ws.path("report.json")
    ws.sh(f"{pip} install --dry-run --quiet --report {out} " + " ".join(f"'{a}'" for a in args))
    data = json.loads(out.read_text())
    out.unlink()
    return [i["metadata"] for i in data["install"]]


def _freeze(ws: Workspace, pip: str) -> dict[str, str]:
    out = ws.sh(f"{pip} freeze --all")
    pins = {}
    for line in out.splitlines():
        if "==" in line:
            name, ver = line.split("==", 1)
            pins[name] = ver
    return pins


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("python3")
    clean_pip_env(ws)
    # The permission-denied fixture runs pip as an unprivileged user: the scratch
    # directories must be traversable for it.
    for d in (ws.root.parent, ws.root):
        d.chmod(0o755)
    venv = ws.path("venv")
    ws.sh(f"python3 -m venv {venv}")
    ws.sh(f"{venv}/bin/python -m pip install -q -U pip")
    pip = f"{venv}/bin/pip"
    ws.env["PATH"] = f"{venv}/bin:" + ws.env["PATH"]
    ws.env["VIRTUAL_ENV"] = str(venv)
    version = ws.version([pip, "--version"]).split(" from ")[0]
    fixtures: list[dict[str, Any]] = []

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        fixtures.append(
            ws.fixture(
                id, RULE, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    def installed(meta: list[dict[str, Any]]) -> list[Any]:
        return [pkg_sig("installed", m["name"], m["version"], "-") for m in meta]

    report_src = "pip install --dry-run --report beforehand: every distribution and version to be installed"

    # A few packages with their dependencies.
    args = ["flask==3.0.0", "requests"]
    meta = _report(ws, pip, args)
    r = ws.run(["pip", "install", *args])
    if r.exit_code != 0:
        raise Skip(f"pip install failed: {r.stderr[-300:]}")
    add("pip-install-few", r, [*installed(meta), sig("summary", "Successfully installed")], report_src)

    # Everything already there.
    r = ws.run(["pip", "install", *args])
    add(
        "pip-install-already-satisfied",
        r,
        [sig("requirement", a) for a in args] + [sig("summary", "already satisfied")],
        "the requirements the command asked for (all installed by the previous fixture)",
    )

    # A downgrade that leaves flask with a broken requirement: pip still exits 0.
    r = ws.run(["pip", "install", "werkzeug==2.3.8"])
    check = ws.sh(f"{pip} check", check=False)
    # `pip check` words it "flask 3.0.0 has requirement Werkzeug>=3.0.0, but you have werkzeug 2.3.8."
    broken = re.findall(r"^(\S+ \S+) has requirement (\S+), but you have (\S+ [^\s,]+?)\.?$", check, re.M)
    add(
        "pip-install-downgrade-breaks-dependency",
        r,
        [sig("conflict", part) for b in broken for part in b]
        + [sig("installed", "werkzeug-2.3.8"), sig("uninstalled", "Werkzeug-3.1.9", "werkzeug-3.1.9")],
        "pip check afterwards (the broken requirement) and the pin the command asked for",
        "exit 0 although pip reports a dependency conflict",
    )
    ws.sh(f"{pip} install -q 'werkzeug>=3'")

    # Unknown package, impossible version, conflicting requirements.
    for fid, args, note in (
        ("pip-install-unknown-package", ["tokenjuice-no-such-package-zzz"], None),
        ("pip-install-no-matching-version", ["requests==99.0"], "the error lists every released version"),
        ("pip-install-resolution-impossible", ["flask==3.0.0", "werkzeug<2"], None),
    ):
        r = ws.run(["pip", "install", *args])
        errors = [e.split(" (from versions:")[0] for e in lines_starting(r.stderr, "ERROR:", limit=100)]
        sigs = [sig("error", e) for e in errors]
        if "(from versions:" in r.stderr:
            # The newest release, from pip's index listing: what the agent would pin instead.
            listing = ws.sh(f"{pip} index versions {args[0].split('==')[0]}", check=False)
            newest = listing.split("(", 1)[1].split(")", 1)[0] if "(" in listing else ""
            if newest:
                sigs.append(sig("newest_version", newest))
        add(
            fid,
            r,
            sigs,
            "pip's own ERROR: lines (first 100 characters, without the version list); "
            "the newest release from pip index versions",
            note,
        )

    # A large requirements file: ~100 distributions, with download progress bars.
    ws.write("service/requirements.txt", REQUIREMENTS)
    big_venv = ws.path("bigvenv")
    ws.sh(f"python3 -m venv {big_venv} && {big_venv}/bin/python -m pip install -q -U pip")
    big_pip = f"{big_venv}/bin/pip"
    meta = _report(ws, big_pip, ["-r", str(ws.path("service/requirements.txt"))])
    r = ws.run([f"{big_venv}/bin/pip", "install", "-r", "requirements.txt"], "service")
    relabel(r, "pip install -r requirements.txt")
    add(
        "pip-install-requirements-large",
        r,
        [*installed(meta), sig("summary", "Successfully installed")],
        report_src,
        f"{len(meta)} distributions",
    )

    # Verbose source builds (setuptools and hatchling output of the build backends).
    args = ["six", "python-dateutil"]
    meta = _report(ws, pip, ["--no-binary", ":all:", *args])
    r = ws.run(["pip", "install", "-v", "--no-cache-dir", "--no-binary", ":all:", *args])
    add("pip-install-verbose-sdist", r, [*installed(meta), sig("summary", "Successfully installed")], report_src)

    # A local sdist whose setup.py fails.
    ws.write("fastparse/setup.py", SETUP_PY_BROKEN)
    ws.write(
        "fastparse/pyproject.toml",
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n',
    )
    r = ws.run(["pip", "install", "./fastparse"])
    add(
        "pip-install-build-failure",
        r,
        [
            sig("error", "RuntimeError: libfoo headers not found: set FOO_INCLUDE_DIR"),
            sig("error", "subprocess-exited-with-error"),
        ]
        + [sig("error", e) for e in lines_starting(r.stderr, "ERROR:", limit=100)],
        "the exception the project's setup.py raises; pip's ERROR: lines",
    )

    # No network to the index.
    r = ws.run(
        ["pip", "install", "--index-url", "http://127.0.0.1:9/simple", "--retries", "2", "--timeout", "2", "attrs"]
    )
    add(
        "pip-install-network-error",
        r,
        [sig("error", e) for e in lines_starting(r.stderr, "ERROR:", limit=100)]
        + [sig("warning", "Retrying", "retrying")],
        "pip's ERROR: lines; the retry warnings",
        "index on a closed local port",
    )

    # Permission denied: an unprivileged user installing into a root-owned venv.
    r = ws.run([*NOBODY, f"{venv}/bin/pip", "install", "--no-cache-dir", "tomli"])
    relabel(r, "pip install tomli")
    add(
        "pip-install-permission-denied",
        r,
        [sig("error", e) for e in lines_starting(r.stderr, "ERROR:", limit=100)],
        "pip's ERROR: lines",
        "run as an unprivileged user (setpriv) against a venv owned by root",
    )

    # Debian's system interpreter refuses (PEP 668).
    if ws.which("/usr/bin/python3") and ws.sh("/usr/bin/python3 -m pip --version", check=False):
        r = ws.run(["/usr/bin/python3", "-m", "pip", "install", "requests"])
        add(
            "pip-install-externally-managed",
            r,
            [sig("error", "externally-managed-environment"), sig("hint", "--break-system-packages")],
            "PEP 668: the error code and the override the marker file's message names",
            "Debian 12 system python with an EXTERNALLY-MANAGED marker",
        )

    # Uninstall: two installed, one not.
    before = _freeze(ws, pip)
    r = ws.run(["pip", "uninstall", "-y", "flask", "jinja2", "tokenjuice-not-installed"])
    after = _freeze(ws, pip)
    gone = {k: v for k, v in before.items() if k not in after}
    add(
        "pip-uninstall",
        r,
        [sig("uninstalled", f"{k}-{v}", f"{k.lower()}-{v}", f"{k.capitalize()}-{v}") for k, v in gone.items()]
        + [sig("warning", "tokenjuice-not-installed")],
        "pip freeze before and after: the distributions removed; the name that was not installed",
    )

    # Download only.
    r = ws.run(["pip", "download", "--no-deps", "-d", "dl", "six==1.17.0", "idna==3.10"])
    saved = sorted(p.name for p in ws.path("dl").iterdir())
    add("pip-download", r, [sig("saved", s) for s in saved], "the files written to the download directory")
    return fixtures
