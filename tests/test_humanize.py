"""Sizes and counted nouns, said one way everywhere."""

from __future__ import annotations

import pytest

from tokenjuice._humanize import counted, plural, size


@pytest.mark.parametrize(
    ("n", "label", "said"),
    [
        (1, "compiler commands", "1 compiler command"),
        (2, "compiler commands", "2 compiler commands"),
        (1, "commit message bodies", "1 commit message body"),
        (1, "status lines (see summary)", "1 status line (see summary)"),
        (1, "passed", "1 passed"),
        (1, "header", "1 header"),
        (1, "classes", "1 class"),
        (1, "build output", "1 build output"),
        (1_234, "lines", "1,234 lines"),
    ],
)
def test_counted_labels_agree_with_their_number(n: int, label: str, said: str) -> None:
    assert counted(n, label) == said


def test_plural_and_size() -> None:
    assert plural(1, "subdirectory", "subdirectories") == "1 subdirectory"
    assert plural(3, "subdirectory", "subdirectories") == "3 subdirectories"
    assert plural(0, "file") == "0 files"
    assert [size(n) for n in (0, 1023, 1024, 13_300_434, 5 << 40)] == ["0 B", "1023 B", "1.0 KB", "12.7 MB", "5.0 TB"]
