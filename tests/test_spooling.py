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


def test_spooled_output_keeps_signals_and_stores_everything(tmp_path: Path) -> None:
    p = wrap(tmp_path, 40_000, {"TOKENJUICE_SPOOL_THRESHOLD": "200000"})
    assert p.returncode == 3
    text = p.stdout
    assert text.startswith("exit 3\n")
    assert "too large to hold, reduced from its head, its tail" in text
    assert "src/loader.py:88: error: corrupted record in shard 412" in text  # from the middle
    assert "FATAL: 1 shard failed" in text
    assert "[000039999] processing shard" in text  # the true tail
    assert GITHUB not in text and "QUJDREVGR0hJ" not in text
    footer = text.strip().splitlines()[-1]
    assert "spooled" in footer and "full output: tokenjuice cat " in footer
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


def test_one_huge_line_is_spooled_and_counted_as_one(tmp_path: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "tokenjuice", "wrap", "--", sys.executable, "-c", "print('x' * 600_000)"],
        capture_output=True,
        text=True,
        env={**os.environ, "TOKENJUICE_SPOOL_THRESHOLD": "200000"},
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


def test_a_line_too_long_to_hold_is_cut_between_fields_so_secrets_stay_whole(tmp_path: Path) -> None:
    """A line over 1 MB is cut before it ends; not inside a `name=value` pair or a token."""
    from tokenjuice.redact import Redactor
    from tokenjuice.spooling import SpoolSink

    r = Redactor()
    sink = SpoolSink(limit=1000, redact=lambda b: r.redact_bytes(b)[0])
    field = '"id": 12345, "note": "' + "z" * 40 + '", '
    secret = "Hx7kq2p-Zq8wXk29Lm3N"
    line = field * (1_200_000 // len(field))
    # A secret right where a 1 MB piece would end, and a token a little after.
    at = (1 << 20) - 10
    line = line[:at] + f'"password": "{secret}", "t": "{GITHUB}", ' + line[at:]
    data = (line + "\n").encode()
    for i in range(0, len(data), 65536):
        sink.feed_bytes(0, data[i : i + 65536])
    sink.to_run()
    assert sink.spooled is not None
    stored = Path(sink.spooled.path).read_bytes()
    sink.discard()
    assert secret.encode() not in stored and GITHUB.encode() not in stored
    assert stored.count(b'"id": 12345') == line.count('"id": 12345')  # nothing else changed


def _sink_fed(monkeypatch: pytest.MonkeyPatch, fail_after: int | None, create_fails: bool = False) -> object:
    """A SpoolSink fed 3 MB past a 1 MB threshold, its spool file failing as a full disk
    does: on creation, or after `fail_after` bytes."""
    import errno

    from tokenjuice.model import STDOUT
    from tokenjuice.spooling import SpoolSink
    from tokenjuice.store import spool

    real_create = spool.create

    class Full:
        def __init__(self, f: object) -> None:
            self.f, self.n = f, 0

        def write(self, data: bytes) -> int:
            self.n += len(data)
            if fail_after is not None and self.n > fail_after:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.f.write(data)  # type: ignore[attr-defined, no-any-return]

        def close(self) -> None:
            self.f.close()  # type: ignore[attr-defined]

    def create() -> tuple[object, str]:
        if create_fails:
            raise OSError(errno.EROFS, "Read-only file system")
        f, path = real_create()
        return Full(f), path

    monkeypatch.setattr(spool, "create", create)
    sink = SpoolSink(limit=1 << 20)
    line = b"progress: a line of noise\n" * 1000
    for _ in range((3 << 20) // len(line) + 1):
        sink.feed_bytes(STDOUT, line)
    sink.feed_bytes(STDOUT, b"src/a.c:1: error: at the end\n")
    return sink


@pytest.mark.parametrize(
    ("fail_after", "create_fails", "why"), [(2 << 20, False, "No space"), (None, True, "Read-only")]
)
def test_a_spool_file_that_cannot_be_written_is_given_up(
    fail_after: int | None, create_fails: bool, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tokenjuice.store import spool

    sink = _sink_fed(monkeypatch, fail_after, create_fails)
    run = sink.to_run(exit_code=5)  # type: ignore[attr-defined]
    st = run.metadata["spooled"]
    assert st.path is None and st.lost is not None and why in st.lost
    assert st.total_bytes > 3 << 20  # still counted to the end
    assert run.combined.rstrip("\n").endswith("src/a.c:1: error: at the end")
    assert not os.path.isdir(spool.spool_dir()) or os.listdir(spool.spool_dir()) == []  # no partial spool file
    sink.discard()  # type: ignore[attr-defined]
