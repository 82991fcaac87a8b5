"""gcloud and az: the real CLIs without an account (their real auth errors), and
synthesized answers of a logged-in session built from the documented formats.

gcloud is installed on this machine; az comes from PyPI (azure-cli) into the tools
venv. Both run with throwaway config directories so nothing of the machine's is read
or written. Signals of the synthesized fixtures are the values the generator used.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

from capture._lib import Workspace, sig, synthesized

FAMILY_G = "gcloud"
FAMILY_A = "az"
GCLOUD_VERSION = "Google Cloud SDK 528.0.0"
AZ_VERSION = "azure-cli 2.67.0"


def capture(ws: Workspace) -> list[dict[str, Any]]:
    fixtures: list[dict[str, Any]] = []
    fixtures += _gcloud_real(ws)
    fixtures += _az_real(ws)
    fixtures += [_gcloud_instances(), _gcloud_build_fail(), _gcloud_json(), _az_vm_list(), _az_deploy_fail()]
    return fixtures


def _gcloud_real(ws: Workspace) -> list[dict[str, Any]]:
    if not ws.which("gcloud"):
        return []
    env = dict(ws.env, CLOUDSDK_CONFIG=str(ws.path("gcloud-config")), CLOUDSDK_CORE_DISABLE_PROMPTS="1")
    version = ws.version(["gcloud", "--version"])
    out = []
    r = ws.run("gcloud compute instances list", env=env, timeout=120)
    out.append(
        ws.fixture(
            "gcloud-no-account",
            "cloud/gcloud",
            r,
            family=FAMILY_G,
            signals=[
                sig("error", "You do not currently have an active account selected"),
                sig("command", "gcloud.compute.instances.list"),
            ],
            signal_source="a fresh gcloud configuration directory with no credentials",
            tool_version=version,
        )
    )
    r = ws.run("gcloud config list", env=env, timeout=120)
    out.append(
        ws.fixture(
            "gcloud-config-list",
            "cloud/gcloud",
            r,
            family=FAMILY_G,
            signals=[sig("config", "[core]"), sig("config", "disable_prompts = 1")],
            signal_source="CLOUDSDK_CORE_DISABLE_PROMPTS=1 set in the environment of the fresh configuration",
            tool_version=version,
        )
    )
    return out


def _az_real(ws: Workspace) -> list[dict[str, Any]]:
    if not ws.which("az"):
        try:
            ws.pip_install("azure-cli")
        except Exception:  # noqa: BLE001 - az is optional here; the synthesized fixtures still come
            return []
    if not ws.which("az"):
        return []
    env = dict(
        ws.env,
        AZURE_CONFIG_DIR=str(ws.path("az-config")),
        AZURE_CORE_COLLECT_TELEMETRY="false",
        AZURE_CORE_NO_COLOR="true",
    )
    version = ws.version(["az", "version", "--query", '"azure-cli"', "-o", "tsv"])
    out = []
    r = ws.run("az vm list", env=env, timeout=300)
    out.append(
        ws.fixture(
            "az-not-logged-in",
            "cloud/az",
            r,
            family=FAMILY_A,
            signals=[sig("error", "az login")],
            signal_source="a fresh az configuration directory with no account",
            tool_version=f"azure-cli {version}",
        )
    )
    r = ws.run("az group list --output table --only-show-errors --sobscription x", env=env, timeout=300)
    out.append(
        ws.fixture(
            "az-bad-argument",
            "cloud/az",
            r,
            family=FAMILY_A,
            signals=[sig("error", "--sobscription")],
            signal_source="the misspelt argument passed on the command line",
            tool_version=f"azure-cli {version}",
        )
    )
    return out


# ----------------------------------------------------------------- gcloud


def _gcloud_instances() -> dict[str, Any]:
    rng = random.Random(31)
    zones = ["us-central1-a", "us-central1-b", "us-central1-c", "europe-west1-b", "europe-west1-d"]
    types = ["e2-medium", "e2-standard-4", "n2-standard-8", "c3-standard-4", "n2d-highmem-4"]
    header = ["NAME", "ZONE", "MACHINE_TYPE", "PREEMPTIBLE", "INTERNAL_IP", "EXTERNAL_IP", "STATUS"]
    rows = []
    bad = []
    for k in range(160):
        role = ["web", "api", "worker", "etl", "gke-pool", "bastion"][k % 6]
        name = (
            f"{role}-{k:03d}"
            if role != "gke-pool"
            else f"gke-prod-default-pool-{rng.getrandbits(32):08x}-{rng.choice('abcdefghjk')}{rng.randint(100, 999)}"
        )
        status = "RUNNING"
        if k in (17, 88, 131):
            status = "TERMINATED"
        elif k in (45, 102):
            status = "STOPPING"
        elif k == 150:
            status = "SUSPENDED"
        ext = (
            f"34.{rng.randint(60, 180)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
            if status == "RUNNING" and role in ("web", "bastion")
            else ""
        )
        rows.append(
            [
                name,
                rng.choice(zones),
                types[k % 5],
                "true" if role == "etl" else "",
                f"10.128.{rng.randint(0, 15)}.{rng.randint(2, 254)}",
                ext,
                status,
            ]
        )
        if status != "RUNNING":
            bad.append(name)
    widths = [max(len(header[c]), *(len(r[c]) for r in rows)) for c in range(7)]
    text = "\n".join(("  ".join(r[c].ljust(widths[c]) for c in range(7))).rstrip() for r in [header, *rows]) + "\n"
    return synthesized(
        "gcloud-compute-instances-list",
        "cloud/gcloud",
        family=FAMILY_G,
        command="gcloud compute instances list",
        exit_code=0,
        stdout=text,
        signals=[sig("instance", n) for n in bad] + [sig("status", "TERMINATED")],
        format_source="https://cloud.google.com/sdk/gcloud/reference/compute/instances/list (default table: "
        "NAME ZONE MACHINE_TYPE PREEMPTIBLE INTERNAL_IP EXTERNAL_IP STATUS, two-space gutters)",
        tool_version=GCLOUD_VERSION,
    )


def _gcloud_build_fail() -> dict[str, Any]:
    rng = random.Random(5)
    bid = str(uuid.UUID(int=rng.getrandbits(128)))
    out = [
        "Creating temporary archive of 1482 file(s) totalling 21.3 MiB before compression.",
        "Uploading tarball of [.] to [gs://acme-prod_cloudbuild/source/1710407564.218-3e1b.tgz]",
        f"Created [https://cloudbuild.googleapis.com/v1/projects/acme-prod/locations/global/builds/{bid}].",
        f"Logs are available at [ https://console.cloud.google.com/cloud-build/builds/{bid}?project=123456789012 ].",
        "Waiting for build to complete. Polling interval: 1 second(s).",
        "------------------------------------------------- REMOTE BUILD OUTPUT --------------------------------------------------",
        f'starting build "{bid}"',
        "",
        "FETCHSOURCE",
        "Fetching storage object: gs://acme-prod_cloudbuild/source/1710407564.218-3e1b.tgz#1710407565123456",
        "Copying gs://acme-prod_cloudbuild/source/1710407564.218-3e1b.tgz#1710407565123456...",
        "/ [1 files][  6.1 MiB/  6.1 MiB]",
        "Operation completed over 1 objects/6.1 MiB.",
        "BUILD",
        'Starting Step #0 - "install"',
        'Step #0 - "install": Already have image (with digest): node:20',
    ]
    for k in range(380):
        out.append(
            f'Step #0 - "install": npm http fetch GET 200 https://registry.npmjs.org/pkg-{k:03d} {rng.randint(20, 400)}ms (cache miss)'
        )
    out += [
        'Step #0 - "install": added 1204 packages, and audited 1205 packages in 41s',
        'Finished Step #0 - "install"',
        'Starting Step #1 - "test"',
        'Step #1 - "test": Already have image (with digest): node:20',
        'Step #1 - "test": > shop-web@1.4.0 test',
        'Step #1 - "test": > vitest run',
    ]
    for k in range(120):
        out.append(
            f'Step #1 - "test":  ✓ src/components/Widget{k:03d}.test.tsx ({rng.randint(2, 9)} tests) {rng.randint(5, 90)}ms'
        )
    fail = 'Step #1 - "test":  FAIL  src/cart/checkout.test.ts > checkout > applies the loyalty discount'
    err = 'Step #1 - "test": AssertionError: expected 90 to be 85 // Object.is equality'
    loc = 'Step #1 - "test":  ❯ src/cart/checkout.test.ts:48:31'
    out += [
        fail,
        err,
        loc,
        'Step #1 - "test":  Test Files  1 failed | 120 passed (121)',
        'Step #1 - "test":       Tests  1 failed | 611 passed (612)',
        'Finished Step #1 - "test"',
        "ERROR",
        'ERROR: build step 1 "node:20" failed: step exited with non-zero status: 1',
        "------------------------------------------------------------------------------------------------------------------------",
        "",
        'BUILD FAILURE: Build step failure: build step 1 "node:20" failed: step exited with non-zero status: 1',
        f'ERROR: (gcloud.builds.submit) build {bid} completed with status "FAILURE"',
    ]
    return synthesized(
        "gcloud-builds-submit-fail",
        "cloud/gcloud",
        family=FAMILY_G,
        command="gcloud builds submit --config cloudbuild.yaml .",
        exit_code=1,
        stdout="",
        stderr="\n".join(out) + "\n",
        signals=[
            sig("failure", "applies the loyalty discount"),
            sig("error", "AssertionError: expected 90 to be 85"),
            sig("location", "src/cart/checkout.test.ts:48:31"),
            sig("error", f'build {bid} completed with status "FAILURE"'),
            sig("error", "step exited with non-zero status: 1"),
        ],
        format_source="https://cloud.google.com/build/docs/running-builds/submit-build-via-cli-api (streamed "
        '`Step #N - "id": ` prefixed logs, REMOTE BUILD OUTPUT banner, final status)',
        tool_version=GCLOUD_VERSION,
    )


def _gcloud_json() -> dict[str, Any]:
    rng = random.Random(8)
    services = []
    bad = []
    for k in range(45):
        name = f"{['checkout', 'catalog', 'search', 'auth', 'images', 'notify', 'reports', 'billing', 'gateway'][k % 9]}-{k // 9}"
        ready = "True" if k not in (6, 29) else "False"
        if ready == "False":
            bad.append(name)
        services.append(
            {
                "apiVersion": "serving.knative.dev/v1",
                "kind": "Service",
                "metadata": {
                    "name": name,
                    "namespace": "123456789012",
                    "uid": str(uuid.UUID(int=rng.getrandbits(128))),
                    "generation": rng.randint(1, 40),
                    "creationTimestamp": f"2026-0{rng.randint(1, 3)}-{rng.randint(10, 28)}T{rng.randint(10, 23)}:{rng.randint(10, 59)}:00.123456Z",
                    "labels": {"cloud.googleapis.com/location": "europe-west1"},
                    "annotations": {
                        "run.googleapis.com/ingress": "all",
                        "serving.knative.dev/creator": "ci@acme-prod.iam.gserviceaccount.com",
                    },
                },
                "spec": {
                    "template": {
                        "spec": {
                            "containerConcurrency": 80,
                            "timeoutSeconds": 300,
                            "containers": [
                                {
                                    "image": f"europe-docker.pkg.dev/acme-prod/shop/{name}:1.{k}.0",
                                    "ports": [{"containerPort": 8080, "name": "http1"}],
                                    "resources": {"limits": {"cpu": "1000m", "memory": "512Mi"}},
                                }
                            ],
                        }
                    },
                    "traffic": [{"latestRevision": True, "percent": 100}],
                },
                "status": {
                    "observedGeneration": 3,
                    "conditions": [
                        {"type": "Ready", "status": ready, "lastTransitionTime": "2026-03-14T09:00:00Z"},
                        {"type": "ConfigurationsReady", "status": ready},
                        {"type": "RoutesReady", "status": "True"},
                    ],
                    "latestReadyRevisionName": f"{name}-000{rng.randint(10, 99)}-abc",
                    "url": f"https://{name}-{rng.getrandbits(40):010x}-ew.a.run.app",
                    "address": {"url": f"https://{name}-{rng.getrandbits(40):010x}-ew.a.run.app"},
                },
            }
        )
    return synthesized(
        "gcloud-run-services-json",
        "cloud/gcloud",
        family=FAMILY_G,
        command="gcloud run services list --format=json",
        exit_code=0,
        stdout=json.dumps(services, indent=2) + "\n",
        signals=[sig("service", s["metadata"]["name"]) for s in services],
        format_source="https://cloud.google.com/sdk/gcloud/reference/run/services/list and the Knative "
        "Service resource (metadata/spec/status) that --format=json prints",
        tool_version=GCLOUD_VERSION,
    )


# ----------------------------------------------------------------- az


def _az_vm_list() -> dict[str, Any]:
    rng = random.Random(13)
    sub = str(uuid.UUID(int=rng.getrandbits(128)))
    vms = []
    for k in range(70):
        rg = ["rg-shop-prod", "rg-shop-staging", "rg-data-prod", "rg-platform"][k % 4]
        name = f"vm-{['web', 'api', 'etl', 'jump', 'build'][k % 5]}-{k:02d}"
        vid = f"/subscriptions/{sub}/resourceGroups/{rg.upper()}/providers/Microsoft.Compute/virtualMachines/{name}"
        vms.append(
            {
                "additionalCapabilities": None,
                "applicationProfile": None,
                "availabilitySet": None,
                "billingProfile": None,
                "diagnosticsProfile": {"bootDiagnostics": {"enabled": True, "storageUri": None}},
                "extendedLocation": None,
                "hardwareProfile": {
                    "vmSize": ["Standard_D2s_v5", "Standard_D4s_v5", "Standard_B2ms", "Standard_E4s_v5"][k % 4],
                    "vmSizeProperties": None,
                },
                "id": vid,
                "identity": None,
                "licenseType": None,
                "location": ["westeurope", "northeurope"][k % 2],
                "name": name,
                "networkProfile": {
                    "networkInterfaces": [
                        {
                            "deleteOption": "Detach",
                            "id": f"/subscriptions/{sub}/resourceGroups/{rg.upper()}/providers/Microsoft.Network/networkInterfaces/{name}-nic",
                            "primary": None,
                            "resourceGroup": rg.upper(),
                        }
                    ]
                },
                "osProfile": {
                    "adminPassword": None,
                    "adminUsername": "azureuser",
                    "allowExtensionOperations": True,
                    "computerName": name,
                    "linuxConfiguration": {
                        "disablePasswordAuthentication": True,
                        "patchSettings": {"assessmentMode": "ImageDefault", "patchMode": "ImageDefault"},
                        "provisionVmAgent": True,
                        "ssh": {
                            "publicKeys": [
                                {
                                    "keyData": "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ"
                                    + "x" * 300
                                    + " generated-by-azure",
                                    "path": "/home/azureuser/.ssh/authorized_keys",
                                }
                            ]
                        },
                    },
                    "secrets": [],
                },
                "plan": None,
                "priority": None,
                "provisioningState": "Succeeded" if k not in (9, 41) else "Failed",
                "resourceGroup": rg.upper(),
                "securityProfile": {
                    "securityType": "TrustedLaunch",
                    "uefiSettings": {"secureBootEnabled": True, "vTpmEnabled": True},
                },
                "storageProfile": {
                    "dataDisks": [],
                    "imageReference": {
                        "exactVersion": "22.04.202403010",
                        "offer": "0001-com-ubuntu-server-jammy",
                        "publisher": "canonical",
                        "sku": "22_04-lts-gen2",
                        "version": "latest",
                    },
                    "osDisk": {
                        "caching": "ReadWrite",
                        "createOption": "FromImage",
                        "deleteOption": "Delete",
                        "diskSizeGb": 30,
                        "managedDisk": {
                            "id": f"/subscriptions/{sub}/resourceGroups/{rg.upper()}/providers/Microsoft.Compute/disks/{name}_OsDisk_1",
                            "resourceGroup": rg.upper(),
                            "storageAccountType": "Premium_LRS",
                        },
                        "name": f"{name}_OsDisk_1",
                        "osType": "Linux",
                    },
                },
                "tags": {"env": rg.split("-")[-1], "owner": "platform"},
                "timeCreated": f"2026-02-{rng.randint(10, 28)}T{rng.randint(10, 23)}:{rng.randint(10, 59)}:00.1234567+00:00",
                "type": "Microsoft.Compute/virtualMachines",
                "vmId": str(uuid.UUID(int=rng.getrandbits(128))),
                "zones": [str(rng.randint(1, 3))],
            }
        )
    return synthesized(
        "az-vm-list-json",
        "cloud/az",
        family=FAMILY_A,
        command="az vm list",
        exit_code=0,
        stdout=json.dumps(vms, indent=2) + "\n",
        signals=[sig("vm", v["name"]) for v in vms] + [sig("state", "Failed")],
        format_source="https://learn.microsoft.com/en-us/cli/azure/vm#az-vm-list (default JSON output, "
        "VirtualMachine resource properties)",
        tool_version=AZ_VERSION,
    )


def _az_deploy_fail() -> dict[str, Any]:
    err = {
        "code": "InvalidTemplateDeployment",
        "message": "The template deployment 'main' is not valid according to the validation procedure. The tracking id is '4c1f0a52-8e0b-4a8e-9d6b-2f1e7f0c9b11'. See inner errors for details.",
        "details": [
            {
                "code": "SkuNotAvailable",
                "message": "The requested VM size for resource 'Following SKUs have failed for Capacity Restrictions: Standard_D4s_v5' is currently not available in location 'westeurope'. Please try another size or deploy to a different location or different zone.",
            }
        ],
    }
    lines = [
        "WARNING: The command requires the extension bicep. It will be installed first.",
        'ERROR: {"status":"Failed","error":' + json.dumps(err) + "}",
    ]
    return synthesized(
        "az-deployment-invalid",
        "cloud/az",
        family=FAMILY_A,
        command="az deployment group create -g rg-shop-prod --template-file main.bicep",
        exit_code=1,
        stdout="",
        stderr="\n".join(lines) + "\n",
        signals=[sig("error", "InvalidTemplateDeployment"), sig("error", "SkuNotAvailable")],
        format_source="https://learn.microsoft.com/en-us/azure/azure-resource-manager/troubleshooting/error-sku-not-available "
        "(the error JSON az prints after `ERROR:`)",
        tool_version=AZ_VERSION,
    )
