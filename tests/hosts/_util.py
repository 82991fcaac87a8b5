"""Running `tokenjuice hook HOST` and the command it hands back, as the host would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def run_hook(
    host: str, payload: object, *, env: dict[str, str] | None = None, raw: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    data = raw if raw is not None else json.dumps(payload).encode()
    return subprocess.run(
        [sys.executable, "-m", "tokenjuice", "hook", host],
        input=data,
        capture_output=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def run_shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a command line the way the hosts' shell tools do (bash -c)."""
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=120)


def failing_script(tmp: Path) -> str:
    """A command with a long, noisy stdout, an error on stderr and exit code 4."""
    (tmp / "build.py").write_text(
        "import sys\n"
        "for i in range(2000):\n"
        "    print(f'compiling module_{i}.c ... ok')\n"
        "print('src/net.c:42:7: error: unknown type name sockaddr', file=sys.stderr)\n"
        "sys.exit(4)\n"
    )
    return f"{sys.executable} build.py"
