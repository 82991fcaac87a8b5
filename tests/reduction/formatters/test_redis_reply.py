"""redis-reply: INFO vital fields, key lists grouped by prefix, errors kept on exit 0."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_info_keeps_sections_and_vital_fields() -> None:
    fx, red = reduce_fixture("redis-cli", "redis-info")
    assert not lost(fx, red.text)
    assert "run_id:" not in red.text
    assert red.reduced_chars < red.raw_chars * 0.3


def test_keys_grouped_by_prefix() -> None:
    fx, red = reduce_fixture("redis-cli", "redis-keys-many")
    assert not lost(fx, red.text)
    assert "session:* ×" in red.text
    assert len(red.text.splitlines()) < 15


def test_list_values_are_not_grouped() -> None:
    fx, red = reduce_fixture("redis-cli", "redis-lrange")
    assert not lost(fx, red.text)
    assert "job-25" in red.text


def test_server_error_kept_on_exit_zero() -> None:
    fx, red = reduce_fixture("redis-cli", "redis-wrongtype")
    assert fx["exitCode"] == 0
    assert not lost(fx, red.text)
