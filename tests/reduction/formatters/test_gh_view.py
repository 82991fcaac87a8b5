"""gh pr/issue view: metadata folded, template comments dropped, comments headed."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_pr_view_drops_empty_fields_and_template_comments() -> None:
    fx, red = reduce_fixture("gh", "gh-pr-view")
    assert not lost(fx, red.text)
    assert "projects:" not in red.text
    assert "milestone:" not in red.text
    assert "<!--" not in red.text
    assert "Thanks for sending a pull request" not in red.text
    assert "- [ ] load test in staging" in red.text


def test_comments_get_one_header_each() -> None:
    fx, red = reduce_fixture("gh", "gh-pr-view-comments")
    assert not lost(fx, red.text)
    assert "— octocat (owner, changes requested, edited):" in red.text
    assert "association:" not in red.text
    assert red.text.count("— ") == 4
