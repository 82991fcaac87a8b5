"""git stash formatter: patches like git diff, pops like git status."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_pop_conflict_keeps_conflict_status_and_notice() -> None:
    fx, red = reduce_fixture("git-stash", "git-stash-pop-conflict")
    assert not lost(fx, red.text)
    out = red.text.splitlines()
    assert "CONFLICT (content): Merge conflict in src/app.py" in out
    assert "unmerged (1):" in out
    assert "  UU src/app.py" in out
    assert out[-1].startswith("The stash entry is kept") or "The stash entry is kept" in red.text
    assert '(use "git' not in red.text


def test_show_patch_keeps_changes_only() -> None:
    fx, red = reduce_fixture("git-stash", "git-stash-show-patch")
    assert not lost(fx, red.text)
    assert "+debug_2 = True" in red.text
    assert " x3 = 3" not in red.text


def test_list_is_whole() -> None:
    fx, red = reduce_fixture("git-stash", "git-stash-list")
    assert red.text.splitlines() == fx["combined"].splitlines()
