"""lsof-table: mapped libraries, same-directory files and connections folded per process."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_many_files_in_one_directory_fold_around_first_and_last() -> None:
    fx, red = reduce_fixture("lsof", "lsof-process-many-files")
    assert not lost(fx, red.text)
    assert "more files in" in red.text
    assert "memory-mapped files (mem)" in red.text
    assert red.text.count("segment-") == 3


def test_network_connections_grouped_listeners_kept() -> None:
    fx, red = reduce_fixture("lsof", "lsof-network")
    assert not lost(fx, red.text)
    assert red.text.count("(LISTEN)") == 3
    assert "240 × ESTABLISHED" in red.text
