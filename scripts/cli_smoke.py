#!/usr/bin/env python3
"""Smoke run of the installed CLI on one Python: `--version`, a `wrap` that reduces,
`cat` reading the full output back, and `reduce-json` on stdin.

    python scripts/cli_smoke.py .venv-3.12/bin

Prints one line per check; exits 1 on the first that fails, saying what it got.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

EMIT = (
    "for i in range(400): print(f'tests/test_m.py::test_{i} PASSED')\n"
    "print('FAILED tests/test_m.py::test_x - assert 1 == 2')\n"
    "print('1 failed, 400 passed in 1.0s')\n"
)


def _run(argv: list[str], env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, input=stdin, env=env, capture_output=True, text=True, timeout=120, check=False)


def _fail(what: str, got: subprocess.CompletedProcess[str]) -> int:
    detail = (got.stdout + got.stderr).strip().splitlines()
    print(f"cli smoke: {what} failed (exit {got.returncode}): {detail[-1] if detail else 'no output'}")
    return 1


def main(bin_dir: str) -> int:
    tj = str(Path(bin_dir) / "tokenjuice")
    python = str(Path(bin_dir) / "python")
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TOKENJUICE_HOME": home, "TOKENJUICE_LEDGER": "0"}
        got = _run([tj, "--version"], env)
        if got.returncode != 0 or not re.fullmatch(r"tokenjuice \d+\.\d+\S*\n", got.stdout):
            return _fail("--version", got)
        print(f"cli smoke: {got.stdout.strip()} on {_version(python)}")

        wrapped = _run([tj, "wrap", "--", python, "-c", EMIT], env)
        handle = re.search(r"tokenjuice cat ([0-9a-f]+)", wrapped.stdout)
        if wrapped.returncode != 0 or handle is None or "FAILED tests/test_m.py::test_x" not in wrapped.stdout:
            return _fail("wrap", wrapped)
        raw = _run([python, "-c", EMIT], env).stdout
        if len(wrapped.stdout) * 4 > len(raw):
            return _fail("wrap (no reduction)", wrapped)
        back = _run([tj, "cat", handle.group(1)], env)
        if back.returncode != 0 or back.stdout != raw:
            return _fail("cat read-back", back)
        print(f"cli smoke: wrap {len(raw)} -> {len(wrapped.stdout)} chars, cat gives the raw output back")

        payload = json.dumps({"command": "pytest -v", "stdout": raw, "exitCode": 1})
        reduced = _run([tj, "reduce-json"], env, stdin=payload)
        try:
            text = json.loads(reduced.stdout)["inlineText"]
        except (ValueError, KeyError, TypeError):
            return _fail("reduce-json", reduced)
        if "1 failed, 400 passed" not in text or len(text) >= len(raw):
            return _fail("reduce-json (no reduction)", reduced)
        print(f"cli smoke: reduce-json {len(raw)} -> {len(text)} chars")
    return 0


def _version(python: str) -> str:
    got = subprocess.run([python, "-c", "import sys; print(sys.version.split()[0])"], capture_output=True, text=True)
    return f"Python {got.stdout.strip()}"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: cli_smoke.py VENV_BIN_DIR")
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
