"""archive-listing (tar, zip, unzip, rsync): per-directory counts, errors and totals kept."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._forms import lines_of
from tokenjuice.reduction.formatters import archive_listing


@pytest.mark.parametrize(
    ("family", "fid"),
    [
        ("tar", "tar-create-verbose"),
        ("tar", "tar-list-verbose"),
        ("zip", "zip-create-recursive"),
        ("zip", "unzip-list"),
        ("zip", "unzip-test-ok"),
        ("rsync", "rsync-progress-large"),
    ],
)
def test_large_listings_become_directory_counts(family: str, fid: str) -> None:
    fx, red = reduce_fixture(family, fid)
    assert not lost(fx, red.text)
    assert "entries in" in red.text
    assert red.reduced_chars < red.raw_chars * 0.02


def test_truncated_archive_keeps_tar_errors() -> None:
    fx, red = reduce_fixture("tar", "tar-truncated-archive")
    assert not lost(fx, red.text)
    assert "exit 2" in red.text


def test_rsync_progress_lines_dropped_summary_kept() -> None:
    _fx, red = reduce_fixture("rsync", "rsync-progress-large")
    assert "xfr#" not in red.text
    assert "total size is" in red.text


def test_top_level_files_named() -> None:
    _fx, red = reduce_fixture("tar", "tar-list-verbose")
    assert "README.md" in red.text


def test_rsync_drops_are_counted_by_reason_in_the_order_they_first_occur() -> None:
    fx, red = reduce_fixture("rsync", "rsync-progress-large")
    raw = fx["combined"].splitlines() if "combined" in fx else fx["stdout"].splitlines()
    progress = [i for i, ln in enumerate(raw) if "xfr#" in ln or "to-chk=" in ln]
    entries = red.facts["entry"]
    # Two entries at the top and one at the end stay as samples; the rest are counted.
    assert red.omitted == {"progress": len(progress), "entries (counted per directory)": entries - 3}
    # rsync prints each file's progress right after its name: the first progress line
    # comes before the third entry, the first one counted per directory.
    assert list(red.omitted) == ["progress", "entries (counted per directory)"]


@settings(max_examples=800, deadline=None)
@given(
    line=lines_of(
        "  adding: ",
        "updating: ",
        "a",
        "/b c",
        " ",
        "(",
        ")",
        " (deflated 61%)",
        " (stored 0%)",
        " (in=12) (out=9)",
        "deflated",
        max_size=8,
    )
)
@example("  adding:  (stored 0%)")
@example("  adding: a (stored 0%) (deflated 5%)")
@example("  adding: a (stored (x) 0%)")
def test_zip_names_read_as_the_zip_pattern(line: str) -> None:
    want = archive_listing.ZIP_RE.match(line)
    head = archive_listing.ZIP_HEAD_RE.match(line)
    assert (head and archive_listing._zip_name(head)) == (want and want.group(1))
