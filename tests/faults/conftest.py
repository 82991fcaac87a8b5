"""Fixtures of the fault-injection tests: small filesystems, mounted and always unmounted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults._util import mount_tmpfs, umount


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path | None]:
    """A 3 MB tmpfs (None where mounting is refused: the caller falls back to RLIMIT_FSIZE)."""
    where = tmp_path / "small"
    if not mount_tmpfs(where, "3m"):
        yield None
        return
    try:
        yield where
    finally:
        umount(where)


@pytest.fixture
def roomy_fs(tmp_path: Path) -> Iterator[Path | None]:
    """A 64 MB tmpfs that a test may remount read-only (None where mounting is refused)."""
    where = tmp_path / "roomy"
    if not mount_tmpfs(where, "64m"):
        yield None
        return
    try:
        yield where
    finally:
        umount(where)
