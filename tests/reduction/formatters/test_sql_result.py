"""sql-result (psql, mysql, sqlite3): header, first/last rows, the count; errors with caret."""

from __future__ import annotations

import pytest

from tests.helpers import lost, reduce_fixture


@pytest.mark.parametrize(
    ("family", "fid"),
    [
        ("psql", "psql-select-5000-rows"),
        ("mysql", "mysql-batch-5000-rows"),
        ("mysql", "mysql-table-400-rows"),
        ("sqlite3", "sqlite3-list-5000-rows"),
        ("sqlite3", "sqlite3-column-header"),
    ],
)
def test_long_results_keep_header_edges_and_count(family: str, fid: str) -> None:
    fx, red = reduce_fixture(family, fid)
    assert not lost(fx, red.text)
    assert "more rows …" in red.text
    assert red.reduced_chars < red.raw_chars * 0.2


def test_psql_row_count_fact() -> None:
    _fx, red = reduce_fixture("psql", "psql-select-5000-rows")
    assert "(5000 rows)" in red.text
    assert red.facts.get("row") == 5000


@pytest.mark.parametrize(("family", "fid"), [("psql", "psql-expanded-records"), ("mysql", "mysql-vertical-records")])
def test_vertical_records_keep_first_and_last(family: str, fid: str) -> None:
    fx, red = reduce_fixture(family, fid)
    assert not lost(fx, red.text)
    assert "more records" in red.text


def test_syntax_error_keeps_line_and_caret_aligned() -> None:
    fx, red = reduce_fixture("psql", "psql-syntax-error")
    assert not lost(fx, red.text)
    raw = fx["combined"].splitlines()
    caret = next(ln for ln in raw if ln.strip() == "^")
    assert caret in red.text.splitlines(), "the caret must keep its column"


def test_script_errors_survive_command_tags() -> None:
    fx, red = reduce_fixture("psql", "psql-script-errors")
    assert not lost(fx, red.text)
    assert "INSERT 0 1 (×" in red.text
