"""git branch formatter: names grouped, remote names equal to local ones said once."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_all_branches_grouped_without_repeating_local_names() -> None:
    fx, red = reduce_fixture("git-branch", "git-branch-all-hundreds")
    assert not lost(fx, red.text)
    assert "remotes/origin/" not in red.text
    assert red.text.count("chore/auth-1559") == 1  # local and on origin: listed once
    assert "every local branch except" in red.text
    assert "* main" in red.text.splitlines()


def test_verbose_keeps_tracking_state() -> None:
    fx, red = reduce_fixture("git-branch", "git-branch-vv")
    assert not lost(fx, red.text)
    assert "chore/auth-3196 247d51a [origin/chore/auth-3196: gone] Grow the app (3)" in red.text


def test_errors_pass() -> None:
    _fx, red = reduce_fixture("git-branch", "git-branch-delete-missing")
    assert red.text.startswith("exit 1")
    assert "error: branch 'no-such-branch' not found." in red.text
    assert "Deleted branch spike/new-parser" in red.text
