"""Facts about regex patterns kept across processes: computed once, read back by later
processes, ignored when damaged, from another build or turned off, and the file stays
the same when nothing new was learned."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

FACT_SCRIPT = """
import re, sys
from tokenjuice import _recache
calls = []
def compute(pattern, flags):
    calls.append(pattern)
    return ("literal", bool(flags))
got = _recache.fact("test", sys.argv[1], re.IGNORECASE, compute)
_recache.save()
print(len(calls), got)
"""


def _env(home: Path, **extra: str) -> dict[str, str]:
    e = {**os.environ, "TOKENJUICE_HOME": str(home), **extra}
    if "TOKENJUICE_NO_CACHE" not in extra:
        e.pop("TOKENJUICE_NO_CACHE", None)
    return e


def _fact(home: Path, pattern: str = r"a+b(?# fact)", **env: str) -> str:
    cmd = [sys.executable, "-c", FACT_SCRIPT, pattern]
    return subprocess.run(cmd, env=_env(home, **env), capture_output=True, text=True, check=True).stdout.strip()


def test_facts_round_trip_through_the_file(tmp_path: Path) -> None:
    """A fact about a pattern is computed once; later processes read it (a flag given
    as `re.RegexFlag` is stored as the int it is)."""
    assert _fact(tmp_path) == "1 ('literal', True)"
    assert _fact(tmp_path) == "0 ('literal', True)"
    assert list((tmp_path / "cache").glob("facts-*.marshal"))


def test_turned_off(tmp_path: Path) -> None:
    assert _fact(tmp_path, TOKENJUICE_NO_CACHE="1") == "1 ('literal', True)"
    assert _fact(tmp_path, TOKENJUICE_NO_CACHE="1") == "1 ('literal', True)"
    assert not list(tmp_path.glob("cache/facts-*.marshal"))


def test_a_damaged_file_is_only_a_miss(tmp_path: Path) -> None:
    _fact(tmp_path)
    for f in (tmp_path / "cache").glob("facts-*.marshal"):
        f.write_bytes(b"\x00garbage" * 10)
    assert _fact(tmp_path) == "1 ('literal', True)"
    assert _fact(tmp_path) == "0 ('literal', True)"  # and written afresh


def test_another_builds_file_under_the_same_name_is_only_a_miss(tmp_path: Path) -> None:
    import marshal

    _fact(tmp_path)
    (f,) = (tmp_path / "cache").glob("facts-*.marshal")
    data = marshal.loads(f.read_bytes())
    f.write_bytes(marshal.dumps({**data, "tag": data["tag"] + " (another build)"}))
    assert _fact(tmp_path) == "1 ('literal', True)"  # not trusted: computed afresh


def test_a_repeated_reduction_learns_nothing_new(tmp_path: Path) -> None:
    # Patterns built at run time must be the same string in every process (whatever
    # the hash seed), or each run misses them and rewrites the file.
    fixture = json.loads((Path(__file__).parent / "fixtures/cargo-build/cargo-build-errors.json").read_text("utf-8"))
    data = json.dumps({k: fixture[k] for k in ("command", "stdout", "stderr", "exitCode")})
    cmd = [sys.executable, "-m", "tokenjuice", "reduce-json"]
    e = _env(tmp_path)
    subprocess.run(cmd, input=data, env={**e, "PYTHONHASHSEED": "1"}, capture_output=True, text=True, check=True)
    (cache,) = (tmp_path / "cache").glob("facts-*.marshal")
    before = cache.read_bytes()
    subprocess.run(cmd, input=data, env={**e, "PYTHONHASHSEED": "2"}, capture_output=True, text=True, check=True)
    assert cache.read_bytes() == before


def test_risk_and_literals_come_from_the_cache_in_a_second_process(tmp_path: Path) -> None:
    """After one reduction, the next parses none of the rule's patterns again."""
    script = (
        "import json, sys\n"
        "from tokenjuice.backtrack.tree import Parser\n"
        "real = Parser.parse\n"
        "seen = []\n"
        "Parser.parse = lambda self: (seen.append(self.p), real(self))[1]\n"
        "from tokenjuice.cli.main import main\n"
        "main(['reduce', '--command', 'pytest -v', '--exit-code', '1', sys.argv[1]])\n"
        "from tokenjuice import _recache\n"
        "_recache.save()\n"
        "sys.stderr.write(json.dumps([p for p in seen if 'PASSED' in str(p)]))\n"
    )
    lines = [f"tests/test_m.py::test_{i} PASSED [{i % 100:3d}%]" for i in range(400)]
    out = tmp_path / "out.txt"
    out.write_text("\n".join([*lines, "FAILED tests/test_m.py::test_x - assert 1 == 2", "1 failed, 400 passed"]))
    e = _env(tmp_path / "home")
    runs = [
        subprocess.run([sys.executable, "-c", script, str(out)], env=e, capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert json.loads(runs[0].stderr)  # the first process parses the skip pattern
    assert json.loads(runs[1].stderr) == []
    assert runs[0].stdout == runs[1].stdout


def test_a_small_reduction_with_a_warm_cache_does_not_import_the_prefilter(tmp_path: Path) -> None:
    """How a rule's patterns are grouped comes from the cache's facts: the first call
    of a process reducing a short output need not load the literal analysis."""
    script = (
        "import sys\n"
        "import tokenjuice\n"
        "r = tokenjuice.Reducer(user_rules=False, project_rules=False)\n"
        "r.reduce('collected 3 items\\n\\ntests/test_a.py ...\\n\\n3 passed in 0.01s\\n', command='pytest -q')\n"
        "from tokenjuice import _recache\n"
        "_recache.save()\n"
        "print('tokenjuice.prefilter' in sys.modules)\n"
    )
    e = _env(tmp_path / "home")
    runs = [
        subprocess.run([sys.executable, "-c", script], env=e, capture_output=True, text=True, check=True).stdout.strip()
        for _ in range(2)
    ]
    assert runs == ["True", "False"]


EVICT = """
import sys
from tokenjuice import _recache
_recache.MAX_PATTERNS = 8
for p in sys.argv[1:]:
    _recache.fact("test", p, 0, lambda p, f: len(p))
_recache.save()
print(list(p for p, _ in _recache._state["blobs"]))
"""


def test_a_pattern_in_use_is_not_evicted_as_old(tmp_path: Path) -> None:
    """The file forgets its oldest patterns first, but one read from the file again is
    kept as if learned now: a working set that fits is not relearned over and over."""
    e = _env(tmp_path)

    def run(*patterns: str) -> list[str]:
        out = subprocess.run([sys.executable, "-c", EVICT, *patterns], env=e, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        got: list[str] = json.loads(out.stdout.replace("'", '"'))
        return got

    first = [f"p{i}" for i in range(8)]
    assert run(*first) == first
    # p0 is used again (the oldest), three new ones are learned: p1-p3 go, p0 stays.
    after = run(first[0], "n1", "n2", "n3")
    assert after[-4:] == [first[0], "n1", "n2", "n3"]
    assert set(after) == {*first[4:], first[0], "n1", "n2", "n3"}


def test_no_private_regex_interfaces() -> None:
    """The package reads patterns with its own parser: nothing in it reaches into
    CPython's regex internals, whose layout changes between versions."""
    import re

    src = Path(__file__).resolve().parent.parent / "src" / "tokenjuice"
    banned = re.compile(r"_sre|re\._(?:parser|compiler|cache|constants)|sre_parse|sre_compile|from re import _")
    hits = [
        f"{p}:{n}"
        for p in src.rglob("*.py")
        for n, line in enumerate(p.read_text("utf-8").splitlines(), 1)
        if banned.search(line)
    ]
    assert hits == []
