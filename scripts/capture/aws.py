"""aws CLI (v1, awscli) against a local moto server: real CLI output, real service errors.

moto runs on 127.0.0.1 for the duration of the capture (stopped at the end), with dummy
credentials; `--endpoint-url` points the CLI at it. The buckets, objects, instances and
roles are created here, so signals come from that setup data (ids returned by
run-instances, the keys written) and from the CLI's own JSON.
"""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from capture._lib import Skip, Workspace, sig

FAMILY = "aws"
RULE = "cloud/aws"
RULE_S3 = "cloud/aws-s3"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _moto_python(ws: Workspace) -> str:
    """A Python that can import moto's server (installed into the tools venv if needed)."""
    for cand in (sys.executable, str(ws.tools / "venv" / "bin" / "python"), ws.which("python3") or ""):
        if (
            cand
            and Path(cand).exists()
            and subprocess.run([cand, "-c", "import moto.server, flask"], capture_output=True).returncode == 0
        ):
            return cand
    ws.pip_install("moto[server]")
    return str(ws.tools / "venv" / "bin" / "python")


def capture(ws: Workspace) -> list[dict[str, Any]]:
    if not ws.which("aws"):
        ws.pip_install("awscli")
    ws.require("aws")
    py = _moto_python(ws)
    port = _free_port()
    log = ws.path("moto.log")
    proc = subprocess.Popen(
        [py, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if proc.poll() is not None:
                    raise Skip("moto server exited: " + log.read_text(errors="replace")[-300:]) from None
                time.sleep(0.1)
        return _capture(ws, f"http://127.0.0.1:{port}")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _capture(ws: Workspace, endpoint: str) -> list[dict[str, Any]]:
    ws.env.update(
        {
            "AWS_ACCESS_KEY_ID": "AKIAEXAMPLEFIXTURE01",
            "AWS_SECRET_ACCESS_KEY": "fixture-secret-key-not-real",
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_PAGER": "",
        }
    )
    ws.env.pop("AWS_PROFILE", None)
    version = ws.version(["aws", "--version"])
    ep = f"--endpoint-url {endpoint}"
    fixtures: list[dict[str, Any]] = []

    def add(id: str, rule: str, r: Any, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, rule, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version)
        )

    rng = random.Random(7)
    # ---- S3: buckets, a site tree, a large object
    buckets = [
        f"acme-{env}-{what}"
        for env in ("prod", "staging", "dev")
        for what in ("assets", "logs", "backups", "uploads", "data-lake", "artifacts", "reports")
    ]
    for b in buckets:
        ws.sh(f"aws {ep} s3 mb s3://{b}")
    r = ws.run(f"aws {ep} s3 ls")
    add("aws-s3-ls-buckets", RULE_S3, r, [sig("bucket", b) for b in buckets], "the buckets created with s3 mb")

    site = ws.path("site")
    keys = []
    for k in range(420):
        sect = rng.choice(["docs", "blog", "api", "assets/img", "assets/js", "assets/css", "releases"])
        ext = {"assets/img": "png", "assets/js": "js", "assets/css": "css"}.get(sect, "html")
        rel = f"{sect}/{'page' if ext == 'html' else 'file'}-{k:04d}.{ext}"
        p = site / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(bytes(rng.getrandbits(8) for _ in range(rng.randint(200, 3000))))
        keys.append(rel)
    r = ws.run(f"aws {ep} s3 sync site s3://acme-prod-assets/site")
    add(
        "aws-s3-sync-upload",
        RULE_S3,
        r,
        [sig("count", f"{len(keys)} uploaded files", f"{len(keys)} uploads", f"upload: {len(keys)}")],
        "the number of files written into the local tree that was synced",
    )
    r = ws.run(f"aws {ep} s3 ls s3://acme-prod-assets/site/ --recursive --human-readable --summarize")
    add(
        "aws-s3-ls-recursive",
        RULE_S3,
        r,
        [sig("summary", f"Total Objects: {len(keys)}")],
        "the number of keys uploaded",
    )
    big = ws.path("backup-2026-03-14.tar.gz")
    big.write_bytes(bytes(rng.getrandbits(8) for _ in range(2_500_000)))
    r = ws.run(f"aws {ep} s3 cp backup-2026-03-14.tar.gz s3://acme-prod-backups/db/")
    add(
        "aws-s3-cp-progress",
        RULE_S3,
        r,
        [sig("result", "upload: ./backup-2026-03-14.tar.gz to s3://acme-prod-backups/db/backup-2026-03-14.tar.gz")],
        "the file copied and its destination",
    )
    r = ws.run(f"aws {ep} s3 ls s3://acme-prod-archive/")
    add(
        "aws-s3-no-such-bucket",
        RULE_S3,
        r,
        [sig("error", "NoSuchBucket"), sig("error", "The specified bucket does not exist")],
        "a bucket name that was never created",
    )

    # ---- EC2: many instances in several states
    ids: dict[str, str] = {}
    types = ["t3.micro", "t3.small", "m6i.large", "c6i.xlarge", "r6g.large"]
    roles = ["web", "api", "worker", "batch", "bastion", "db-proxy"]
    for k in range(12):
        role = roles[k % len(roles)]
        tags = (
            f"ResourceType=instance,Tags=[{{Key=Name,Value={role}-{k:02d}}},{{Key=env,Value=prod}},"
            "{Key=team,Value=platform}]"
        )
        out = ws.sh(
            f"aws {ep} ec2 run-instances --image-id ami-0abcdef1234567890 --count 10 "
            f"--instance-type {types[k % len(types)]} --tag-specifications '{tags}' "
            f"--query 'Instances[].InstanceId' --output json"
        )
        for iid in json.loads(out):
            ids[iid] = f"{role}-{k:02d}"
    all_ids = list(ids)
    stopped = rng.sample(all_ids, 9)
    ws.sh(f"aws {ep} ec2 stop-instances --instance-ids {' '.join(stopped)}")
    terminated = rng.sample([i for i in all_ids if i not in stopped], 5)
    ws.sh(f"aws {ep} ec2 terminate-instances --instance-ids {' '.join(terminated)}")
    r = ws.run(f"aws {ep} ec2 describe-instances")
    add(
        "aws-ec2-describe-instances-large",
        RULE,
        r,
        [sig("instance", i) for i in all_ids] + [sig("state", "stopped"), sig("state", "terminated")],
        "the instance ids returned by run-instances, and the states set with stop/terminate-instances",
    )
    r = ws.run(
        f"aws {ep} ec2 describe-instances --filters Name=instance-state-name,Values=stopped "
        "--query 'Reservations[].Instances[].InstanceId' --output text"
    )
    add(
        "aws-ec2-query-text",
        RULE,
        r,
        [sig("instance", i) for i in stopped],
        "the instances stopped with stop-instances",
    )
    r = ws.run(f"aws {ep} ec2 describe-instances --instance-ids i-0123456789abcdef0")
    add(
        "aws-ec2-invalid-instance",
        RULE,
        r,
        [sig("error", "InvalidInstanceID.NotFound"), sig("id", "i-0123456789abcdef0")],
        "an instance id that run-instances never returned",
    )

    # ---- IAM: roles with policies
    policy = json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {"Effect": "Allow", "Principal": {"Service": "ec2.amazonaws.com"}, "Action": "sts:AssumeRole"}
            ],
        }
    )
    ws.write("trust.json", policy)
    role_names = [
        f"{svc}-{env}-role"
        for svc in ("orders", "payments", "catalog", "search", "ingest", "reports", "backup", "ci-deploy")
        for env in ("prod", "staging", "dev")
    ]
    for rn in role_names:
        ws.sh(
            f"aws {ep} iam create-role --role-name {rn} --assume-role-policy-document file://trust.json "
            f"--description 'Service role for {rn.split('-')[0]}' --tags Key=owner,Value=platform"
        )
    r = ws.run(f"aws {ep} iam list-roles")
    add("aws-iam-list-roles", RULE, r, [sig("role", rn) for rn in role_names], "the roles created with iam create-role")

    # ---- CloudFormation: a template error and a missing stack
    ws.write(
        "stack.yaml",
        "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Ref MissingParam\n",
    )
    r = ws.run(f"aws {ep} cloudformation describe-stacks --stack-name payments-prod")
    add(
        "aws-cloudformation-missing-stack",
        RULE,
        r,
        [sig("error", "ValidationError"), sig("stack", "payments-prod")],
        "a stack name that was never created",
    )

    # ---- no credentials at all (the everyday failure), against the real endpoint name
    env = {k: v for k, v in ws.env.items() if not k.startswith("AWS_")}
    env["AWS_CONFIG_FILE"] = str(ws.path("no-aws-config"))
    env["AWS_SHARED_CREDENTIALS_FILE"] = str(ws.path("no-aws-credentials"))
    env["AWS_EC2_METADATA_DISABLED"] = "true"
    env["AWS_DEFAULT_REGION"] = "us-east-1"
    r = ws.run("aws sts get-caller-identity", env=env, timeout=60)
    add(
        "aws-no-credentials",
        RULE,
        r,
        [sig("error", "Unable to locate credentials")],
        "no credentials in the environment, config files or instance metadata",
    )
    return fixtures
