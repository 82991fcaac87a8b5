from __future__ import annotations

import re

from hypothesis import given, settings

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._devops import fi_text
from tests.reduction.formatters._forms import lines_of, reading
from tokenjuice.reduction.formatters import kubectl_describe


def test_describe_drops_bookkeeping_keeps_state_and_events() -> None:
    fx, red = reduce_fixture("kubectl", "kubectl-describe-pod-crashloop")
    assert not lost(fx, red.text)
    for gone in (
        "Labels:",
        "Annotations:",
        "Image ID:",
        "Container ID:",
        "Tolerations:",
        "Volumes:",
        "Mounts:",
        "QoS Class:",
        "pod-template-hash",
    ):
        assert gone not in red.text, gone
    for kept in (
        "Reason:       CrashLoopBackOff",
        "Exit Code:    1",
        "Restart Count:  12",
        "Events:",
        "Ready                       False",
    ):
        assert kept in red.text, kept
    assert "----" not in red.text


def test_describe_many_pods_counts_objects() -> None:
    fx, red = reduce_fixture("kubectl", "kubectl-describe-pods-many")
    assert not lost(fx, red.text)
    n = sum(1 for ln in fx["combined"].splitlines() if ln.startswith("Name:"))
    assert f"{n} objects" in red.text.splitlines()[0]


def test_not_describe_output() -> None:
    assert kubectl_describe.format(fi_text("NAME  READY\nweb   1/1\n")) is None


@settings(max_examples=800, deadline=None)
@given(line=lines_of(" ", "  ", "Restart Count", "State", "(s)", "x/y", ":", ": ", ":\t", "1", "é", "-", max_size=8))
def test_key_pattern_reads_up_to_the_first_colon_as_its_lazy_form(line: str) -> None:
    # A key cannot hold a `:`, so the first one ends it: the possessive key finds the
    # same end as the lazy one, which tried the rest after every character.
    lazy = re.compile(r"^(\s*)([A-Za-z][\w .()/-]*?):(?:\s|$)")
    assert reading(kubectl_describe.KEY_RE.match(line)) == reading(lazy.match(line))
