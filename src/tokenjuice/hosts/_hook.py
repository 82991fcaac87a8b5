"""Running a host hook: read the payload, decide, answer — and never break the host.

Whatever goes wrong (bad JSON, an unexpected payload, a bug here), the hook prints
nothing and exits 0, which every host reads as "run the tool call unchanged"; the
reason goes to stderr, which hosts show only in their debug views.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.hosts._rewrite import Plan

# A payload is a few KB; anything this large is not a hook payload.
MAX_PAYLOAD_BYTES = 8 << 20


def debug(message: str) -> None:
    if os.environ.get("TOKENJUICE_HOOK_DEBUG"):
        sys.stderr.write(f"tokenjuice hook: {message}\n")


def login_shell() -> str:
    """The user's shell (`$SHELL`), which Claude Code and Codex run commands in."""
    return os.path.basename(os.environ.get("SHELL") or "") or "bash"


def plan_for(command: str, shell: str, cwd: object = None, *, substitutions: bool = True) -> Plan:
    """The rewrite for `command`, run by the agent in `shell` (bash, zsh, sh, …) in
    `cwd` (the payload's, when it is a directory); `substitutions` as in `plan`."""
    from tokenjuice.hosts._base import tokenjuice_command
    from tokenjuice.hosts._rewrite import plan

    where = cwd if isinstance(cwd, str) and os.path.isdir(cwd) else None
    p = plan(command, tokenjuice_command(), shell=shell, cwd=where, substitutions=substitutions)
    debug(f"{p.reason}: {command[:200]!r}" + (f" -> {p.command[:300]!r}" if p.command else ""))
    return p


def respond(host_name: str, raw: bytes) -> str:
    """The text to print for one payload ('' to let the tool call run unchanged)."""
    from tokenjuice import _jsonc as json
    from tokenjuice import hosts

    if not hosts.hooks_enabled():
        debug("hooks disabled (TOKENJUICE_HOOK=0 or [hooks] enabled = false)")
        return ""
    if len(raw) > MAX_PAYLOAD_BYTES:
        debug(f"payload of {len(raw)} bytes ignored")
        return ""
    try:
        payload = json.loads(raw.decode("utf-8", "replace"))
    except ValueError as exc:
        sys.stderr.write(f"tokenjuice hook: payload is not JSON ({exc}); command left unchanged\n")
        return ""
    if not isinstance(payload, dict):
        return ""
    response = hosts.get(host_name).handle(payload)
    if response is None:
        return ""
    return json.dumps(response)  # json.dumps(response, ensure_ascii=False)
