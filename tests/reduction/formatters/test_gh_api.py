"""gh api: hypermedia and nulls gone, repeated objects referenced, data kept."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_pulls_payload_without_api_links() -> None:
    fx, red = reduce_fixture("gh", "gh-api-pulls")
    assert not lost(fx, red.text)
    assert "https://api.github.com/" not in red.text
    assert '"node_id"' not in red.text
    assert '"_links"' not in red.text
    assert '"closed_at"' not in red.text  # null
    assert '"html_url": "https://github.com/acme/widgets/pull/4211"' in red.text
    assert red.text.count("(same as [0].head.repo)") >= 10
    assert len(red.text) < len(fx["combined"]) / 10


def test_error_body_and_gh_message_stay() -> None:
    fx, red = reduce_fixture("gh", "gh-api-not-found")
    assert red.text.startswith("exit 1")
    assert not lost(fx, red.text)
