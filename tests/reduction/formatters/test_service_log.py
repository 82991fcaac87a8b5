"""service-log: WARN/ERROR records with their tracebacks kept, routine records counted."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import load, lost, reduce_fixture
from tokenjuice.reduction.formatters import service_log


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


LEVEL_PIECES = st.sampled_from(
    [
        *("INFO", "info", "Warn", "WARNING", "error", "ERR", "err", "Errors", "level=", "LEVEL=", "level=debug"),
        *("crit", "FATAL", "panic", "emerg", " ", "[", "]", ":", "x", "_", "1", "ä", "ı", "\u212a", "ſ"),
    ]
)


def _reference_level(text: str) -> tuple[str, int]:
    m = service_log.LEVEL_RE.search(text)
    return ((m.group(1) or m.group(2)).upper(), m.end()) if m else ("", 0)


@settings(max_examples=1000, deadline=None)
@given(text=st.lists(LEVEL_PIECES, max_size=10).map("".join))
def test_level_lookup_is_the_case_insensitive_search(text: str) -> None:
    assert service_log._level(text) == _reference_level(text)


@pytest.mark.parametrize(
    ("family", "fid"), [("journalctl", "journalctl-file-large"), ("service-log", "service-log-large")]
)
def test_level_lookup_on_captured_logs(family: str, fid: str) -> None:
    lines = load(family, fid)["combined"].splitlines()
    assert len(lines) > 500
    assert [service_log._level(ln[:160]) for ln in lines] == [_reference_level(ln[:160]) for ln in lines]
