"""process-table (ps, top): top consumers in full, repeated command shapes folded."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_ps_aux_keeps_top_consumers_and_folds_repeats() -> None:
    fx, red = reduce_fixture("ps", "ps-aux-busy")
    assert red.rule_id == "system/ps"
    assert not lost(fx, red.text)
    assert "more like it" in red.text
    # 120 identical sleeps fold to one row plus a count line
    assert red.text.count("sleep 3600") == 1
    assert red.reduced_chars < red.raw_chars * 0.2


def test_top_keeps_summary_area_and_burners() -> None:
    fx, red = reduce_fixture("top", "top-batch-busy")
    assert not lost(fx, red.text)
    for label in ("top - ", "Tasks:", "%Cpu(s):", "MiB Mem"):
        assert label in red.text
    assert sum(1 for ln in red.text.splitlines() if ln.endswith(" sleep")) == 1


def test_short_table_passes_unchanged() -> None:
    _fx, red = reduce_fixture("ps", "ps-no-such-pid")
    assert "PID COMMAND" in " ".join(red.text.split())
    assert "exit 1" in red.text
