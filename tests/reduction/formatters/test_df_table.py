"""df-table (df): real and near-full filesystems kept, pseudo filesystems counted."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_near_full_named_first_and_loops_counted() -> None:
    fx, red = reduce_fixture("df", "df-h-workstation-snaps")
    assert not lost(fx, red.text)
    lines = red.text.splitlines()
    assert lines[0].startswith("2 filesystems ≥ 85% full: / 98%")
    assert "/snap/" not in red.text
    loops = sum(1 for ln in str(fx["stdout"]).splitlines() if ln.startswith("/dev/loop"))
    assert f"{loops} loop (snap/squashfs)" in red.text


def test_short_table_kept_whole() -> None:
    fx, red = reduce_fixture("df", "df-h-near-full")
    assert not lost(fx, red.text)
    for line in str(fx["stdout"]).splitlines():
        assert line.rstrip() in red.text


def test_df_error_kept() -> None:
    fx, red = reduce_fixture("df", "df-missing-path")
    assert not lost(fx, red.text)
    assert red.text.startswith("exit 1")
