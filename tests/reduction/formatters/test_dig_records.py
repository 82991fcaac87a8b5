"""dig-records: large record sets grouped under one header, every value kept."""

from __future__ import annotations

import re

from tests.helpers import lost, reduce_fixture

RECORD = re.compile(r"^(\S+)\s+(\d+)\s+IN\s+([A-Z]+)\s+(.+)$", re.MULTILINE)


def test_many_a_records_share_one_header() -> None:
    fx, red = reduce_fixture("dig", "dig-many-a-records")
    assert not lost(fx, red.text)
    records = RECORD.findall(str(fx["stdout"]))
    assert f"pool.example.test. 300 IN A ({len(records)} records):" in red.text
    values = " ".join(red.text.split())
    for *_, value in records:
        assert f" {value} " in f" {values} "
    assert red.reduced_chars < red.raw_chars * 0.6


def test_large_txt_set_keeps_every_string() -> None:
    fx, red = reduce_fixture("dig", "dig-large-txt-tcp")
    assert not lost(fx, red.text)
    assert "(240 records):" in red.text


def test_small_answer_and_header_unchanged() -> None:
    fx, red = reduce_fixture("dig", "dig-a-record")
    assert not lost(fx, red.text)
    assert "example.test.\t\t300\tIN\tA\t192.0.2.10" in red.text
    assert "status: NOERROR" in red.text
    assert "<<>> DiG" not in red.text
    assert "COOKIE" not in red.text


def test_failures_keep_their_messages_and_exit_code() -> None:
    for fid in ("dig-connection-refused", "dig-timeout"):
        fx, red = reduce_fixture("dig", fid)
        assert not lost(fx, red.text)
        assert red.text.startswith("exit 9")
