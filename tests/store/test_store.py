"""The artifact store, the ledger and the savings report, through the API and the CLI,
with real command runs."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.helpers import load
from tokenjuice.reduction.engine import UNSTORED_NOTE, Reducer
from tokenjuice.rules.fixtures import fixture_run
from tokenjuice.store import ledger
from tokenjuice.store.artifacts import Store, StoreError, artifact_id
from tokenjuice.store.report import Summary, discover, multipliers, parse_since

TJ = [sys.executable, "-m", "tokenjuice"]


def tj(
    *args: str,
    home: Path,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    e = dict(os.environ, TOKENJUICE_HOME=str(home), **(env or {}))
    return subprocess.run([*TJ, *args], input=stdin, capture_output=True, env=e, timeout=120)


BUILD = textwrap.dedent("""
    import sys
    out = sys.stdout.buffer
    for i in range(4000):
        out.write(f"compiling unit {i}/4000 [{'#' * (i % 40)}] \\u2014 ok\\n".encode())
    out.write(b"bytes that are not UTF-8: \\xff\\xfe end\\r\\n")
    out.write(b"src/engine/core.c:1234:17: error: use of undeclared identifier 'ctx'\\n")
    out.flush()
    sys.exit(2)
""")


def test_wrap_of_a_long_failing_build_points_to_a_byte_exact_copy(tmp_path: Path) -> None:
    script = tmp_path / "build.py"
    script.write_text(BUILD)
    direct = subprocess.run([sys.executable, str(script)], capture_output=True).stdout
    p = tj("wrap", "--", sys.executable, str(script), home=tmp_path)
    text = p.stdout.decode()
    assert p.returncode == 2
    assert text.startswith("exit 2\n")
    assert "src/engine/core.c:1234:17: error: use of undeclared identifier 'ctx'" in text
    last = text.strip().splitlines()[-1]
    assert last.startswith("[… ") and "lines omitted" in last
    aid = last.rsplit("tokenjuice cat ", 1)[1].rstrip("]")
    assert aid == artifact_id(direct)
    cat = tj("cat", aid, home=tmp_path)
    assert cat.returncode == 0
    assert cat.stdout == direct  # byte for byte, invalid UTF-8 and CRLF included
    assert tj("cat", aid[:6], "--lines", "2-3", home=tmp_path).stdout == b"".join(direct.splitlines(True)[1:3])
    assert tj("cat", aid, "--tail", "1", home=tmp_path).stdout == direct.splitlines(True)[-1]
    assert tj("cat", aid, "--head", "2", home=tmp_path).stdout == b"".join(direct.splitlines(True)[:2])
    g = tj("grep", aid, r"error:", "-C", "1", home=tmp_path).stdout.decode()
    assert "4002:src/engine/core.c:1234:17: error" in g
    assert "4001-bytes that are not UTF-8" in g
    # Reading back never offloads again: nothing new in the store.
    before = Store(str(tmp_path / "state")).totals()
    tj("cat", aid, home=tmp_path)
    assert Store(str(tmp_path / "state")).totals() == before


def test_no_pointer_when_nothing_was_dropped(tmp_path: Path) -> None:
    p = tj("wrap", "--", sys.executable, "-c", "print('all good, 3 files checked')", home=tmp_path)
    assert p.stdout.decode() == "all good, 3 files checked\n"
    assert Store(str(tmp_path / "state")).totals()[0] == 0


def test_store_layout_permissions_and_dedup(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "st"))
    data = b"x" * 50_000 + b"\n"
    a = store.put(data, session="s1", command="make", rule="task/make", exit_code=2, lines=1)
    b = store.put(data, session="s2")
    assert a == b == artifact_id(data)
    count, raw, stored = store.totals()
    assert (count, raw) == (1, len(data))
    assert stored < raw / 50  # compressed
    assert store.read(a) == data
    assert stat.S_IMODE(os.stat(store.root).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    assert store.info(a).session == "s2"  # the latest run's metadata
    assert store.resolve(a[:5]) == a
    with pytest.raises(KeyError, match="no artifact"):
        store.resolve("0000")


def test_large_file_is_stored_in_chunks(tmp_path: Path) -> None:
    src = tmp_path / "big.log"
    with src.open("wb") as f:
        for i in range(300_000):
            f.write(f"line {i} of a large build log with some repeated text\n".encode())
    store = Store(str(tmp_path / "st"))
    aid = store.put_file(str(src), command="make", exit_code=0)
    assert aid == artifact_id(src.read_bytes())
    assert b"".join(store.iter_bytes(aid)) == src.read_bytes()


def test_text_is_stored_as_its_utf8_bytes_a_slice_at_a_time(tmp_path: Path) -> None:
    """`put_text` encodes, hashes and compresses in slices: the same id and the same bytes
    back as storing the whole encoding, across slice boundaries, for text that does not
    compress, short text, and lone surrogates."""
    import random

    from tokenjuice.store.digests import TEXT_SLICE

    rng = random.Random(3)
    log = "".join(f"línea {i} ✓ {'x' * (i % 50)}\n" for i in range(40_000))  # several slices
    noise = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(20_000))
    surrogates = "a\udc80" * (TEXT_SLICE // 2) + "\ud83d!"  # a lone surrogate at the boundary
    store = Store(str(tmp_path / "st"))
    for text in (log, noise, "short", surrogates):
        data = text.encode("utf-8", "surrogatepass")
        aid = store.put_text(text, command="x")
        assert aid == artifact_id(data)
        assert store.read(aid) == data
        assert store.info(aid).size == len(data)
    assert len(log) > 3 * TEXT_SLICE
    count, raw, stored = store.totals()
    assert count == 4 and stored < raw  # the log compressed, the noise and the short one kept as they are


def test_retention_by_age_and_size(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "st"), retention_days=7, max_bytes=10**9)
    old = store.put(os.urandom(3000))
    new = store.put(os.urandom(3000))
    conn = store.connect()
    conn.execute("UPDATE artifacts SET last_used = ? WHERE id = ?", (time.time() - 9 * 86400, old))
    assert store.prune() == (1, 3000)
    assert store.list() and [r.id for r in store.list()] == [new]
    for _ in range(5):
        store.put(os.urandom(4000))
    removed, _ = store.prune(max_bytes=9000)
    assert removed == 4
    assert store.totals()[2] <= 9000


def test_store_failure_never_fails_the_reduction(tmp_path: Path) -> None:
    ro = tmp_path / "readonly"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as root: permissions are not enforced")
        run = fixture_run(load("pytest", "pytest-verbose-ra-failures"))
        red = Reducer(user_rules=False, project_rules=False, store=Store(str(ro / "state")), record=False).reduce_run(
            run
        )
        # Nothing could keep the raw output: no line is dropped, and the text says so.
        assert red.artifact is None and red.mode == "unstored"
        assert all(line in red.text for line in (run.combined or "").splitlines())
        assert red.text.endswith(UNSTORED_NOTE)
    finally:
        ro.chmod(0o700)


def test_store_error_is_reported_for_a_corrupt_database(tmp_path: Path) -> None:
    root = tmp_path / "st"
    root.mkdir()
    (root / "store.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError):
        Store(str(root)).put(b"data")
    run = fixture_run(load("pytest", "pytest-verbose-ra-failures"))
    red = Reducer(user_rules=False, project_rules=False, store=Store(str(root)), record=False).reduce_run(run)
    assert red.artifact is None and red.mode == "unstored"
    assert all(line in red.text for line in (run.combined or "").splitlines())
    assert red.text.endswith(UNSTORED_NOTE)


def test_ledger_records_every_reduction(tmp_path: Path) -> None:
    home = tmp_path
    payload = json.dumps(
        {
            "toolName": "exec",
            "command": "pytest -q tests",
            "sessionId": "sess-1",
            "combinedText": load("pytest", "pytest-failures-default")["combined"],
            "exitCode": 0,
        }
    )
    for _ in range(3):
        assert tj("reduce-json", home=home, stdin=payload.encode()).returncode == 0
    recs = list(ledger.iter_records(str(home / "state" / "ledger")))
    assert len(recs) == 3
    r = recs[0]
    assert r["sig"] == "pytest"
    assert "cmd" not in r  # the full command line only when the user opts in
    assert r["rule"] == "tests/pytest"
    assert r["family"] == "test-results"
    assert r["session"] == "sess-1"
    assert r["raw_chars"] > r["red_chars"] > 0
    assert r["raw_tok"] > r["red_tok"] > 0
    assert r["tokenizer"].startswith("estimate")
    assert r["exit"] == 0
    assert "lossy" in r
    assert r["ms"] >= 0
    assert [rec["run"] for rec in recs] == [1, 2, 3]  # numbered in their session
    opted = tj("reduce-json", home=home, stdin=payload.encode(), env={"TOKENJUICE_LEDGER_COMMANDS": "1"})
    assert opted.returncode == 0
    assert list(ledger.iter_records(str(home / "state" / "ledger")))[-1]["cmd"] == "pytest -q tests"


def test_partial_ledger_line_is_skipped(tmp_path: Path) -> None:
    d = tmp_path / "ledger"
    assert ledger.append({"ts": time.time(), "rule": "a", "raw_tok": 10, "red_tok": 1}, str(d))
    with open(next(d.iterdir()), "ab") as f:
        f.write(b'{"ts": 1, "rule": "b", "raw_to')  # a crash mid-write
    assert [r["rule"] for r in ledger.iter_records(str(d))] == ["a"]


def test_resend_model() -> None:
    recs = [{"session": "s", "ts": float(i), "raw_tok": 100, "red_tok": 10} for i in range(4)]
    recs.append({"ts": 9.0, "raw_tok": 100, "red_tok": 10})  # no session: counts once
    assert multipliers(recs) == [4, 3, 2, 1, 1]
    s = Summary(recs)
    assert s.total.saved == 5 * 90
    assert s.total.resend_saved == 90 * (4 + 3 + 2 + 1 + 1)
    host_turns = [
        {"session": "h", "ts": 0.0, "turn": 2, "raw_tok": 50, "red_tok": 0},
        {"session": "h", "ts": 1.0, "turn": 5, "raw_tok": 50, "red_tok": 0},
    ]
    assert multipliers(host_turns) == [4, 1]


def test_discover_ranks_by_tokens_at_stake() -> None:
    recs = [
        {
            "rule": "generic/fallback",
            "family": "generic",
            "sig": "terraform plan",
            "mode": "generic",
            "raw_tok": 5000,
            "red_tok": 3000,
        },
        {
            "rule": "generic/fallback",
            "family": "generic",
            "sig": "bazel build",
            "mode": "passthrough",
            "raw_tok": 950,
            "red_tok": 950,
        },
        {"rule": "lint/x", "family": "x", "sig": "x", "raw_tok": 1000, "red_tok": 900},
        {"rule": "tests/pytest", "family": "pytest", "sig": "pytest", "raw_tok": 10000, "red_tok": 500},
    ]
    found = discover(recs)
    assert [f.name for f in found] == ["terraform plan", "bazel build", "lint/x"]
    assert found[0].kind == "no-rule"
    assert found[2].kind == "low-savings"
    assert "dense output" in found[1].hint


def test_stats_discover_ls_prune_doctor_cli(tmp_path: Path) -> None:
    home = tmp_path
    script = tmp_path / "build.py"
    script.write_text(BUILD)
    env = {"TOKENJUICE_SESSION": "agent-7"}
    for _ in range(2):
        tj("wrap", "--", sys.executable, str(script), home=home, env=env)
    tj("wrap", "--", sys.executable, "-c", "print('\\n'.join(f'row {i} ok' for i in range(3000)))", home=home, env=env)
    out = tj("stats", home=home).stdout.decode()
    assert "3 reductions, 1 session," in out
    assert "including re-sends" in out
    assert "saved tokens by family" in out
    js = json.loads(tj("stats", "--by", "command", "--format", "json", home=home).stdout)
    assert js["total"]["runs"] == 3
    assert js["total"]["saved_tokens_with_resends"] > js["total"]["saved_tokens"]
    assert {g["name"] for g in js["groups"]} == {"python"}
    html_path = tmp_path / "report.html"
    assert tj("stats", "--html", str(html_path), home=home).returncode == 0
    page = html_path.read_text()
    assert page.startswith("<!doctype html>") and "<svg" in page and "<script" not in page
    # The generic path saved nearly all of these: nothing for discover to flag.
    assert tj("discover", home=home).stdout.decode().startswith("nothing to improve")
    listing = tj("ls", "--session", "agent-7", home=home).stdout.decode()
    assert "stored outputs" in listing
    assert tj("ls", "--session", "nobody", home=home).stdout.decode().startswith("no stored outputs")
    doc = tj("doctor", home=home)
    assert doc.returncode == 0, doc.stdout
    assert b"store:" in doc.stdout and b"tokens:" in doc.stdout and b"0 problems" in doc.stdout
    pr = tj("prune", "--all", home=home).stdout.decode()
    assert pr.startswith("removed ")
    assert tj("ls", home=home).stdout.decode().startswith("no stored outputs")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["cat", "zzzz"], "not an artifact id"),
        (["cat", "abcd"], "no artifact 'abcd'"),
        (["cat", "abcd", "--lines", "9-2"], "is empty"),
        (["grep", "abcd", "("], "invalid pattern"),
        (["stats", "--since", "yesterday"], "--since takes"),
        (["prune", "--older-than", "-3"], "must not be negative"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], fragment: str) -> None:
    p = tj(*args, home=tmp_path)
    assert p.returncode == 2
    err = p.stderr.decode()
    assert err.count("\n") == 1 and fragment in err, err


def test_parse_since() -> None:
    assert abs(parse_since("2d") - (time.time() - 2 * 86400)) < 5
    with pytest.raises(ValueError, match="--since"):
        parse_since("soon")


@pytest.mark.parametrize("size", [0, 1, 4097, (1 << 20) - 1, 1 << 20, (1 << 20) + 7])
def test_ids_are_sha256_whichever_hasher(size: int) -> None:
    """CPython's own SHA-256 below a megabyte, OpenSSL's above: the same digest."""
    import hashlib

    from tokenjuice.store.digests import ID_LEN, artifact_id, sha256

    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    assert artifact_id(data) == hashlib.sha256(data).hexdigest()[:ID_LEN]


@pytest.mark.parametrize("lines", [3_000, 60_000])  # under and over SMALL_COMPRESS
def test_outputs_either_side_of_the_small_compressor_round_trip(tmp_path: Path, lines: int) -> None:
    from tokenjuice.store.digests import SMALL_COMPRESS

    text = "".join(f"tests/test_m.py::test_{i} PASSED [{i % 100:3d}%]\n" for i in range(lines))
    data = text.encode()
    assert (len(data) < SMALL_COMPRESS) == (lines == 3_000)
    store = Store(str(tmp_path / "st"))
    for aid in (store.put_text(text, command="pytest -v"), store.put(data + b"!", command="pytest -v")):
        info = store.info(aid)
        assert info.codec == "zlib" and info.stored < info.size / 4
        assert store.read(aid) in (data, data + b"!")


# ------------------------------------------------------------- reading, checked


def test_reading_never_creates_the_store(tmp_path: Path) -> None:
    root = tmp_path / "state"
    store = Store(str(root))
    assert store.list() == [] and store.totals() == (0, 0, 0) and store.check() == "ok"
    with pytest.raises(KeyError, match="no artifact"):
        store.resolve("abcd")
    assert not root.exists()


def _tamper(root: Path, sql: str, *args: object) -> None:
    import sqlite3

    conn = sqlite3.connect(root / "store.sqlite3")
    with conn:
        conn.execute(sql, args)
    conn.close()


@pytest.mark.parametrize(
    ("sql", "why"),
    [
        ("UPDATE artifacts SET sha256 = '0' || substr(sha256, 2) WHERE id = ?", "no longer match their SHA-256"),
        ("UPDATE artifacts SET size = size + 1 WHERE id = ?", "were stored"),
        ("UPDATE artifacts SET codec = 'lz4' WHERE id = ?", "unknown codec"),
        ("UPDATE artifacts SET data = substr(data, 1, length(data) / 2) WHERE id = ?", "compressed bytes"),
    ],
)
def test_a_damaged_artifact_raises_before_any_byte(sql: str, why: str, tmp_path: Path) -> None:
    from tokenjuice.store.artifacts import DamagedArtifact

    root = tmp_path / "state"
    data = b"".join(b"line %d of a compressible output\n" % i for i in range(20000))
    store = Store(str(root))
    aid = store.put(data)
    store.close()
    assert Store(str(root)).read(aid) == data
    _tamper(root, sql, aid)
    fresh = Store(str(root))
    chunks = fresh.iter_bytes(aid)
    with pytest.raises(DamagedArtifact, match=why):
        next(chunks)
    with pytest.raises(DamagedArtifact):
        fresh.verify(aid)


def test_readers_see_what_a_writer_in_another_connection_stored(tmp_path: Path) -> None:
    writer = Store(str(tmp_path))
    first = writer.put(b"one\n" * 3000)
    reader = Store(str(tmp_path))
    assert reader.read(first) == b"one\n" * 3000
    second = writer.put(b"two\n" * 3000)  # committed while the reader's connection is open
    assert reader.read(second) == b"two\n" * 3000
    writer.close()
    reader.close()


def test_a_store_file_created_but_never_initialised_reads_as_empty(tmp_path: Path) -> None:
    (tmp_path / "store.sqlite3").write_bytes(b"")  # what a full disk leaves after the create
    store = Store(str(tmp_path))
    assert store.list() == [] and store.totals() == (0, 0, 0)
