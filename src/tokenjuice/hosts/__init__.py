"""Coding-agent hosts: one module per CLI that runs shell commands for a model.

Each host installs a command hook (`tokenjuice hook <host>`) that rewrites the agent's
shell command to run through `tokenjuice wrap`, so what the model reads is reduced and
the full output is kept in the local store. See `tokenjuice install --help`.

Adding a host is one module defining a `Host` subclass and one line in `_HOSTS`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.hosts._base import Host

# name → module under tokenjuice.hosts (imported only when used).
_HOSTS = {
    "claude-code": "claude_code",
    "codex": "codex",
    "gemini-cli": "gemini_cli",
}


def names() -> list[str]:
    return list(_HOSTS)


def get(name: str) -> Host:
    import sys

    try:
        module = _HOSTS[name]
    except KeyError:
        raise KeyError(f"unknown host {name!r} (known: {', '.join(_HOSTS)})") from None
    # `importlib.import_module` without importing `importlib` (a hook call's start-up).
    full = f"tokenjuice.hosts.{module}"
    __import__(full)
    host: Host = sys.modules[full].HOST
    return host


def registry() -> dict[str, Host]:
    return {name: get(name) for name in _HOSTS}


def hooks_enabled() -> bool:
    """The kill switch: TOKENJUICE_HOOK=0 or config.toml `[hooks] enabled = false`."""
    import os

    if os.environ.get("TOKENJUICE_HOOK", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    from tokenjuice import config

    return config.section("hooks").get("enabled", True) is not False
