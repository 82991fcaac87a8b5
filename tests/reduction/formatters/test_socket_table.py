"""socket-table (ss, netstat): listening sockets kept, connections grouped with counts."""

from __future__ import annotations

import pytest

from tests.helpers import lost, reduce_fixture


@pytest.mark.parametrize("fid", ["ss-tanp-many", "netstat-tanp-many"])
def test_connections_grouped_by_endpoint(fid: str) -> None:
    fx, red = reduce_fixture("sockets", fid)
    assert not lost(fx, red.text)
    assert "240 ×" in red.text
    body = [ln for ln in red.text.splitlines() if "127.0.0.1:4" in ln]
    assert not body, "individual client connections should be grouped"
    assert red.reduced_chars < red.raw_chars * 0.05


def test_listening_table_passes() -> None:
    fx, red = reduce_fixture("sockets", "ss-tulpn")
    assert not lost(fx, red.text)
    assert red.text.count("LISTEN") == 3
