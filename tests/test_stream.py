"""Huge outputs: `wrap` spools past a threshold, keeps a sample, stays in bounded memory,
and the stored artifact is the whole output (secrets replaced)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"

GEN = """
import sys
n = int(sys.argv[1])
w = sys.stdout.write
for i in range(n):
    w(f"[{i:09d}] processing shard {i % 977} of dataset alpha: ok, checksum {i * 7919 % 1000003:07d}\\n")
    if i == n // 2:
        w("src/loader.py:88: error: corrupted record in shard 412\\n")
        w("token in the middle: GH_TOKEN=@TOKEN@\\n")
        key = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\\n" * 40
        w("-----BEGIN RSA PRIVATE KEY-----\\n" + key + "-----END RSA PRIVATE KEY-----\\n")
sys.stderr.write("FATAL: 1 shard failed\\n")
sys.exit(3)
""".replace("@TOKEN@", GITHUB)


def wrap(tmp_path: Path, lines: int, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    gen = tmp_path / "gen.py"
    gen.write_text(GEN)
    return subprocess.run(
        [sys.executable, "-m", "tokenjuice", "wrap", "--", sys.executable, str(gen), str(lines)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=tmp_path,
    )


def test_streamed_output_keeps_signals_and_stores_everything(tmp_path: Path) -> None:
    p = wrap(tmp_path, 40_000, {"TOKENJUICE_STREAM_THRESHOLD": "200000"})
    assert p.returncode == 3
    text = p.stdout
    assert text.startswith("exit 3\n")
    assert "too large to hold, reduced from its head, its tail" in text
    assert "src/loader.py:88: error: corrupted record in shard 412" in text  # from the middle
    assert "FATAL: 1 shard failed" in text
    assert "[000039999] processing shard" in text  # the true tail
    assert GITHUB not in text and "QUJDREVGR0hJ" not in text
    footer = text.strip().splitlines()[-1]
    assert "streamed" in footer and "full output: tokenjuice cat " in footer
    omitted = int(footer.split(" of ")[0].split("… ")[1].replace(",", ""))
    kept = sum(1 for ln in text.splitlines()[2:-1] if ln.strip())
    assert omitted + kept >= 40_000  # every line is kept or counted
    aid = footer.rsplit("tokenjuice cat ", 1)[1].rstrip("]")
    cat = subprocess.run([sys.executable, "-m", "tokenjuice", "cat", aid], capture_output=True)
    stored = cat.stdout.decode()
    assert stored.count("processing shard") == 40_000
    assert "FATAL: 1 shard failed" in stored
    assert GITHUB not in stored and "[REDACTED:github-token]" in stored
    assert "QUJDREVGR0hJ" not in stored and "[REDACTED:private-key]" in stored
    spool = Path(os.environ["TOKENJUICE_HOME"]) / "state" / "spool"
    assert not spool.exists() or not any(spool.iterdir())  # the spool file is gone


def test_one_huge_line_is_streamed_and_counted_as_one(tmp_path: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "tokenjuice", "wrap", "--", sys.executable, "-c", "print('x' * 600_000)"],
        capture_output=True,
        text=True,
        env={**os.environ, "TOKENJUICE_STREAM_THRESHOLD": "200000"},
        cwd=tmp_path,
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("[1 MB, 1 line: too large to hold"), p.stdout[:200]
    assert "full output: tokenjuice cat " in p.stdout
    assert len(p.stdout) < 20_000


def test_below_the_threshold_nothing_is_spooled(tmp_path: Path) -> None:
    p = wrap(tmp_path, 2_000)
    assert "too large to hold" not in p.stdout
    assert "src/loader.py:88: error" in p.stdout


# Runs `wrap` as the only child of a fresh interpreter, so that RUSAGE_CHILDREN is the
# peak of wrap (and the small generator under it), not of earlier tests' processes.
PEAK = """
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(p.stdout)
sys.stderr.write(f"PEAK_KB={resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\\n")
sys.exit(p.returncode)
"""


TJ_WRAP = [sys.executable, "-m", "tokenjuice", "wrap", "--"]


@pytest.mark.slow
def test_a_gigabyte_runs_in_bounded_memory(tmp_path: Path) -> None:
    lines = 16_000_000  # about 1.1 GB of output
    gen = tmp_path / "gen.py"
    gen.write_text(GEN)
    p = subprocess.run(
        [
            sys.executable,
            "-c",
            PEAK,
            sys.executable,
            "-m",
            "tokenjuice",
            "wrap",
            "--",
            sys.executable,
            str(gen),
            str(lines),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    peak_mb = int(p.stderr.rsplit("PEAK_KB=", 1)[1]) / 1024
    assert p.returncode == 3
    assert "GB," in p.stdout and "src/loader.py:88: error" in p.stdout
    assert f"[{lines - 1:09d}] processing shard" in p.stdout
    assert "FATAL: 1 shard failed" in p.stdout
    assert peak_mb <= 100, f"peak RSS {peak_mb:.0f} MB"
