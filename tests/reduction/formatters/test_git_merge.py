"""git merge/rebase/cherry-pick formatter: conflicts and results, not mechanics."""

from __future__ import annotations

from hypothesis import example, given, settings

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._forms import lines_of
from tokenjuice.reduction.formatters import _git_lines


def test_merge_conflicts_keep_every_conflict() -> None:
    fx, red = reduce_fixture("git-merge", "git-merge-conflicts")
    assert not lost(fx, red.text)
    assert red.text.count("CONFLICT (") == 3
    assert "Auto-merging" not in red.text
    assert "3 conflicts" in red.text


def test_rebase_conflict_drops_the_repeated_could_not_apply() -> None:
    fx, red = reduce_fixture("git-merge", "git-rebase-conflict")
    assert not lost(fx, red.text)
    assert red.text.count("ould not apply 78346fd") == 1
    assert "git rebase --abort" not in red.text  # the hint keeps its first sentence only


def test_fast_forward_groups_created_files() -> None:
    fx, red = reduce_fixture("git-merge", "git-merge-fast-forward")
    assert not lost(fx, red.text)
    assert "create mode" not in red.text
    assert "created (12): pricing/rule_00.py, pricing/rule_01.py" in red.text


def test_clean_rebase_is_its_success_line() -> None:
    _fx, red = reduce_fixture("git-merge", "git-rebase-clean")
    assert red.text == "Successfully rebased and updated refs/heads/topic/catalog."


@settings(max_examples=1000, deadline=None)
@given(
    line=lines_of(
        " ", "  ", "\t", "a/b.py", "x|y", "|", " | ", "12", " ++--", "+", "Bin 0 -> 3 bytes", "\u2003", max_size=8
    )
)
@example(" a | 3 +-")
@example(" a|b | 3")
@example(" a | 3 | 4")
@example(" | 3")
@example(" a| 3")
@example("  a | 3")
@example(" a\u2003| Bin 1 -> 2 bytes")
def test_stat_lines_read_as_the_stat_pattern(line: str) -> None:
    want = _git_lines.STAT_RE.match(line)
    assert _git_lines.stat_line(line) == (want and want.group(1, 2))
