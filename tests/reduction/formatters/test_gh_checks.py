"""gh pr checks: failing and pending checks in full, the rest by name."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_failing_checks_keep_links_passing_ones_do_not() -> None:
    fx, red = reduce_fixture("gh", "gh-pr-checks-failing")
    assert not lost(fx, red.text)
    lines = red.text.splitlines()
    assert lines[0] == "exit 1"
    assert lines[1] == "3 failing, 2 pending, 28 passed, 3 skipped"
    passed_links = [ln for ln in fx["combined"].splitlines() if "\tpass\t" in ln]
    assert passed_links
    assert not any(ln.split("\t")[3] in red.text for ln in passed_links)


def test_pending_exit_code_is_stated() -> None:
    fx, red = reduce_fixture("gh", "gh-pr-checks-pending")
    assert red.text.startswith("exit 8")
    assert not lost(fx, red.text)
