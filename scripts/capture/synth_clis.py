"""flyctl, pulumi, fnm, launchctl, mise and `gh … --json`: synthesized.

flyctl and pulumi talk to their clouds, launchctl exists only on macOS, fnm and mise
download runtimes from the internet and gh needs a GitHub login: none of them can give
real output here. Each output follows the tool's documented format (named per
fixture), written here for a small project of our own; the signals are the values the
outputs were generated from.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig, synthesized


def capture(ws: Workspace) -> list[dict[str, Any]]:
    del ws  # nothing runs here
    return [_fly_deploy(), _pulumi_up(), _fnm_install(), _launchctl_list(), _mise_run(), _gh_pr_list_json()]


def _fly_deploy() -> dict[str, Any]:
    lines = [
        "==> Verifying app config",
        "Validating /home/dev/shop/fly.toml",
        "✓ Configuration is valid",
        "--> Verified app config",
        "==> Building image",
        "Remote builder fly-builder-quiet-fog-2231 ready",
        "==> Building image with Docker",
    ]
    for k in range(1, 15):
        lines += [f"#{k} [{min(k, 9)}/9] RUN step {k}", f"#{k} DONE {k * 0.7:.1f}s"]
    lines += [
        "--> Building image done",
        "==> Pushing image to fly",
        "image: registry.fly.io/shop-api:deployment-01JABCDXYZ",
        "image size: 88 MB",
        "Watch your deployment at https://fly.io/apps/shop-api/monitoring",
        "Updating existing machines in 'shop-api' with rolling strategy",
        "-------",
        " ✔ [1/2] Machine 148ed193b95d89 [app] update succeeded",
        " ✖ [2/2] Machine 9083d3e8f3d248 [app] update failed: smoke checks for 9083d3e8f3d248 failed: "
        "the app appears to be crashing",
        "-------",
        "Error: failed to update machine 9083d3e8f3d248: smoke checks failed",
        "Check its logs: here's the last 2 lines:",
        "  2026-05-04T10:11:02Z app[9083d3e8f3d248] lhr [info] Error: DATABASE_URL is not set",
        "  2026-05-04T10:11:02Z app[9083d3e8f3d248] lhr [info] Main child exited normally with code: 1",
    ]
    return synthesized(
        "flyctl-deploy-smoke-check-failed",
        "cloud/flyctl",
        family="flyctl",
        command="fly deploy",
        exit_code=1,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("error", "Error: failed to update machine 9083d3e8f3d248: smoke checks failed"),
            sig("failure", "update failed: smoke checks for 9083d3e8f3d248 failed"),
            sig("error", "Error: DATABASE_URL is not set"),
            sig("image", "registry.fly.io/shop-api:deployment-01JABCDXYZ"),
        ],
        format_source="flyctl deploy (fly.io docs: Deploy an app, rolling strategy, smoke checks)",
        tool_version="flyctl v0.2.65",
    )


def _pulumi_up() -> dict[str, Any]:
    lines = ["Updating (prod)", "", "View in Browser (Ctrl+O): https://app.pulumi.com/acme/shop/prod/updates/42", ""]
    lines += ["     Type                              Name                Status              Info"]
    lines += [" +   pulumi:pulumi:Stack               shop-prod           **failed**          1 error"]
    for k in range(1, 21):
        lines.append(
            f" ~   ├─ aws:lambda:Function            handler-{k:02d}          updated (2s)        [diff: ~code]"
        )
    lines += [
        " +   ├─ aws:s3:Bucket                  logs                **creating failed** 1 error",
        " -   └─ aws:sqs:Queue                  legacy-jobs         deleted (1s)",
        "",
        "Diagnostics:",
        "  aws:s3:Bucket (logs):",
        "    error: creating S3 Bucket (acme-shop-logs): BucketAlreadyExists: The requested bucket name is not "
        "available.",
        "",
        "  pulumi:pulumi:Stack (shop-prod):",
        "    error: update failed",
        "",
        "Outputs:",
        '    apiUrl: "https://api.shop.example"',
        "",
        "Resources:",
        "    ~ 20 updated",
        "    - 1 deleted",
        "    21 changes. 3 unchanged",
        "",
        "Duration: 48s",
    ]
    return synthesized(
        "pulumi-up-bucket-error",
        "devops/pulumi",
        family="pulumi",
        command="pulumi up --yes --stack prod",
        exit_code=255,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("error", "error: creating S3 Bucket (acme-shop-logs): BucketAlreadyExists"),
            sig("error", "error: update failed"),
            sig("resource", "aws:s3:Bucket                  logs                **creating failed**"),
            sig("resource", "legacy-jobs         deleted"),
            sig("summary", "~ 20 updated"),
            sig("summary", "- 1 deleted"),
            sig("summary", "Duration: 48s"),
        ],
        format_source="pulumi up (pulumi.com docs: pulumi up, update diagnostics and resource summary)",
        tool_version="pulumi v3.115.0",
    )


def _fnm_install() -> dict[str, Any]:
    lines = [f"v{major}.{minor}.{patch}" for major in (18, 20, 22) for minor in range(12) for patch in (0, 1)]
    lines = [f"{v}{' (Hydrogen)' if v.startswith('v18') else ''}" for v in lines]
    return synthesized(
        "fnm-list-remote",
        "package/fnm",
        family="fnm",
        command="fnm list-remote",
        exit_code=0,
        stdout="\n".join(lines) + "\n",
        signals=[sig("version", "v18.0.0"), sig("version", "v22.11.1")],
        format_source="fnm list-remote (fnm README: one version per line, LTS codename in parentheses)",
        tool_version="fnm 1.37.1",
    )


def _launchctl_list() -> dict[str, Any]:
    rows = ["PID\tStatus\tLabel"]
    for k in range(120):
        rows.append(f"-\t0\tcom.apple.agent{k:03d}")
    rows[40] = "-\t78\tcom.example.shop.backup"
    rows[77] = "512\t0\tcom.example.shop.api"
    rows[101] = "-\t-9\tcom.example.shop.indexer"
    return synthesized(
        "launchctl-list-failed-jobs",
        "service/launchctl",
        family="launchctl",
        command="launchctl list",
        exit_code=0,
        stdout="\n".join(rows) + "\n",
        signals=[
            sig("failed_job", "78\tcom.example.shop.backup"),
            sig("failed_job", "-9\tcom.example.shop.indexer"),
            sig("running_job", "512\t0\tcom.example.shop.api"),
        ],
        format_source="launchctl list (man launchctl: PID, last exit status or negative signal, label)",
        tool_version="launchctl (macOS 14.4)",
    )


def _mise_run() -> dict[str, Any]:
    lines = [
        "mise node@22.14.0   ✓ installed",
        "mise python@3.12.3  ✓ installed",
        "[lint] $ ruff check src",
        "All checks passed!",
        "[test] $ pytest -q",
    ]
    lines += [f"tests/test_mod{k:02d}.py ........................................ [{k * 4:3d}%]" for k in range(1, 25)]
    lines += [
        "FAILED tests/test_mod07.py::test_refund_rounding - assert 4.99 == 5.0",
        "1 failed, 959 passed in 12.41s",
        "[test] ERROR task failed",
        "mise ERROR Failed to run task test: exit status 1",
    ]
    return synthesized(
        "mise-run-ci-test-failure",
        "task/mise",
        family="mise",
        command="mise run ci",
        exit_code=1,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("failing_test", "FAILED tests/test_mod07.py::test_refund_rounding - assert 4.99 == 5.0"),
            sig("summary", "1 failed, 959 passed in 12.41s"),
            sig("error", "mise ERROR Failed to run task test: exit status 1"),
            sig("task", "[test] $ pytest -q"),
        ],
        format_source="mise run (mise.jdx.dev docs: tasks, `[task] $ cmd` prefixes, mise ERROR lines)",
        tool_version="mise 2024.5.0",
    )


def _gh_pr_list_json() -> dict[str, Any]:
    prs = []
    for k in range(1, 41):
        prs.append(
            {
                "author": {"id": f"MDQ6VXNlcj{k:05d}", "is_bot": False, "login": f"dev{k % 7}", "name": f"Dev {k % 7}"},
                "headRefName": f"feature/cart-{k}",
                "labels": [
                    {
                        "id": f"LA_kwDO{k:04d}",
                        "name": "bug" if k % 3 == 0 else "enhancement",
                        "description": "",
                        "color": "d73a4a" if k % 3 == 0 else "a2eeef",
                    }
                ],
                "number": 900 + k,
                "title": f"Cart: handle case {k} in the checkout flow",
                "url": f"https://github.com/acme/shop/pull/{900 + k}",
                "updatedAt": f"2026-05-{1 + k % 28:02d}T10:00:00Z",
            }
        )
    return synthesized(
        "gh-pr-list-json",
        "cloud/gh",
        family="gh-json",
        command="gh pr list --json number,title,author,labels,headRefName,url,updatedAt",
        exit_code=0,
        stdout=json.dumps(prs, separators=(",", ":")) + "\n",
        signals=[sig("pr", "901"), sig("pr", "940"), sig("title", "Cart: handle case 40 in the checkout flow")],
        format_source="gh pr list --json (cli.github.com manual: JSON output fields; compact JSON when not a terminal)",
        tool_version="gh version 2.49.0",
    )
