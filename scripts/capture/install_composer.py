"""composer install / require / update against local path repositories (packagist.org
is unreachable here: that failure is captured for real too), plus one synthesized
packagist install for the download/archive/funding lines a path repository never shows.

Signals: the composer.lock written (every locked package and version, as Composer
prints `vendor/name (version)`), the conflicting constraint the project was built with,
and the host Composer cannot reach.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Workspace, sig, synthesized

RULE = "package/composer"
FAMILY = "composer"


def _lib(ws: Workspace, name: str, version: str, requires: dict[str, str] | None = None, files: int = 1) -> None:
    data: dict[str, Any] = {
        "name": f"acme/{name}",
        "version": version,
        "type": "library",
        "autoload": {"psr-4": {f"Acme\\{name.capitalize()}\\": "src/"}},
        "require": {"php": ">=8.1", **(requires or {})},
    }
    ws.write(f"pkgs/{name}/composer.json", json.dumps(data, indent=2) + "\n")
    for k in range(files):
        ws.write(f"pkgs/{name}/src/C{k}.php", f"<?php\nnamespace Acme\\{name.capitalize()};\nclass C{k} {{}}\n")


def _app(ws: Workspace, d: str, require: dict[str, str], packagist: bool = False) -> None:
    repos: list[Any] = [{"type": "path", "url": "../pkgs/*", "options": {"symlink": True}}]
    if not packagist:
        repos.append({"packagist.org": False})
    data = {"name": f"acme/{d}", "repositories": repos, "require": require, "minimum-stability": "stable"}
    ws.write(f"{d}/composer.json", json.dumps(data, indent=2) + "\n")


def _locked(ws: Workspace, d: str) -> list[Any]:
    lock = json.loads(ws.path(f"{d}/composer.lock").read_text())
    return [sig("package", f"{p['name']} ({p['version']})") for p in lock.get("packages", [])]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("composer", "php")
    ws.env["COMPOSER_HOME"] = str(ws.path("composer-home"))
    ws.env["COMPOSER_NO_INTERACTION"] = "1"
    version = ws.version(["composer", "--version"])
    fixtures: list[dict[str, Any]] = []

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        fixtures.append(
            ws.fixture(
                id, RULE, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    lock_src = "composer.lock written: every locked package as `vendor/name (version)`"
    _lib(ws, "logger", "1.4.0")
    _lib(ws, "http", "2.1.0", {"acme/logger": "^1.2"})
    _app(ws, "app", {"acme/http": "^2.0"})
    r = ws.run(["composer", "install"], "app")
    add("composer-install-no-lock", r, [*_locked(ws, "app"), sig("summary", "Generating autoload files")], lock_src)

    r = ws.run(["composer", "install"], "app")
    add(
        "composer-install-nothing",
        r,
        [sig("summary", "Nothing to install, update or remove")],
        "a second install of the same lock",
    )

    r = ws.run(["composer", "require", "acme/logger:^2.0"], "app")
    add(
        "composer-require-conflict",
        r,
        [
            sig("error", "Your requirements could not be resolved"),
            sig("constraint", "acme/logger ^2.0"),
            sig("conflict", "acme/http 2.1.0 requires acme/logger ^1.2"),
        ],
        "the constraints the project was built with (acme/http needs acme/logger ^1.2)",
    )

    # Thirty path packages, updated with -vvv: Composer's debug output.
    names = [f"mod{k:02d}" for k in range(30)]
    for k, n in enumerate(names):
        _lib(ws, n, f"1.{k}.0", {f"acme/{names[k - 1]}": "^1.0"} if k else None, files=3)
    _app(ws, "big", {f"acme/{n}": "^1.0" for n in names[-5:]})
    r = ws.run(["composer", "update", "-vvv"], "big")
    add("composer-update-vvv", r, _locked(ws, "big"), lock_src, "30 path packages, -vvv")

    # packagist.org is unreachable from this machine.
    _app(ws, "net", {"monolog/monolog": "^3.0"}, packagist=True)
    r = ws.run(["composer", "install"], "net")
    add(
        "composer-install-packagist-unreachable",
        r,
        [sig("error", "repo.packagist.org"), sig("error", "could not be downloaded")],
        "the repository host this machine cannot resolve",
    )
    fixtures.append(_packagist_synth(version))
    return fixtures


PACKAGIST_OUT = """\
./composer.json has been updated
Running composer update monolog/monolog
Loading composer repositories with package information
Updating dependencies
Lock file operations: 2 installs, 0 updates, 0 removals
  - Locking monolog/monolog (3.8.1)
  - Locking psr/log (3.0.2)
Writing lock file
Installing dependencies from lock file (including require-dev)
Package operations: 2 installs, 0 updates, 0 removals
  - Downloading psr/log (3.0.2)
  - Downloading monolog/monolog (3.8.1)
 0/2 [>---------------------------]   0%
 1/2 [==============>-------------]  50%
 2/2 [============================] 100%
  - Installing psr/log (3.0.2): Extracting archive
  - Installing monolog/monolog (3.8.1): Extracting archive
 0/2 [>---------------------------]   0%
 2/2 [============================] 100%
13 package suggestions were added by new dependencies, use `composer suggest` to see details.
Generating autoload files
1 package you are using is looking for funding.
Use the `composer fund` command to find out more!
No security vulnerability advisories found.
Using version ^3.8 for monolog/monolog
"""


def _packagist_synth(version: str) -> dict[str, Any]:
    return synthesized(
        "composer-require-packagist",
        RULE,
        family=FAMILY,
        command="composer require monolog/monolog",
        exit_code=0,
        stdout="",
        stderr=PACKAGIST_OUT,
        signals=[
            sig("package", "monolog/monolog (3.8.1)"),
            sig("package", "psr/log (3.0.2)"),
            sig("summary", "Using version ^3.8 for monolog/monolog"),
        ],
        format_source="getcomposer.org/doc/03-cli.md (require/update) and Composer 2's installer output: "
        "'Lock file operations', '- Locking', 'Package operations', '- Downloading', "
        "'- Installing x (v): Extracting archive', the suggestion/funding/audit notes; "
        "packagist.org is unreachable from the capture machine",
        tool_version=version,
    )
