"""apt-list: every package kept as name=version, grouped by state."""

from __future__ import annotations

import re

from tests.helpers import lost, reduce_fixture

FAMILY = "apt"


def test_installed_list_keeps_every_package_grouped() -> None:
    fx, red = reduce_fixture(FAMILY, "apt-list-installed")
    assert red.rule_id == "package/apt-list"
    assert not lost(fx, red.text)
    entries = re.findall(r"^([^/\s]+)/\S+ (\S+) \S+ \[([^\]]+)\]$", fx["combined"], re.M)
    manual = sum(1 for _, _, flags in entries if "automatic" not in flags)
    auto = len(entries) - manual
    assert f"manually installed ({manual}):" in red.text
    assert f"automatically installed ({auto}, versions omitted):" in red.text
    words = set(red.text.split())
    for name, ver, flags in entries:
        if "automatic" in flags:
            assert name in words, name
        else:
            assert f"{name}={ver}" in words, name
    assert "Listing..." not in red.text
    assert "stable CLI interface" not in red.text
    assert red.reduced_tokens < red.raw_tokens * 0.5


def test_upgradable_shows_old_and_new_versions() -> None:
    fx, red = reduce_fixture(FAMILY, "apt-list-upgradable")
    assert not lost(fx, red.text)
    m = re.search(r"^bash/\S+ (\S+) \S+ \[upgradable from: (\S+)\]$", fx["combined"], re.M)
    assert m
    assert f"bash {m.group(2)} → {m.group(1)}" in red.text
