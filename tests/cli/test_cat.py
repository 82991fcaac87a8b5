"""`cat`, `ls` and `doctor` on the store: what they say is what is there."""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

TJ = [sys.executable, "-m", "tokenjuice"]
LINES = "".join(f"row {i} of the output\n" for i in range(20_000))


def tj(*args: str, home: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TOKENJUICE_HOME=str(home))
    return subprocess.run([*TJ, *args], input=stdin, capture_output=True, text=True, env=env, timeout=60)


def stored(home: Path, command: str, text: str = LINES) -> str:
    out = tj("reduce", "--command", command, home=home, stdin=text).stdout
    return out.rsplit("tokenjuice cat ", 1)[1].split("]", 1)[0].strip()


def test_info_gives_times_as_dates(tmp_path: Path) -> None:
    aid = stored(tmp_path, "python3 gen.py")
    info = json.loads(tj("cat", aid, "--info", home=tmp_path).stdout)
    for key in ("created", "last_used"):
        when = datetime.datetime.fromisoformat(info[key])
        assert abs((datetime.datetime.now(datetime.UTC) - when).total_seconds()) < 600
    assert info["lines"] == 20_000


def test_lines_past_the_end_say_how_many_there_are(tmp_path: Path) -> None:
    aid = stored(tmp_path, "python3 gen.py")
    past = tj("cat", aid, "--lines", "30000-30010", home=tmp_path)
    assert past.returncode == 2
    assert "20,000 lines" in past.stderr and past.stdout == ""
    last = tj("cat", aid, "--lines", "19999-30010", home=tmp_path)
    assert last.returncode == 0 and last.stdout == "row 19998 of the output\nrow 19999 of the output\n"


def test_a_bad_id_is_quoted_whole(tmp_path: Path) -> None:
    bad = tj("cat", "zzzz", home=tmp_path)
    assert bad.returncode == 2
    assert "not an artifact id: 'zzzz'" in bad.stderr


def test_every_command_that_produced_the_same_bytes_is_kept(tmp_path: Path) -> None:
    first = stored(tmp_path, "make all")
    again = stored(tmp_path, "make -j8 everything")
    assert first == again
    info = json.loads(tj("cat", first, "--info", home=tmp_path).stdout)
    assert info["command"] == "make all"
    assert [u["command"] for u in info["uses"]] == ["make all", "make -j8 everything"]
    listing = tj("ls", home=tmp_path).stdout
    assert "make all (and 1 other command" in listing
    assert "1 stored output," in listing


def test_a_store_of_the_old_layout_keeps_its_command_as_a_use(tmp_path: Path) -> None:
    aid = stored(tmp_path, "pytest -q")
    db = next(tmp_path.rglob("artifacts.sqlite3"), None) or next(p for p in tmp_path.rglob("*.sqlite3"))
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE uses")
        conn.execute("PRAGMA user_version=1")
    info = json.loads(tj("cat", aid, "--info", home=tmp_path).stdout)
    assert [u["command"] for u in info["uses"]] == ["pytest -q"]


def test_ls_and_doctor_state_sizes_the_same_way(tmp_path: Path) -> None:
    stored(tmp_path, "python3 gen.py", LINES * 3)
    ls_total = tj("ls", home=tmp_path).stdout.strip().splitlines()[-1]
    raw = ls_total.split(", ")[1]
    assert raw.endswith(" raw") and raw.split()[1] in ("KB", "MB")
    assert raw in tj("doctor", home=tmp_path).stdout
