"""Each private C module `tokenjuice._compat` uses gives what its public module gives,
and the public fallback (another Python implementation) works the same."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import sys
from pathlib import Path

import pytest

from tokenjuice import _compat, _jsonc

BOTH = pytest.mark.parametrize("private", [True, False], ids=["private", "public"])


@BOTH
def test_sha256_is_sha256(private: bool) -> None:
    data = b"tokenjuice \x00\xff" * 1000
    h = _compat.sha256(private)
    h.update(data)
    assert h.hexdigest() == hashlib.sha256(data).hexdigest()


@BOTH
def test_sqlite3_connects_and_raises_sqlites_errors(private: bool) -> None:
    db = _compat.sqlite3_module(private)
    con = db.connect(":memory:")
    con.row_factory = db.Row
    con.execute("create table t (a text)")
    con.execute("insert into t values (?)", ("x",))
    assert [dict(r) for r in con.execute("select a from t")] == [{"a": "x"}]
    with pytest.raises(sqlite3.OperationalError):
        con.execute("select * from missing")
    assert db.OperationalError is sqlite3.OperationalError


@BOTH
def test_json_accelerator_or_none(private: bool) -> None:
    c = _compat.json_c(private)
    if private and sys.implementation.name == "cpython":
        assert c is not None and c.encode_basestring("é\n") == json.dumps("é\n", ensure_ascii=False)
    elif not private:
        assert c is None


@BOTH
def test_jsonc_answers_as_json_either_way(private: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    real = _compat.json_c
    monkeypatch.setattr(_compat, "json_c", lambda: real(private))
    monkeypatch.setattr(_jsonc, "_state", {})
    value = {"a": [1, 2.5, None, "é", {"b": True}], "c": "\u2028"}
    text = json.dumps(value)
    assert _jsonc.loads(text) == value
    assert _jsonc.dumps(value) == json.dumps(value, ensure_ascii=False)
    assert _jsonc.dumps(value, compact=True) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    with pytest.raises(json.JSONDecodeError):
        _jsonc.loads("{not json")
    assert (_jsonc._state["c"] is not None) == (private and sys.implementation.name == "cpython")


def test_private_modules_are_imported_only_here() -> None:
    """Outside `_compat`, the package imports public modules (and its own)."""
    src = Path(__file__).resolve().parent.parent / "src" / "tokenjuice"
    private = re.compile(r"^\s*(?:import|from) _[a-z]")
    hits = [
        f"{p.relative_to(src)}:{n}"
        for p in sorted(src.rglob("*.py"))
        if p.name != "_compat.py"
        for n, line in enumerate(p.read_text("utf-8").splitlines(), 1)
        if private.match(line)
    ]
    assert hits == []
