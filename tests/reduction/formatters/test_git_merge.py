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


@settings(max_examples=800, deadline=None)
@given(
    line=lines_of(
        "error",
        "fatal",
        "warning",
        "CONFLICT",
        "Automatic merge failed",
        "ssh",
        "Permission denied",
        "remote: ",
        "Aborting",
        "error: ",
        "Could not ",
        "could not ",
        "apply ",
        "revert ",
        "abc1234",
        "... ",
        "Rebasing (",
        "1/2)",
        " 3 files changed",
        " 1 file changed",
        ": ",
        " ",
        "x",
        max_size=6,
    )
)
def test_outcome_patterns_are_tried_only_where_their_literal_is(line: str) -> None:
    # Outcome.feed checks these literals before the patterns: each must be in every
    # line its pattern matches.
    if _git_lines.SIGNAL_RE.match(line):
        assert line.startswith(_git_lines.SIGNAL_STARTS)
    if _git_lines.COULD_NOT_RE.match(line):
        assert "ould not " in line
    if _git_lines.STAT_SUMMARY_RE.match(line):
        assert "changed" in line
    if _git_lines.PROGRESS_RE.match(line):
        assert line.startswith("Rebasing (")
