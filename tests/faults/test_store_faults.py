"""A stored output damaged on disk is refused, never returned; a store on a filesystem
that became read-only can still be read."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.faults._util import assert_failed_open, assert_one_line_error, leftovers, remount_ro, tj
from tokenjuice.store.artifacts import Store

SIZES = {
    "small, stored raw": 3000,
    "compressed": 200_000,
    "larger than a read chunk": 3 << 20,
}


def _output(size: int) -> bytes:
    lines = []
    n = 0
    i = 0
    while n < size:
        # Half repetitive, half varied: it compresses, but not to nothing.
        line = f"step {i:07d} checksum {os.urandom(6).hex()} status ok\n".encode()
        lines.append(line)
        n += len(line)
        i += 1
    return b"".join(lines)


def _store(home: Path, data: bytes) -> str:
    store = Store(str(home / "state"))
    try:
        return store.put(data)
    finally:
        store.close()  # the last connection checkpoints: the bytes are in the main file


def _flip_a_stored_byte(home: Path, aid: str) -> None:
    db = home / "state" / "store.sqlite3"
    with sqlite3.connect(db) as conn:
        blob = conn.execute("SELECT data FROM artifacts WHERE id=?", (aid,)).fetchone()[0]
    conn.close()
    raw = bytearray(db.read_bytes())
    # A run from the middle of the stored bytes (within one page), found in the file.
    probe = bytes(blob[len(blob) // 2 : len(blob) // 2 + 64])
    at = raw.find(probe)
    assert at >= 0 and raw.find(probe, at + 1) < 0
    raw[at + 10] ^= 0x20
    db.write_bytes(bytes(raw))


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_damaged_output_is_refused_not_returned(size: int, tmp_path: Path) -> None:
    home = tmp_path / "home"
    data = _output(size)
    aid = _store(home, data)
    assert tj("cat", aid, home=home).stdout == data
    _flip_a_stored_byte(home, aid)
    for args in (["cat", aid], ["cat", aid, "--head", "1"], ["cat", aid, "--tail", "2"], ["grep", aid, "step"]):
        p = tj(*args, home=home)
        err = assert_one_line_error(p)
        assert f"stored output {aid} is damaged" in err
        assert p.stdout == b""  # not one byte of it
    doc = tj("doctor", home=home)
    assert doc.returncode == 1
    assert f"stored output {aid} is damaged" in doc.stdout.decode()


def test_the_mcp_read_output_tool_refuses_a_damaged_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("mcp")
    from tokenjuice.mcp.tools import Tools

    home = tmp_path / "home"
    monkeypatch.setenv("TOKENJUICE_HOME", str(home))
    aid = _store(home, _output(200_000))
    _flip_a_stored_byte(home, aid)
    for args in ({"handle": aid}, {"handle": aid, "grep": "step"}, {"handle": aid, "tail": 3}):
        reply = Tools().read_output(args)
        assert reply.is_error
        assert any(f"stored output {aid} is damaged" in t for t in reply.texts)
        assert not any("step 0" in t for t in reply.texts)


NOISE = "for i in range(3000): print(f'Downloading package-{i}.tar.gz (12 kB)')\nprint('src/x.c:1: error: bad')\n"


def test_a_read_only_store_can_still_be_read(roomy_fs: Path | None, tmp_path: Path) -> None:
    home = roomy_fs if roomy_fs is not None else tmp_path / "home"
    script = tmp_path / "noisy.py"
    script.write_text(NOISE + "raise SystemExit(3)\n")
    first = tj("wrap", "--", sys.executable, str(script), home=home)
    text = assert_failed_open(first, 3)
    aid = text.rsplit("tokenjuice cat ", 1)[1].split("]")[0]
    direct = subprocess.run([sys.executable, str(script)], capture_output=True).stdout
    if roomy_fs is not None:
        assert remount_ro(roomy_fs)
    else:
        if os.geteuid() == 0:
            pytest.skip("no tmpfs to remount, and as root permissions do not make a directory read-only")
        for d in (home / "state", home / "cache"):
            d.chmod(0o500)
    try:
        assert tj("cat", aid, home=home).stdout == direct
        g = tj("grep", aid, "error", home=home)
        assert g.returncode == 0 and g.stdout == b"3001:src/x.c:1: error: bad\n"
        ls = tj("ls", home=home)
        assert ls.returncode == 0 and aid in ls.stdout.decode()
        assert tj("doctor", "--json", home=home).returncode in (0, 1)
        again = tj("wrap", "--", sys.executable, str(script), home=home)
        assert "src/x.c:1: error: bad" in assert_failed_open(again, 3)
    finally:
        if roomy_fs is None:
            for d in (home / "state", home / "cache"):
                d.chmod(0o700)
    assert leftovers(home) == []
