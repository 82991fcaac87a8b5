"""The failing, noisy command both adapter suites run, and what its reduction must keep."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

# A fake GitHub token: "ghp_" and 36 characters.
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
assert len(SECRET) == 40

SCRIPT = f"""\
import sys
for i in range(3000):
    print(f"progress: step {{i}}/3000 processing chunk {{i * 7}} ... ok", flush=True)
print("using token {SECRET}", flush=True)
def connect():
    raise RuntimeError("database connection refused")
try:
    connect()
except RuntimeError:
    import traceback
    traceback.print_exc()
sys.exit(3)
"""
RAISE_LINE = 6


class Noisy:
    """`command` prints 3,000 progress lines, the secret, a traceback on stderr; exits 3."""

    def __init__(self, tmp_path: Path) -> None:
        self.script = tmp_path / "noisy_job.py"
        self.script.write_text(SCRIPT)
        self.command = f"{shlex.quote(sys.executable)} {shlex.quote(str(self.script))}"
        self.raw_chars = 150_000  # at least: 3,000 lines of about 54 characters


def assert_reduced(text: str, noisy: Noisy) -> str:
    """Checks what the model got for the noisy command; returns the artifact id."""
    assert text.startswith("exit 3\n"), text[:200]
    assert "RuntimeError: database connection refused" in text
    assert f'File "{noisy.script}", line {RAISE_LINE}, in connect' in text
    assert "Traceback (most recent call last):" in text
    assert SECRET not in text
    assert "using token [REDACTED:github-token]" in text
    assert len(text) < noisy.raw_chars / 20, len(text)
    last = text.rstrip("\n").splitlines()[-1]
    m = re.search(r"tokenjuice cat ([0-9a-f]+)\]?$", last)
    assert m, last
    return m.group(1)


def assert_full_output_kept(artifact: str) -> None:
    """`tokenjuice cat <id>` gives back every line, with the secret still redacted."""
    out = subprocess.run(
        [sys.executable, "-m", "tokenjuice", "cat", artifact],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        check=True,
    ).stdout
    assert out.count("progress: step") == 3000
    assert SECRET not in out
    assert "[REDACTED:github-token]" in out
