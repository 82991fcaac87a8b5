"""npm install / ci / uninstall on throwaway projects (real npm registry).

Signals: the package-lock.json written (`added N packages` counts its installed
entries; a dependency's locked version), a rerun with `--json` for failures (the error
code and the first line of its summary), and the data a project was built with (the
failing lifecycle script's message). This registry mirror answers GET only (no audit
endpoint) and carries no deprecation notices, so the audit/deprecation fixture is
synthesized from npm's documented output.
"""

from __future__ import annotations

import json
from typing import Any

from capture._install_util import NOBODY, npm_userconfig, relabel
from capture._lib import Result, Skip, Workspace, sig, synthesized

RULE = "install/npm-install"
RULE_CI = "install/npm-ci"  # npm ci has its own rule, as in the TypeScript tokenjuice
FAMILY = "npm-install"


def _pkg(ws: Workspace, d: str, deps: dict[str, str] | None = None, **extra: Any) -> None:
    data: dict[str, Any] = {"name": d.rsplit("/", 1)[-1], "version": "1.0.0", "private": True}
    if deps:
        data["dependencies"] = deps
    data.update(extra)
    ws.write(f"{d}/package.json", json.dumps(data, indent=2) + "\n")


def _locked(ws: Workspace, d: str) -> dict[str, str]:
    """Installed packages in the lock file: path → version (the root entry excluded)."""
    lock = json.loads(ws.path(f"{d}/package-lock.json").read_text())
    # Optional packages for other platforms (fsevents) are locked but not installed.
    return {
        k: v.get("version", "")
        for k, v in lock.get("packages", {}).items()
        if k and not v.get("link") and ws.path(f"{d}/{k}").exists()
    }


def _json_error(ws: Workspace, argv: list[str], cwd: str) -> list[Any]:
    """Rerun with --json: npm prints {"error": {"code", "summary", "detail"}}."""
    out = ws.sh(" ".join([*argv, "--json"]) + " 2>/dev/null; true", cwd)
    try:
        err = json.loads(out)["error"]
    except (ValueError, KeyError, TypeError):
        return []
    sigs = [sig("error_code", err["code"])] if err.get("code") else []
    first = (err.get("summary") or "").strip().splitlines()
    if first:
        sigs.append(sig("error", first[0][:100]))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("npm", "node")
    npm_userconfig(ws)
    for d in (ws.root.parent, ws.root):
        d.chmod(0o755)  # the EACCES fixture runs npm as an unprivileged user
    ws.env["npm_config_cache"] = str(ws.path("npm-cache"))  # a cold cache: real downloads
    version = {"npm": ws.version(["npm", "--version"]), "node": ws.version(["node", "--version"])}
    fixtures: list[dict[str, Any]] = []
    # npm's own defaults (funding message, audit) for most runs, as a user sees them.
    defaults = dict(ws.env, npm_config_fund="true", npm_config_audit="true")

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        fixtures.append(
            ws.fixture(
                id,
                RULE_CI if id.startswith("npm-ci") else RULE,
                r,
                family=FAMILY,
                signals=signals,
                signal_source=source,
                tool_version=version,
                notes=notes,
            )
        )

    lock_src = "package-lock.json written: the installed entries (count) and locked versions"

    def added(d: str) -> Any:
        n = len(_locked(ws, d))
        return sig("summary", f"added {n} package" + ("s" if n != 1 else ""))

    # A plain install of one dependency with its tree.
    _pkg(ws, "web")
    r = ws.run(["npm", "install", "express"], "web", env=defaults)
    if r.exit_code != 0:
        raise Skip(f"npm install failed: {r.stderr[-300:]}")
    add("npm-install-express", r, [added("web")], lock_src)

    # Nothing to do.
    r = ws.run(["npm", "install"], "web", env=defaults)
    add("npm-install-up-to-date", r, [sig("summary", "up to date")], "a second install of the same lock")

    # npm ci from the lock file.
    ws.sh("rm -rf node_modules", "web")
    r = ws.run(["npm", "ci"], "web", env=defaults)
    add("npm-ci", r, [added("web")], lock_src)

    # npm ci without a lock file: EUSAGE with the whole usage text.
    _pkg(ws, "nolock", {"ms": "^2.1.3"})
    r = ws.run(["npm", "ci"], "nolock", env=defaults)
    add("npm-ci-no-lockfile", r, _json_error(ws, ["npm", "ci"], "nolock"), "rerun with --json: error code and summary")

    # Unknown package: E404.
    _pkg(ws, "e404")
    args = ["npm", "install", "tokenjuice-no-such-package-zzz"]
    r = ws.run(args, "e404", env=defaults)
    add(
        "npm-install-404",
        r,
        [*_json_error(ws, args, "e404"), sig("package", "tokenjuice-no-such-package-zzz")],
        "rerun with --json: error code and summary; the package asked for",
    )

    # Peer dependency conflict: ERESOLVE.
    _pkg(ws, "peers")
    args = ["npm", "install", "react@18", "react-dom@17"]
    r = ws.run(args, "peers", env=defaults)
    add(
        "npm-install-eresolve",
        r,
        [*_json_error(ws, args, "peers"), sig("conflict", 'peer react@"17.0.2" from react-dom@17.0.2')],
        "rerun with --json: error code, summary, and the peer requirement its detail names",
    )

    # The same with --force: installed, with peer-override warnings.
    r = ws.run([*args, "--force"], "peers", env=defaults)
    locked = _locked(ws, "peers")
    add(
        "npm-install-force-peer-warnings",
        r,
        [
            added("peers"),
            sig("warning", "--force"),
            sig("warning", "ERESOLVE overriding peer dependency"),
            sig("version", f"react@{locked['node_modules/react']}"),
        ],
        "package-lock.json (count, react's locked version); the warnings --force always prints",
    )

    # A failing postinstall script of a local dependency.
    _pkg(
        ws,
        "scripts/native-addon",
        scripts={
            "postinstall": "node -e \"console.error('gyp ERR! build error: missing python3-dev'); process.exit(7)\""
        },
    )
    _pkg(ws, "scripts/app", {"native-addon": "file:../native-addon"})
    r = ws.run(["npm", "install", "--install-links"], "scripts/app", env=defaults)
    add(
        "npm-install-postinstall-fails",
        r,
        [
            sig("error", "gyp ERR! build error: missing python3-dev"),
            sig("code", "code 7"),
            sig("package", "native-addon"),
        ],
        "the project's postinstall script (its message and exit code)",
    )

    # Registry unreachable.
    _pkg(ws, "offline")
    args = ["npm", "install", "--registry", "http://127.0.0.1:9/", "--fetch-retries", "0", "lodash"]
    r = ws.run(args, "offline", env=defaults)
    add(
        "npm-install-network-error",
        r,
        [*_json_error(ws, args, "offline"), sig("cause", "ECONNREFUSED")],
        "rerun with --json: error code and summary",
        "registry on a closed local port",
    )

    # Permission denied: an unprivileged user installing into a root-owned project.
    r = ws.run(
        [*NOBODY, "npm", "install", "ms"], "web", env=dict(defaults, HOME="/tmp", npm_config_cache="/tmp/.npm-nobody")
    )
    relabel(r, "npm install ms")
    add(
        "npm-install-eacces",
        r,
        [sig("error_code", "EACCES"), sig("error", "permission denied")],
        "the errno of writing into a directory owned by root as an unprivileged user",
        "run as an unprivileged user (setpriv)",
    )

    # Uninstall.
    before = len(_locked(ws, "web"))
    r = ws.run(["npm", "uninstall", "express"], "web", env=defaults)
    removed = before - len(_locked(ws, "web"))
    add("npm-uninstall", r, [sig("summary", f"removed {removed} packages")], "package-lock.json before and after")

    # A large dependency tree, --verbose, cold cache.
    _pkg(ws, "bundler", {"webpack": "^5", "jest": "^29", "typescript": "^5"})
    r = ws.run(["npm", "install", "--verbose"], "bundler")
    add("npm-install-verbose-large", r, [added("bundler")], lock_src, "webpack + jest + typescript, cold cache")

    fixtures.append(_audit_synth(version))
    return fixtures


AUDIT_STDOUT = """\
npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, which is much more comprehensive and powerful.
npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported
npm warn deprecated request@2.88.2: request has been deprecated, see https://github.com/request/request/issues/3142
npm warn deprecated har-validator@5.1.5: this library is no longer supported
npm warn deprecated uuid@3.4.0: Please upgrade  to version 7 or higher.  Older versions may use Math.random() in certain circumstances, which is known to be problematic.  See https://v8.dev/blog/math-random for details.

added 187 packages, and audited 188 packages in 9s

24 packages are looking for funding
  run `npm fund` for details

7 vulnerabilities (2 moderate, 4 high, 1 critical)

To address issues that do not require attention, run:
  npm audit fix

To address all issues (including breaking changes), run:
  npm audit fix --force

Run `npm audit` for details.
"""


def _audit_synth(version: dict[str, str]) -> dict[str, Any]:
    return synthesized(
        "npm-install-audit-deprecations",
        RULE,
        family=FAMILY,
        command="npm install",
        exit_code=0,
        stdout="",
        stderr=AUDIT_STDOUT,
        signals=[
            sig("warning", "deprecated request@2.88.2"),
            sig("warning", "deprecated uuid@3.4.0"),
            sig("warning", "deprecated inflight@1.0.6"),
            sig("summary", "added 187 packages, and audited 188 packages"),
            sig("audit", "7 vulnerabilities (2 moderate, 4 high, 1 critical)"),
            sig("hint", "npm audit fix --force"),
        ],
        format_source="npm 7+ install summary (npm/cli lib/utils/reify-output.js; docs.npmjs.com/cli/commands/npm-audit): "
        "'added N packages, and audited M packages in Ns', the funding note, 'N vulnerabilities (… moderate, … high)' "
        "with its 'npm audit fix' hints; deprecations as 'npm warn deprecated <pkg>@<ver>: <message>' (npm 10+). "
        "This registry mirror has no audit endpoint and no deprecation data",
        tool_version=f"npm {version['npm']}",
    )
