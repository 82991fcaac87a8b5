"""16 `tokenjuice wrap` processes at once share the store and the ledger: no lost record,
no corruption, no lock error reaching the agent; killed writers leave a usable store."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tokenjuice.store import ledger
from tokenjuice.store.artifacts import Store

EMIT = """
import sys
n = int(sys.argv[1])
lines = int(sys.argv[2])
for i in range(lines):
    print(f"worker {n}: compiled unit {i} of {lines} in {i * 7 % 97} ms")
print(f"worker {n}: error: unit {lines // 2} failed", file=sys.stderr)
sys.exit(n % 3)
"""


TJ_WRAP = [sys.executable, "-m", "tokenjuice", "wrap", "--"]


def spawn(tmp_path: Path, n: int, lines: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*TJ_WRAP, sys.executable, str(tmp_path / "emit.py"), str(n), str(lines)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )


def expected_output(tmp_path: Path, n: int, lines: int) -> bytes:
    p = subprocess.run([sys.executable, str(tmp_path / "emit.py"), str(n), str(lines)], capture_output=True)
    return p.stdout + p.stderr


@pytest.mark.slow
def test_sixteen_wraps_at_once(tmp_path: Path) -> None:
    (tmp_path / "emit.py").write_text(EMIT)
    state = Path(os.environ["TOKENJUICE_HOME"]) / "state"
    procs = [spawn(tmp_path, n, 3000 + n * 250) for n in range(16)]
    results = [(p, *p.communicate(timeout=300)) for p in procs]
    ids = []
    for n, (p, out, err) in enumerate(results):
        text = out.decode()
        assert p.returncode == n % 3, err
        assert err == b"", err  # nothing about locks or the store reaches the agent
        assert f"worker {n}: error: unit" in text
        assert "store unavailable" not in text
        ids.append(text.strip().splitlines()[-1].rsplit("tokenjuice cat ", 1)[1].rstrip("]"))
    store = Store(str(state))
    assert store.check() == "ok"
    for n, aid in enumerate(ids):
        assert store.read(aid) == expected_output(tmp_path, n, 3000 + n * 250)
    records = list(ledger.iter_records(str(state / "ledger")))
    assert len(records) == 16
    assert sorted(r["exit"] for r in records) == sorted(n % 3 for n in range(16))


@pytest.mark.slow
def test_writers_killed_mid_way_leave_a_consistent_store(tmp_path: Path) -> None:
    (tmp_path / "emit.py").write_text(EMIT)
    state = Path(os.environ["TOKENJUICE_HOME"]) / "state"
    rng = random.Random(3)
    for round_ in range(4):
        procs = [spawn(tmp_path, round_ * 10 + n, 60_000) for n in range(6)]
        time.sleep(rng.uniform(0.3, 1.2))
        for p in procs[::2]:
            p.send_signal(signal.SIGKILL)
        for p in procs:
            p.communicate(timeout=300)
    store = Store(str(state))
    assert store.check() == "ok"
    # The store and the ledger still work, and every record that was written parses.
    p = spawn(tmp_path, 99, 4000)
    out, _ = p.communicate(timeout=300)
    aid = out.decode().strip().splitlines()[-1].rsplit("tokenjuice cat ", 1)[1].rstrip("]")
    assert Store(str(state)).read(aid) == expected_output(tmp_path, 99, 4000)
    assert all("rule" in r for r in ledger.iter_records(str(state / "ledger")))


def test_threads_share_a_fresh_store(tmp_path: Path) -> None:
    """Agents run tools from thread pools: many threads, one store, first use included."""
    from concurrent.futures import ThreadPoolExecutor

    store = Store(str(tmp_path / "st"))

    def put(i: int) -> str:
        return store.put(f"output {i}\n".encode() * (100 + i), command=f"job {i}")

    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(put, range(64)))
    assert len(set(ids)) == 64
    assert store.check() == "ok"
    assert all(store.read(aid).startswith(b"output ") for aid in ids)
