"""Helpers shared by the package-manager capture modules (install_*.py)."""

from __future__ import annotations

import re
import shlex
from typing import Any

from capture._lib import Result, Workspace, sig

NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]


def clean_pip_env(ws: Workspace) -> None:
    """This machine's pip config adds local mirrors and find-links; a user's has none."""
    ws.env.pop("PIP_FIND_LINKS", None)
    ws.env["PIP_CONFIG_FILE"] = "/dev/null"


def npm_userconfig(ws: Workspace) -> None:
    """The machine's ~/.npmrc has a key npm warns about on every run: use an empty one."""
    rc = ws.path(".npmrc-capture")
    rc.write_text("")
    ws.env["NPM_CONFIG_USERCONFIG"] = str(rc)


def relabel(r: Result, command: str) -> Result:
    """Record the command the agent would type (the capture ran it through a wrapper)."""
    r.command = command
    r.argv = shlex.split(command)
    return r


def name_variants(name: str) -> list[str]:
    """Spellings a tool may print for one distribution name (case, - vs _ vs .)."""
    low = name.lower()
    out = [name, low, re.sub(r"[-_.]+", "_", name), re.sub(r"[-_.]+", "_", low), re.sub(r"[-_.]+", "-", low)]
    return list(dict.fromkeys(out))


def pkg_sig(kind: str, name: str, version: str, sep: str) -> dict[str, Any]:
    texts = [f"{n}{sep}{version}" for n in name_variants(name)]
    return sig(kind, texts[0], *texts[1:])


def lines_starting(text: str, *prefixes: str, limit: int = 120) -> list[str]:
    """Raw lines of the tool's own output that start with a prefix (error lines)."""
    out = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(prefixes):
            out.append(s[:limit])
    return list(dict.fromkeys(out))
