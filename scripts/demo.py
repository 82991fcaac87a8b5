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


def as_typed() -> str:
    """How a person in the repository types this tokenjuice (`.venv/bin/tokenjuice`)."""
    exe = tokenjuice()
    if len(exe) == 1:
        path = Path(exe[0]).resolve()
        if shutil.which("tokenjuice") and Path(shutil.which("tokenjuice") or "").resolve() == path:
            return "tokenjuice"
        try:
            return str(path.relative_to(Path.cwd().resolve()))
        except ValueError:
            return str(path)
    return " ".join(exe)


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
        whole = sorted(back.stdout.splitlines()) == sorted(raw_text.encode().splitlines())
        print(
            f"read the dropped lines back: {as_typed()} cat {aid}  "
            f"({len(back.stdout):,} bytes, {'every raw line' if whole else 'NOT the raw output'})"
        )


def main() -> int:
    show("pytest -v demo/", [sys.executable, "-m", "pytest", "-v", "-o", "addopts=", "-p", "no:cacheprovider", "demo/"])
    show("git log --stat -n 60", ["git", "--no-pager", "log", "--stat", "-n", "60"])
    if as_typed() != "tokenjuice":
        print(f"\n`tokenjuice` is not on your PATH: run it as {as_typed()}, or `source .venv/bin/activate` first.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
