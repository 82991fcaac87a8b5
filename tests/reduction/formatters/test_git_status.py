"""git status formatter on captured fixtures."""

from __future__ import annotations

from tests.helpers import load, lost, reduce_fixture


def test_long_status_groups_paths_by_state_without_hints() -> None:
    fx, red = reduce_fixture("git-status", "git-status-long")
    assert not lost(fx, red.text)
    body = red.text.splitlines()
    assert "staged (4):" in body
    assert "unstaged (3):" in body
    assert "untracked (2):" in body
    assert "  R scripts/run-tests.sh -> scripts/test-all.sh" in body
    assert not any('(use "git' in line for line in body)
    assert "4 staged paths" in red.text


def test_short_status_keeps_every_line() -> None:
    fx, red = reduce_fixture("git-status", "git-status-short")
    raw = [line for line in fx["combined"].splitlines() if line.strip()]
    for line in raw:
        assert line in red.text


def test_commit_embeds_status_with_its_verdict() -> None:
    # emit_status(verdict=True): the reason nothing was committed stays, its how-to goes.
    fx, red = reduce_fixture("git-commit", "git-commit-nothing-staged")
    assert not lost(fx, red.text)
    assert "no changes added to commit" in red.text
    assert '(use "git add"' not in red.text
    assert load("git-commit", "git-commit-nothing-staged")["exitCode"] == 1
