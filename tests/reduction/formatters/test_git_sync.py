"""git fetch/pull/push/clone formatter: progress gone, ref updates grouped, refusals kept."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_clone_progress_becomes_one_summary_line() -> None:
    fx, red = reduce_fixture("git-sync", "git-clone-progress")
    assert not lost(fx, red.text)
    assert "Counting objects" not in red.text
    assert "Resolving deltas" not in red.text
    assert "received 434 objects, " in red.text
    assert red.text.startswith("Cloning into 'mirror'...")


def test_fetch_groups_new_branches_and_tags() -> None:
    fx, red = reduce_fixture("git-sync", "git-fetch-hundreds-of-refs")
    assert not lost(fx, red.text)
    assert "[new branch]" not in red.text
    assert "new branches (240) -> origin/…: " in red.text
    assert "new tags (40): v1.0.0, v1.0.1" in red.text


def test_prune_and_range_updates_keep_their_own_lines() -> None:
    fx, red = reduce_fixture("git-sync", "git-fetch-prune-forced")
    assert not lost(fx, red.text)
    assert any(ln.startswith("- [deleted] (none) -> origin/") for ln in red.text.splitlines())


def test_push_rejection_keeps_reason_and_first_hint_sentence() -> None:
    fx, red = reduce_fixture("git-sync", "git-push-rejected-fetch-first")
    assert not lost(fx, red.text)
    out = red.text.splitlines()
    assert "! [rejected] main -> main (fetch first)" in out
    assert "hint: Updates were rejected because the remote contains work that you do not have locally." in out
    assert "Note about fast-forwards" not in red.text


def test_pull_divergent_keeps_fatal_and_conflict_keeps_paths() -> None:
    fx, red = reduce_fixture("git-sync", "git-pull-divergent")
    assert not lost(fx, red.text)
    assert "git config pull.rebase" not in red.text
    fx, red = reduce_fixture("git-sync", "git-pull-conflict")
    assert not lost(fx, red.text)
    assert "CONFLICT (content): Merge conflict in pkg01/mod01.py" in red.text


def test_pull_fast_forward_keeps_stat_counts() -> None:
    fx, red = reduce_fixture("git-sync", "git-pull-fast-forward")
    assert not lost(fx, red.text)
    assert "pkg00/mod00.py | 62" in red.text
    assert "-------" not in red.text
