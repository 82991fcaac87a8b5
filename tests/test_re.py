"""`tokenjuice._re` is `re` for our modules: the same patterns and answers, built from
the regex cache without importing `re`, and `re` itself for anything else."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenjuice import _re


def test_flags_are_res_values() -> None:
    for name in ("ASCII", "IGNORECASE", "LOCALE", "MULTILINE", "DOTALL", "UNICODE", "VERBOSE", "DEBUG", "NOFLAG"):
        assert getattr(_re, name) == int(getattr(re, name)), name


@given(st.text())
def test_escape_is_res(text: str) -> None:
    assert _re.escape(text) == re.escape(text)


@pytest.mark.parametrize(
    ("call", "args"),
    [
        ("search", (r"(\d+)-(?P<b>\w)", "x 12-a 3-b")),
        ("match", (r"\s*(\w+)", "  word rest")),
        ("fullmatch", (r"[a-z]+", "abc")),
        ("findall", (r"(\w)(\d)", "a1 b2 c")),
        ("split", (r"[,;]\s*", "a, b;c")),
        ("sub", (r"(\w+)@(\w+)", r"\2 at \1", "me@host you@there")),
    ],
)
def test_module_functions_answer_as_res(call: str, args: tuple[str, ...]) -> None:
    def norm(v: object) -> object:
        return (v.span(), v.groups(), v.groupdict()) if isinstance(v, re.Match) else v

    assert norm(getattr(_re, call)(*args)) == norm(getattr(re, call)(*args))
    flagged = getattr(_re, call)(*args, flags=_re.IGNORECASE) if call != "split" else None
    if flagged is not None:
        assert norm(flagged) == norm(getattr(re, call)(*args, flags=re.IGNORECASE))


def test_finditer_and_other_names_are_res() -> None:
    assert [m.span() for m in _re.finditer(r"\d", "a1b22")] == [(1, 2), (3, 4), (4, 5)]
    assert _re.error is re.error
    assert _re.Pattern is re.Pattern
    with pytest.raises(re.error):
        _re.compile("(unclosed")
    rx = re.compile("x")
    assert _re.compile(rx) is rx  # a compiled pattern passes through, as in `re`


PROBE = """
import sys
from tokenjuice import _re
rx = _re.compile(sys.argv[1], _re.IGNORECASE)
m = rx.search(sys.argv[2])
from tokenjuice import _recache
_recache.save()
imported = "re" in sys.modules  # (json would import it: the answer is a repr)
print(repr({"re": imported, "span": m and m.span(), "groups": m and m.groups(),
            "flags": rx.flags, "isinstance": isinstance(rx, _re.Pattern), "re_after": "re" in sys.modules}))
"""


def test_a_cached_pattern_is_built_without_importing_re(tmp_path: Path) -> None:
    """The first process compiles with `re` and records the code; the next builds the
    same matcher from the file alone."""
    env = {**os.environ, "TOKENJUICE_HOME": str(tmp_path)}
    env.pop("TOKENJUICE_NO_CACHE", None)
    pattern, text = r"(?P<word>b\w+)\s+(\d+)(?# _re test)", "a BETA 42 c"

    def run() -> dict[str, object]:
        out = subprocess.run([sys.executable, "-c", PROBE, pattern, text], env=env, capture_output=True, check=True)
        got: dict[str, object] = ast.literal_eval(out.stdout.decode())
        return got

    first, second = run(), run()
    ref = re.compile(pattern, re.IGNORECASE).search(text)
    assert ref is not None
    for got in (first, second):
        assert got["span"] == ref.span()
        assert got["groups"] == ref.groups()
        assert got["flags"] == re.compile(pattern, re.IGNORECASE).flags
        assert got["isinstance"] is True
    assert first["re"] is True  # compiled by `re`, then saved
    assert second["re"] is False and second["re_after"] is False


def test_the_first_call_with_a_warm_cache_imports_neither_re_nor_json(tmp_path: Path) -> None:
    """`import re` (with enum, functools and collections) would be a third of it."""
    script = (
        "import sys\n"
        "import tokenjuice\n"
        "r = tokenjuice.Reducer(user_rules=False, project_rules=False)\n"
        "text = r.reduce('collected 3 items\\n\\ntests/test_a.py ...F\\n\\n1 failed, 3 passed in 0.01s\\n',"
        " command='pytest -q', exit_code=1).text\n"
        "from tokenjuice import _recache\n"
        "_recache.save()\n"
        "print(sorted(m for m in ('re', 'json', 'enum', 'functools', 'collections') if m in sys.modules))\n"
        "print(text)\n"
    )
    env = {**os.environ, "TOKENJUICE_HOME": str(tmp_path), "TOKENJUICE_TOKENIZER": "estimate"}
    env.pop("TOKENJUICE_NO_CACHE", None)
    runs = [
        subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
        for _ in range(2)
    ]
    assert runs[0].splitlines()[0] != "[]"  # nothing cached yet: `re` compiled the patterns
    assert runs[1].splitlines()[0] == "[]"
    assert runs[0].splitlines()[1:] == runs[1].splitlines()[1:]  # the same text either way
    assert "exit 1" in runs[1] and "1 failed" in runs[1]
