"""service-log: WARN/ERROR records with their tracebacks kept, routine records counted."""

from __future__ import annotations

import pytest

from tests.helpers import lost, reduce_fixture


@pytest.mark.parametrize("fid", ["service-log-large", "service-log-crash", "service-log-small"])
def test_every_problem_record_kept(fid: str) -> None:
    fx, red = reduce_fixture("service-log", fid)
    assert red.rule_id == "generic/service-log"
    assert not lost(fx, red.text)
    assert "routine records not shown:" in red.text


def test_large_log_reduced_and_counted() -> None:
    _fx, red = reduce_fixture("service-log", "service-log-large")
    assert red.reduced_chars < red.raw_chars * 0.05
    assert "INFO http ×" in red.text
    assert "Traceback (most recent call last):" in red.text


def test_journal_entries_by_unit() -> None:
    fx, red = reduce_fixture("journalctl", "journalctl-file-large")
    assert not lost(fx, red.text)
    assert "INFO nginx ×" in red.text
