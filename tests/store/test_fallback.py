"""The store's fallback folder in the temporary directory: written when the state
directory cannot be, read by every reader of that state directory, never another
user's. An unwritable state directory is one under a regular file (a sandbox's
read-only mount refuses root as well; file permissions would not)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tokenjuice.reduction.engine import FAIL_OPEN_MAX_CHARS, UNSTORED_NOTE, Reducer
from tokenjuice.store import ledger
from tokenjuice.store.artifacts import Store, StoreError
from tokenjuice.store.fallback import fallback_root, is_private, make_private, temp_dir

TJ = [sys.executable, "-m", "tokenjuice"]
BUILD = (
    "import sys\n"
    "for i in range(3000):\n"
    "    print(f'compiling module_{i}.c ... ok')\n"
    "print('src/net.c:42:7: error: unknown type name sockaddr', file=sys.stderr)\n"
    "sys.exit(4)\n"
)


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A state directory nothing can create (under a file) and a private temp dir."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {"TOKENJUICE_HOME": str(blocker / "home"), "TMPDIR": str(tmp)}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


def tj(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TJ, *args], capture_output=True, text=True, env={**os.environ, **env}, cwd=cwd, timeout=120, check=False
    )


def test_wrap_keeps_the_output_where_cat_finds_it(sandbox: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "build.py").write_text(BUILD)
    ran = tj("wrap", "--", sys.executable, "build.py", env=sandbox, cwd=tmp_path)
    assert ran.returncode == 4
    last = ran.stdout.rstrip("\n").splitlines()[-1]
    assert "full output: tokenjuice cat " in last, ran.stdout[-500:]
    handle = last.rsplit(" ", 1)[1].rstrip("]")
    back = tj("cat", handle, env=sandbox, cwd=tmp_path)
    assert back.returncode == 0, back.stderr
    assert back.stdout.splitlines() == [
        *(f"compiling module_{i}.c ... ok" for i in range(3000)),
        "src/net.c:42:7: error: unknown type name sockaddr",
    ]
    # Where it went: the private folder for this state directory, in the temp dir.
    folder = fallback_root(sandbox["TOKENJUICE_HOME"] + "/state")
    assert folder is not None and folder.startswith(sandbox["TMPDIR"]) and is_private(folder)
    assert os.path.isfile(os.path.join(folder, "store.sqlite3"))
    # The ledger too, and stats reads it.
    stats = tj("stats", "--format", "json", env=sandbox, cwd=tmp_path)
    assert json.loads(stats.stdout)["records"] == 1


def test_a_reader_sees_both_stores(tmp_path: Path) -> None:
    primary, spare = tmp_path / "state", tmp_path / "spare"
    make_private(str(spare))
    Store(str(primary)).put(b"kept where it belongs\n")
    Store(str(spare)).put(b"kept in the fallback\n")
    both = Store(str(primary), fallback=str(spare))
    ids = both.ids()
    assert len(ids) == 2
    assert sorted(both.read(i) for i in ids) == [b"kept in the fallback\n", b"kept where it belongs\n"]
    assert both.totals()[0] == 2 and len(both.list()) == 2
    assert both.resolve(ids[0][:6]) == ids[0]


def test_writes_go_to_the_fallback_only_when_the_store_cannot_be_written(tmp_path: Path) -> None:
    spare = tmp_path / "spare"
    Store(str(tmp_path / "state"), fallback=str(spare)).put(b"x\n")
    assert not spare.exists()
    (tmp_path / "file").write_text("")
    aid = Store(str(tmp_path / "file" / "state"), fallback=str(spare)).put(b"y\n")
    assert is_private(str(spare))
    assert Store(str(tmp_path / "file" / "state"), fallback=str(spare)).read(aid) == b"y\n"
    # A spooled output is stored from its file, through a temporary file beside the store.
    big = tmp_path / "spooled.out"
    big.write_bytes(b"".join(b"line %d of a huge output\n" % i for i in range(200_000)))
    aid = Store(str(tmp_path / "file" / "state"), fallback=str(spare)).put_file(str(big))
    assert Store(str(tmp_path / "file" / "state"), fallback=str(spare)).read(aid) == big.read_bytes()


def test_another_users_or_an_open_folder_is_neither_written_nor_read(tmp_path: Path) -> None:
    spare = tmp_path / "spare"
    spare.mkdir(mode=0o755)
    spare.chmod(0o755)
    Store(str(spare)).put(b"planted\n")  # a store someone else could have written
    spare.chmod(0o755)
    (tmp_path / "file").write_text("")
    blocked = Store(str(tmp_path / "file" / "state"), fallback=str(spare))
    assert blocked.ids() == []
    with pytest.raises(StoreError, match="nor at"):
        blocked.put(b"z\n")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    assert not is_private(str(link))
    with pytest.raises(PermissionError):
        make_private(str(link))


def test_no_store_anywhere_passes_the_output_whole(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    nowhere = Store(str(tmp_path / "file" / "a"), fallback=str(tmp_path / "file" / "b"))
    reducer = Reducer(user_rules=False, project_rules=False, store=nowhere, record=False)
    output = "".join(f"compiling module_{i}.c ... ok\n" for i in range(2000)) + "src/a.c:1:2: error: x\n"
    red = reducer.reduce(output, command="make", exit_code=2)
    assert red.artifact is None
    assert red.text == f"exit 2\n{output}{UNSTORED_NOTE}"
    # Within reason: past the fail-open bound, head and tail, and the loss is stated.
    huge = "".join(f"compiling module_{i}.c ... ok {'x' * 60}\n" for i in range(3 * FAIL_OPEN_MAX_CHARS // 80))
    red = reducer.reduce(huge, command="make", exit_code=0)
    assert len(red.text) < FAIL_OPEN_MAX_CHARS + 200
    assert red.text.rstrip("\n").splitlines()[-1].endswith("raw output not kept (store unavailable)]")


def test_the_fallback_is_named_for_its_state_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    a, b = fallback_root("/some/state"), fallback_root("/other/state")
    assert a != b and a == fallback_root("/some/state")
    assert os.path.dirname(a or "") == str(tmp_path)
    # Never the working directory: a relative or missing TMPDIR is passed over.
    monkeypatch.setenv("TMPDIR", "relative/dir")
    monkeypatch.delenv("TEMP", raising=False)
    monkeypatch.delenv("TMP", raising=False)
    assert temp_dir() in ("/tmp", "/var/tmp")


def test_ledger_records_land_in_the_fallback_and_are_read_back(sandbox: dict[str, str]) -> None:
    assert ledger.append({"ts": 1796000000.0, "rule": "x"})
    assert ledger.append({"ts": 1796000001.0, "rule": "y"})
    assert [r["rule"] for r in ledger.iter_records()] == ["x", "y"]
