from __future__ import annotations

import json

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._devops import fi_text
from tokenjuice.reduction.formatters import cloud_json


def test_describe_instances_one_row_per_instance() -> None:
    fx, red = reduce_fixture("aws", "aws-ec2-describe-instances-large")
    assert not lost(fx, red.text)
    data = json.loads(fx["stdout"])
    instances = [i for r in data["Reservations"] for i in r["Instances"]]
    for inst in instances:
        row = next(ln for ln in red.text.splitlines() if inst["InstanceId"] in ln)
        assert inst["State"]["Name"] in row
    assert "other keys:" in red.text
    assert len(red.text) < len(fx["combined"]) / 20


def test_list_roles_and_az_vms() -> None:
    for family, fid in (("aws", "aws-iam-list-roles"), ("az", "az-vm-list-json")):
        fx, red = reduce_fixture(family, fid)
        assert not lost(fx, red.text), fid
        assert "(JSON reduced to key fields" in red.text


def test_small_or_non_json_passes() -> None:
    assert cloud_json.format(fi_text(json.dumps({"a": 1}))) is None
    assert cloud_json.format(fi_text("not json\n" * 1000)) is None
    big = json.dumps([{"Name": f"n{i}", "Id": i, "State": "ok"} for i in range(300)], indent=2)
    out = cloud_json.format(fi_text(big))
    assert out is not None
    assert sum(out.weights) + sum(out.omitted.values()) == len(big.splitlines())
