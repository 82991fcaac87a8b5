"""git remote formatter: -v pairs folded, remote show tables grouped."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_verbose_pairs_fold_when_urls_agree() -> None:
    fx, red = reduce_fixture("git-remote", "git-remote-verbose")
    assert not lost(fx, red.text)
    assert "upstream https://git.example.com/team/refsproj.git (fetch, push)" in red.text
    # Different push URL: both lines stay.
    assert "mirror ../origin.git (fetch)" in red.text
    assert "mirror ../nowhere.git (push)" in red.text


def test_show_groups_branches_by_state() -> None:
    fx, red = reduce_fixture("git-remote", "git-remote-show-hundreds")
    assert not lost(fx, red.text)
    assert "  remote branches tracked (299): " in red.text
    assert "zz-new-upstream" in red.text
    assert "URL (fetch, push): " in red.text
    assert " tracked\n" not in red.text
    assert len(red.text) < len(fx["combined"]) / 2
