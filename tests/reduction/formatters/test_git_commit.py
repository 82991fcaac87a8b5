"""git commit formatter: the commit and its summary, or why there was none."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_many_new_files_are_grouped() -> None:
    fx, red = reduce_fixture("git-commit", "git-commit-many-files")
    assert not lost(fx, red.text)
    assert red.text.startswith("[main ")
    assert "create mode 100644" not in red.text
    assert "created (60): migrations/0000_step.sql" in red.text


def test_hook_failure_keeps_its_errors_and_windows_the_noise() -> None:
    fx, red = reduce_fixture("git-commit", "git-commit-hook-rejects")
    assert not lost(fx, red.text)
    assert red.text.startswith("exit 1")
    assert "checked shop/module_20.py" not in red.text
    assert "lines omitted" in red.text


def test_nothing_to_commit_is_stated() -> None:
    _fx, red = reduce_fixture("git-commit", "git-commit-nothing")
    assert "nothing to commit, working tree clean" in red.text
    assert red.text.startswith("exit 1")
