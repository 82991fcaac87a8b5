"""The regex code kept across processes builds the same matchers `re` builds, survives a
round trip through the cache file, and is ignored when damaged or turned off."""

from __future__ import annotations

import _sre  # type: ignore[import-not-found,unused-ignore]
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice import _recache
from tokenjuice.reduction import signals
from tokenjuice.rules.loader import load_rules


def _patterns() -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    rs = load_rules(None, user=False, project=False, cache=False)
    for rule in rs.rules:
        pipe = rule.pipeline()
        specs = [s for group in pipe.skip.values() for s in group] + pipe.keep + pipe.protect
        specs += [s for _, s in pipe.counters] + [s for s, _ in pipe.match_output]
        for spec in specs:
            if not spec.risky:
                out.append((spec.python, spec.flags))
    out.append((f"{signals.ERROR_PATTERN}|{signals.LOCATION_PATTERN}|{signals.WARNING_PATTERN}", re.MULTILINE))
    out.append((r"(?P<name>\w+)=(?P<value>\S+)|(?i:x(?P=name))?", 0))
    return out


PATTERNS = _patterns()
SAMPLES = [
    "error[E0308]: mismatched types",
    "src/main.rs:5:9: warning: unused",
    "tests/test_a.py::test_x FAILED",
    "   Compiling foo v1.0",
    "a=b xa",
    "",
    "Traceback (most recent call last):",
    "npm ERR! code E404",
]


def test_recorded_code_builds_the_same_matchers() -> None:
    assert len(PATTERNS) > 300
    for pattern, flags in PATTERNS:
        ref = re.compile(pattern, flags)
        args = _recache._record(pattern, flags, ref)
        assert args is not None, pattern
        built = _sre.compile(*args)
        assert (built.pattern, built.flags, built.groups, dict(built.groupindex)) == (
            ref.pattern,
            ref.flags,
            ref.groups,
            dict(ref.groupindex),
        )
        for s in SAMPLES:
            a, b = built.search(s), ref.search(s)
            assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), (pattern, s)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PATTERNS), st.text(max_size=80))
def test_same_matches_on_any_text(pf: tuple[str, int], text: str) -> None:
    pattern, flags = pf
    ref = re.compile(pattern, flags)
    args = _recache._record(pattern, flags, ref)
    assert args is not None
    built = _sre.compile(*args)
    assert [m.span() for m in built.finditer(text)] == [m.span() for m in ref.finditer(text)]


SCRIPT = """
import sys
from tokenjuice import _re, _recache
_recache.load()
cached = _recache.code(sys.argv[1], 0) is not None
rx = _re.compile(sys.argv[1])
_recache.save()
print(cached, bool(rx.search("x-123-y")))
"""


def _run(home: Path, pattern: str, **env: str) -> str:
    e = {**os.environ, "TOKENJUICE_HOME": str(home)}
    e.pop("TOKENJUICE_NO_CACHE", None)
    e.update(env)
    out = subprocess.run([sys.executable, "-c", SCRIPT, pattern], env=e, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_round_trip_through_the_file(tmp_path: Path) -> None:
    pattern = r"x-(\d+)-y(?# tokenjuice test)"
    assert _run(tmp_path, pattern) == "False True"  # compiled, then saved
    assert _run(tmp_path, pattern) == "True True"  # the next process finds it built
    assert list((tmp_path / "cache").glob("re-*.marshal"))


def test_a_damaged_file_is_only_a_miss(tmp_path: Path) -> None:
    pattern = r"x-(\d+)-y(?# damaged)"
    _run(tmp_path, pattern)
    for f in (tmp_path / "cache").glob("re-*.marshal"):
        f.write_bytes(b"\x00garbage" * 10)
    assert _run(tmp_path, pattern) == "False True"


def test_another_builds_file_under_the_same_name_is_only_a_miss(tmp_path: Path) -> None:
    import marshal

    pattern = r"x-(\d+)-y(?# another build)"
    _run(tmp_path, pattern)
    (f,) = (tmp_path / "cache").glob("re-*.marshal")
    data = marshal.loads(f.read_bytes())
    assert "code" in marshal.loads(data["patterns"][pattern, 0])
    f.write_bytes(marshal.dumps({**data, "tag": data["tag"] + " (another build)"}))
    assert _run(tmp_path, pattern) == "False True"  # not trusted: compiled afresh


def test_turned_off(tmp_path: Path) -> None:
    _run(tmp_path, r"x-(\d+)-y(?# off)", TOKENJUICE_NO_CACHE="1")
    assert not list(tmp_path.glob("cache/re-*.marshal"))


@pytest.mark.parametrize("flags", [0, re.IGNORECASE | re.MULTILINE])
def test_flags_are_part_of_the_key(flags: int) -> None:
    pattern = r"(?x) a  b # verbose"
    args = _recache._record(pattern, flags, re.compile(pattern, flags))
    assert args is not None and args[1] == re.compile(pattern, flags).flags


def test_a_repeated_reduction_compiles_nothing_new(tmp_path: Path) -> None:
    # Patterns built at run time must be the same string in every process (whatever
    # the hash seed), or each run misses them and rewrites the file.
    fixture = json.loads((Path(__file__).parent / "fixtures/cargo-build/cargo-build-errors.json").read_text("utf-8"))
    data = json.dumps({k: fixture[k] for k in ("command", "stdout", "stderr", "exitCode")})
    cmd = [sys.executable, "-m", "tokenjuice", "reduce-json"]
    e = {**os.environ, "TOKENJUICE_HOME": str(tmp_path)}
    e.pop("TOKENJUICE_NO_CACHE", None)
    subprocess.run(cmd, input=data, env={**e, "PYTHONHASHSEED": "1"}, capture_output=True, text=True, check=True)
    (cache,) = (tmp_path / "cache").glob("re-*.marshal")
    before = cache.read_bytes()
    subprocess.run(cmd, input=data, env={**e, "PYTHONHASHSEED": "2"}, capture_output=True, text=True, check=True)
    assert cache.read_bytes() == before


FACT_SCRIPT = """
import re, sys
from tokenjuice import _recache
_recache.load()
calls = []
def compute(pattern, flags):
    calls.append(pattern)
    return ("literal", bool(flags))
got = _recache.fact("test", sys.argv[1], re.IGNORECASE, compute)
_recache.save()
print(len(calls), got)
"""


def test_facts_round_trip_through_the_file(tmp_path: Path) -> None:
    """A fact about a pattern is computed once; later processes read it (a flag given
    as `re.RegexFlag` is stored as the int it is)."""
    e = {**os.environ, "TOKENJUICE_HOME": str(tmp_path)}
    e.pop("TOKENJUICE_NO_CACHE", None)

    def run(**env: str) -> str:
        cmd = [sys.executable, "-c", FACT_SCRIPT, r"a+b(?# fact)"]
        return subprocess.run(cmd, env={**e, **env}, capture_output=True, text=True, check=True).stdout.strip()

    assert run() == "1 ('literal', True)"
    assert run() == "0 ('literal', True)"
    assert run(TOKENJUICE_NO_CACHE="1") == "1 ('literal', True)"


def test_risk_and_literals_come_from_the_cache_in_a_second_process(tmp_path: Path) -> None:
    """After one reduction, the next parses none of the rule's patterns again."""
    script = (
        "import json, sys\n"
        "from re import _parser\n"
        "real = _parser.parse\n"
        "seen = []\n"
        "_parser.parse = lambda p, *a, **k: (seen.append(p), real(p, *a, **k))[1]\n"
        "from tokenjuice.cli.main import main\n"
        "main(['reduce', '--command', 'pytest -v', '--exit-code', '1', sys.argv[1]])\n"
        "from tokenjuice import _recache\n"
        "_recache.save()\n"
        "sys.stderr.write(json.dumps([p for p in seen if 'PASSED' in str(p)]))\n"
    )
    lines = [f"tests/test_m.py::test_{i} PASSED [{i % 100:3d}%]" for i in range(400)]
    out = tmp_path / "out.txt"
    out.write_text("\n".join([*lines, "FAILED tests/test_m.py::test_x - assert 1 == 2", "1 failed, 400 passed"]))
    e = {**os.environ, "TOKENJUICE_HOME": str(tmp_path / "home")}
    e.pop("TOKENJUICE_NO_CACHE", None)
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
    e = {**os.environ, "TOKENJUICE_HOME": str(tmp_path / "home")}
    e.pop("TOKENJUICE_NO_CACHE", None)
    runs = [
        subprocess.run([sys.executable, "-c", script], env=e, capture_output=True, text=True, check=True).stdout.strip()
        for _ in range(2)
    ]
    assert runs == ["True", "False"]


HOST = """
import re, sys
from tokenjuice import _re, _recache
re.compile(sys.argv[1] + "(?# the host's own)")
_re.compile(sys.argv[1])
_recache.save()
"""


def test_a_host_programs_own_patterns_are_not_recorded(tmp_path: Path) -> None:
    """A library does not learn what its host compiles: only what it compiled itself."""
    import marshal

    e = {**os.environ, "TOKENJUICE_HOME": str(tmp_path)}
    e.pop("TOKENJUICE_NO_CACHE", None)
    pattern = r"h-(\d+)(?# host test)"
    subprocess.run([sys.executable, "-c", HOST, pattern], env=e, check=True)
    (f,) = (tmp_path / "cache").glob("re-*.marshal")
    data = marshal.loads(f.read_bytes())
    assert (pattern, 0) in data["patterns"]
    assert (pattern + "(?# the host's own)", 0) not in data["patterns"]


def test_argparses_patterns_are_in_res_cache_before_argparse_runs(tmp_path: Path) -> None:
    """A command read by argparse (here `explain`) records the patterns argparse and
    gettext compile; the next such command finds them built in `re`'s cache."""
    probe = (
        "import sys\n"
        "from tokenjuice import _recache\n"
        "_recache.prime_re()\n"
        "import re\n"
        "names = {p for p, _ in _recache._state['foreign']}\n"
        "print(len(names), sum(1 for k in re._cache if k[1] in names))\n"
    )
    e = {**os.environ, "TOKENJUICE_HOME": str(tmp_path)}
    e.pop("TOKENJUICE_NO_CACHE", None)
    before = subprocess.run([sys.executable, "-c", probe], env=e, capture_output=True, text=True, check=True)
    assert before.stdout.split() == ["0", "0"]
    for _ in range(2):
        cmd = [sys.executable, "-m", "tokenjuice", "explain", "--command", "git status"]
        subprocess.run(cmd, env=e, capture_output=True, check=True)
    after = subprocess.run([sys.executable, "-c", probe], env=e, capture_output=True, text=True, check=True)
    recorded, filled = map(int, after.stdout.split())
    assert recorded > 0 and filled == recorded


def test_recorded_code_that_fails_to_build_is_replaced(tmp_path: Path) -> None:
    """A pattern whose stored code `_sre` refuses is compiled by `re` and recorded
    again, so the next process builds it from the file."""
    import marshal

    pattern = r"x-(\d+)-y(?# rebuilt)"
    _run(tmp_path, pattern)
    (f,) = (tmp_path / "cache").glob("re-*.marshal")
    data = marshal.loads(f.read_bytes())
    entry = marshal.loads(data["patterns"][pattern, 0])
    entry["code"] = (pattern, 32, [1, 2, 3], 1, {}, (None, None))  # not valid code
    data["patterns"][pattern, 0] = marshal.dumps(entry)
    f.write_bytes(marshal.dumps(data))
    assert _run(tmp_path, pattern) == "True True"  # the file had code for it, which failed
    assert _run(tmp_path, pattern) == "True True"
    entry = marshal.loads(marshal.loads(f.read_bytes())["patterns"][pattern, 0])
    assert entry["code"][2] != [1, 2, 3]


EVICT = """
import sys
from tokenjuice import _re, _recache
_recache.MAX_PATTERNS = 8
for p in sys.argv[1:]:
    _re.compile(p)
_recache.save()
print(list(p for p, _ in _recache._state["blobs"]))
"""


def test_a_pattern_in_use_is_not_evicted_as_old(tmp_path: Path) -> None:
    """The file forgets its oldest patterns first, but one read from the file again is
    kept as if learned now: a working set that fits is not relearned over and over."""
    e = {**os.environ, "TOKENJUICE_HOME": str(tmp_path)}
    e.pop("TOKENJUICE_NO_CACHE", None)

    def run(*patterns: str) -> list[str]:
        out = subprocess.run([sys.executable, "-c", EVICT, *patterns], env=e, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        got: list[str] = json.loads(out.stdout.replace("'", '"'))
        return got

    first = [f"p{i}-(\\\\d+)" for i in range(8)]
    assert run(*first) == first
    # p0 is used again (the oldest), three new ones are learned: p1-p3 go, p0 stays.
    after = run(first[0], "n1", "n2", "n3")
    assert after[-4:] == [first[0], "n1", "n2", "n3"]
    assert set(after) == {*first[4:], first[0], "n1", "n2", "n3"}
