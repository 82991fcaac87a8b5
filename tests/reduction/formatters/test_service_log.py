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


# Records that test the shortcut for word-less records: an error word only in the
# syslog prefix (host, unit), a pytest-style `E` body, a body past the scan window
# whose tail starts with `E`, an error word, a plain routine line.
_TRICKY = [
    "Mar 14 08:00:01 error-box nginx[12]: GET / 200",
    "Mar 14 08:00:02 web failover[7]: heartbeat ok",
    "Mar 14 08:00:03 web app[3]: E   x == 2",
    "Mar 14 08:00:04 web app[3]: " + "x" * 8_000 + "E " + "y" * (service_log.signals.SCAN_TAIL - 2),
    "Mar 14 08:00:06 web app[3]: connection refused by upstream",
    "Mar 14 08:00:07 web app[3]: all quiet",
]


@pytest.mark.parametrize(
    ("family", "fid"), [("journalctl", "journalctl-file-large"), ("service-log", "service-log-crash")]
)
def test_records_without_an_error_word_are_judged_as_when_read_in_full(
    family: str, fid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record whose first line holds no error or warning word is routine without a
    signal search; the result is what searching every record gives."""
    from tokenjuice.model import ToolRun
    from tokenjuice.reduction.formatters import FormatContext

    lines = load(family, fid)["combined"].splitlines()
    for k, extra in enumerate(_TRICKY * 3):
        lines.insert(7 * k + 50, extra)
    style = {"style": "syslog"} if family == "journalctl" else {}

    def run(batch: int) -> tuple[object, ...]:
        st = service_log.BatchReader(FormatContext(ToolRun(command="x", combined=""), None, style))  # type: ignore[arg-type]
        for a in range(0, len(lines), batch):
            st.feed(lines[a : a + batch], [1] * len(lines[a : a + batch]))
        out = st.finish()
        assert out is not None
        return out.lines, out.weights, out.protected, out.omitted, out.facts

    shortcut = [run(n) for n in (len(lines), 97)]
    classify = service_log._classify
    monkeypatch.setattr(service_log, "_classify", lambda rec, syslog, worded=None: classify(rec, syslog))
    assert shortcut == [run(n) for n in (len(lines), 97)]


def test_a_levelled_log_never_looks_for_error_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Records with a level are judged by it: the batch's words are not searched."""
    from tokenjuice.model import ToolRun
    from tokenjuice.reduction.formatters import FormatContext

    asked: list[int] = []
    monkeypatch.setattr(service_log.signals, "worded", lambda batch: asked.append(len(batch)) or set())
    levels = ["INFO  [http] GET /x 200", "WARN  [db] slow query", "ERROR [worker] job failed", "DEBUG [cache] hit"]
    lines = [f"2026-03-01 00:{k // 60:02d}:{k % 60:02d}.000 {levels[k % 7 % 4]} {k}" for k in range(500)]
    st = service_log.BatchReader(FormatContext(ToolRun(command="x", combined=""), None, {}))  # type: ignore[arg-type]
    st.feed(lines, [1] * len(lines))
    out = st.finish()
    assert out is not None and any("job failed" in ln for ln in out.lines)
    assert asked == []
    # Without a level the words decide, and are looked up once for the batch.
    st = service_log.BatchReader(FormatContext(ToolRun(command="x", combined=""), None, {}))  # type: ignore[arg-type]
    bare = [ln.replace("INFO", "").replace("WARN", "").replace("ERROR", "").replace("DEBUG", "") for ln in lines]
    st.feed(bare, [1] * len(bare))
    st.finish()
    assert asked == [len(bare)]
