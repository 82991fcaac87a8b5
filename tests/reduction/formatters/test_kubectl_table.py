from __future__ import annotations

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._devops import fi_for


def _pods(combined: str) -> list[list[str]]:
    # NAMESPACE NAME READY STATUS … : cells never hold spaces in this listing.
    return [ln.split() for ln in combined.splitlines()[1:] if ln.strip()]


def test_pods_keep_unhealthy_rows_and_count_the_rest() -> None:
    fx, red = reduce_fixture("kubectl", "kubectl-get-pods-wide-all")
    assert not lost(fx, red.text)
    rows = _pods(fx["combined"])
    healthy = [r for r in rows if r[3] == "Running" and r[2].split("/")[0] == r[2].split("/")[1]]
    done = [r for r in rows if r[3] == "Completed"]
    for r in rows:
        shown = r[1] in red.text
        assert shown == (r not in healthy and r not in done), r[1]
    assert f"Running and ready: {len(healthy)}" in red.text
    assert f"Completed: {len(done)}" in red.text
    assert "NOMINATED NODE" in red.text


def test_events_keep_warnings_fold_normal_by_reason() -> None:
    fx, red = reduce_fixture("kubectl", "kubectl-get-events-all")
    assert not lost(fx, red.text)
    normal = sum(1 for ln in fx["combined"].splitlines() if "  Normal  " in ln)
    assert f"Normal events: {normal}" in red.text
    assert "  Normal  " not in red.text


def test_deployments_short_of_replicas() -> None:
    fx, red = reduce_fixture("kubectl", "kubectl-get-deployments-all")
    assert not lost(fx, red.text)
    assert "fully available:" in red.text


def test_helm_list_tabs() -> None:
    fx, red = reduce_fixture("helm", "helm-list-all")
    assert "\t" in fx["combined"]
    assert not lost(fx, red.text)
    assert "deployed: " in red.text


def test_small_table_passes() -> None:
    from tokenjuice.reduction.formatters import kubectl_table

    assert kubectl_table.format(fi_for("kubectl", "kubectl-get-pods-small")) is None
