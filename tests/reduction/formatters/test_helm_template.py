from __future__ import annotations

import re

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._devops import fi_text
from tokenjuice.reduction.formatters import helm_template


def test_one_line_per_manifest() -> None:
    fx, red = reduce_fixture("helm", "helm-template-large")
    assert not lost(fx, red.text)
    docs = re.findall(r"^kind: (\S+)\nmetadata:\n  name: (\S+)", fx["combined"], re.M)
    assert len(docs) == fx["combined"].count("\n---\n") + 1
    for kind, name in docs:
        assert f"{kind} {name}" in red.text
    assert "registry.example.com/shop/api:1.4.0" in red.text
    assert "readinessProbe" not in red.text


def test_short_template_passes() -> None:
    assert helm_template.format(fi_text("---\nkind: ConfigMap\nmetadata:\n  name: x\n")) is None
