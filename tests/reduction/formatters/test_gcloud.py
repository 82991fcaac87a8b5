from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_instances_table_keeps_non_running() -> None:
    fx, red = reduce_fixture("gcloud", "gcloud-compute-instances-list")
    assert not lost(fx, red.text)
    rows = [ln.split() for ln in fx["combined"].splitlines()[1:]]
    running = [r for r in rows if r[-1] == "RUNNING"]
    assert f"RUNNING: {len(running)}" in red.text
    assert all(r[0] not in red.text for r in running)


def test_json_goes_through_cloud_json() -> None:
    fx, red = reduce_fixture("gcloud", "gcloud-run-services-json")
    assert not lost(fx, red.text)
    assert "[]: 45 records" in red.text


def test_build_log_keeps_failure() -> None:
    fx, red = reduce_fixture("gcloud", "gcloud-builds-submit-fail")
    assert not lost(fx, red.text)
    assert "npm http fetch" not in red.text
