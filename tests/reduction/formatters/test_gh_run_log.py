"""gh run view --log-failed: prefixes and setup gone, failures kept."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_prefixes_timestamps_and_setup_are_gone() -> None:
    fx, red = reduce_fixture("gh", "gh-run-view-log-failed")
    assert not lost(fx, red.text)
    assert "2024-11-20T" not in red.text
    assert "pythonLocation" not in red.text
    assert red.text.count("test (ubuntu-latest, 3.12) › Run tests") == 1
    assert "  error: Process completed with exit code 1." in red.text
    assert "error: src/widgets/webhooks/sender.py:14:1: F401 `time` imported but unused" in red.text
    assert len(red.text) < len(fx["combined"]) / 4
