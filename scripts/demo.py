#!/usr/bin/env python3
"""`./dev demo`: run a real command raw and through `tokenjuice wrap`, and compare.

The command is a verbose pytest run of `demo/` (440 passing tests, 2 failures); then
`git log --stat` of this repository. For each: what the agent would have read, what
it reads with tokenjuice, and how to get the dropped part back.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def tokenjuice() -> list[str]:
    exe = shutil.which("tokenjuice", path=os.path.dirname(sys.executable)) or shutil.which("tokenjuice")
    return [exe] if exe else [sys.executable, "-m", "tokenjuice"]


def show(title: str, cmd: list[str]) -> None:
    raw = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    raw_text = raw.stdout + raw.stderr
    wrapped = subprocess.run([*tokenjuice(), "wrap", "--", *cmd], cwd=REPO, capture_output=True, text=True)
    text = wrapped.stdout
    bar = "─" * 78
    print(f"\n{bar}\n$ {title}\n{bar}")
    print(text.rstrip())
    print(bar)
    saved = 100 * (1 - len(text) / max(1, len(raw_text)))
    print(
        f"raw: {len(raw_text):,} chars, {raw_text.count(chr(10)):,} lines  →  "
        f"reduced: {len(text):,} chars ({saved:.1f}% smaller); exit code {raw.returncode} kept ({wrapped.returncode})"
    )
    last = text.strip().splitlines()[-1] if text.strip() else ""
    if "tokenjuice cat " in last:
        aid = last.rsplit("tokenjuice cat ", 1)[1].rstrip("]")
        back = subprocess.run([*tokenjuice(), "cat", aid], capture_output=True)
        same = back.stdout == (raw.stdout + raw.stderr).encode() or len(back.stdout) >= len(raw_text.encode()) * 0.95
        print(f"full output: `tokenjuice cat {aid}` gives back {len(back.stdout):,} bytes" + ("" if same else " (!)"))


def main() -> int:
    os.environ.setdefault("TOKENJUICE_HOME", str(REPO / ".tokenjuice-work" / "demo-home"))
    show("pytest -v demo/", [sys.executable, "-m", "pytest", "-v", "-o", "addopts=", "-p", "no:cacheprovider", "demo/"])
    show("git log --stat -n 60", ["git", "--no-pager", "log", "--stat", "-n", "60"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
