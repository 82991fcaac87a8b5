from __future__ import annotations

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._devops import fi_text
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
