"""terraform init / validate / plan / apply / fmt on provider-free configurations.

Everything here runs for real: `terraform_data` resources, local modules and
`local-exec` provisioners need no provider download. A provider requirement shows the
real registry failure. A service catalogue generated below is applied, then changed
(versions bumped, majors bumped, services removed and added) so the plan holds every
kind of change.

Signals: `terraform show -json <planfile>` (resource_changes addresses and actions, and
the summary counts they add up to), `terraform show -json` of the state after apply,
and the data the configurations were generated from (the failing command, the invalid
references). OpenTofu is not packaged here; its fixture is synthesized.
"""

from __future__ import annotations

import json
import random
from typing import Any

from capture._lib import Result, Workspace, sig, synthesized

FAMILY = "terraform"
RULE_PLAN = "devops/terraform-plan"
RULE_TF = "devops/terraform"

AREAS = ["orders", "cart", "catalog", "search", "users", "auth", "billing", "shipping", "inventory", "reports"]
KINDS = ["api", "worker", "cron", "consumer", "gateway", "indexer", "exporter"]


def _catalogue(seed: int, n: int) -> dict[str, dict[str, Any]]:
    rng = random.Random(seed)
    out: dict[str, dict[str, Any]] = {}
    while len(out) < n:
        name = f"{rng.choice(AREAS)}-{rng.choice(KINDS)}"
        if name in out:
            name = f"{name}-{len(out)}"
        out[name] = {
            "major": rng.randint(1, 4),
            "version": f"{rng.randint(0, 9)}.{rng.randint(0, 20)}",
            "replicas": rng.choice([1, 2, 2, 3, 4, 6]),
            "cpu": rng.choice(["250m", "500m", "1", "2"]),
            "memory": rng.choice(["256Mi", "512Mi", "1Gi", "2Gi"]),
            "port": 8000 + len(out),
        }
    return out


def _hcl_services(services: dict[str, dict[str, Any]]) -> str:
    rows = []
    for name, s in services.items():
        rows.append(
            f'    "{name}" = {{ major = {s["major"]}, version = "{s["version"]}", replicas = {s["replicas"]}, '
            f'cpu = "{s["cpu"]}", memory = "{s["memory"]}", port = {s["port"]} }}'
        )
    return "{\n" + "\n".join(rows) + "\n  }"


MAIN_TF = """
terraform {{
  required_version = ">= 1.5"
}}

variable "env" {{
  type    = string
  default = "staging"
  validation {{
    condition     = contains(["staging", "prod"], var.env)
    error_message = "The env value must be \\"staging\\" or \\"prod\\"."
  }}
}}

locals {{
  services = {services}
  zones = {zones}
}}

resource "terraform_data" "service" {{
  for_each = local.services
  input = {{
    name     = each.key
    image    = "registry.example.com/shop/${{each.key}}:${{each.value.major}}.${{each.value.version}}"
    replicas = each.value.replicas
    cpu      = each.value.cpu
    memory   = each.value.memory
    port     = each.value.port
    env      = var.env
  }}
  triggers_replace = [each.value.major]
}}

resource "terraform_data" "dns" {{
  for_each = local.services
  input = {{
    fqdn   = "${{each.key}}.${{var.env}}.example.com"
    target = terraform_data.service[each.key].output.name
    ttl    = 300
  }}
}}

module "network" {{
  source = "./modules/network"
  env    = var.env
  zones  = local.zones
}}

output "service_count" {{
  value = length(local.services)
}}

output "endpoints" {{
  value = sort([for k, v in terraform_data.dns : v.output.fqdn])
}}
"""

NETWORK_TF = """
variable "env" { type = string }
variable "zones" { type = list(string) }

resource "terraform_data" "subnet" {
  count = length(var.zones)
  input = {
    zone = var.zones[count.index]
    cidr = cidrsubnet("10.20.0.0/16", 8, count.index)
    tags = { env = var.env, tier = "private" }
  }
}

resource "terraform_data" "route_table" {
  input = { subnets = [for s in terraform_data.subnet : s.output.cidr] }
}

output "cidrs" { value = [for s in terraform_data.subnet : s.output.cidr] }
"""


def _write_stack(ws: Workspace, rel: str, services: dict[str, dict[str, Any]], zones: list[str]) -> None:
    ws.write(
        f"{rel}/main.tf",
        MAIN_TF.format(services=_hcl_services(services), zones=json.dumps(zones)),
    )
    ws.write(f"{rel}/modules/network/main.tf", NETWORK_TF)


def _plan_signals(ws: Workspace, rel: str, planfile: str) -> tuple[list[Any], dict[str, int]]:
    data = json.loads(ws.sh(f"terraform show -json {planfile}", rel))
    sigs: list[Any] = []
    counts = {"add": 0, "change": 0, "destroy": 0}
    for rc in data.get("resource_changes", []):
        actions = rc["change"]["actions"]
        if actions in (["no-op"], ["read"]):
            continue
        sigs.append(sig("resource", rc["address"]))
        if "create" in actions:
            counts["add"] += 1
        if "delete" in actions:
            counts["destroy"] += 1
        if actions == ["update"]:
            counts["change"] += 1
    sigs.append(
        sig("summary", f"Plan: {counts['add']} to add, {counts['change']} to change, {counts['destroy']} to destroy.")
    )
    return sigs, counts


def _state_index(ws: Workspace, rel: str) -> dict[str, tuple[str, str]]:
    """address -> (id, values as JSON) for every resource in the state."""
    data = json.loads(ws.sh("terraform show -json", rel))
    out: dict[str, tuple[str, str]] = {}
    mods = [data.get("values", {}).get("root_module", {})]
    while mods:
        m = mods.pop()
        for res in m.get("resources", []):
            vals = dict(res.get("values", {}))
            out[res["address"]] = (str(vals.pop("id", "")), json.dumps(vals, sort_keys=True))
        mods.extend(m.get("child_modules", []))
    return out


def _line_of(ws: Workspace, rel: str, needle: str) -> int:
    for k, line in enumerate(ws.path(rel).read_text().splitlines(), 1):
        if needle in line:
            return k
    raise ValueError(f"{needle!r} not in {rel}")


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("terraform")
    # An empty CLI config: the machine's TF_CLI_CONFIG_FILE points at a missing file,
    # which would add a warning to every output.
    ws.write("terraformrc", "")
    ws.env["TF_CLI_CONFIG_FILE"] = str(ws.path("terraformrc"))
    ws.env["CHECKPOINT_DISABLE"] = "1"
    version = ws.version(["terraform", "version"])
    fixtures: list[dict[str, Any]] = []

    def add(id: str, rule: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        fixtures.append(
            ws.fixture(
                id, rule, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    zones = ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1f"]
    services = _catalogue(1, 70)
    _write_stack(ws, "stack", services, zones)

    r = ws.run("terraform init", "stack")
    add(
        "terraform-init-ok",
        RULE_TF,
        r,
        [sig("status", "Terraform has been successfully initialized!"), sig("module", "network")],
        "the configuration: one local module (network), no providers",
    )

    r = ws.run("terraform apply -auto-approve", "stack")
    state = json.loads(ws.sh("terraform show -json", "stack"))
    n_res = len(state["values"]["root_module"].get("resources", [])) + sum(
        len(m.get("resources", [])) for m in state["values"]["root_module"].get("child_modules", [])
    )
    add(
        "terraform-apply-create-many",
        RULE_PLAN,
        r,
        [
            sig("summary", f"Apply complete! Resources: {n_res} added, 0 changed, 0 destroyed."),
            sig("output", "service_count"),
        ],
        "`terraform show -json` of the state after apply: the number of resources created; the outputs declared",
    )

    # Change the catalogue: bump versions (update), bump majors (replace), drop and add services.
    rng = random.Random(2)
    changed = dict(services)
    names = list(changed)
    for name in rng.sample(names, 9):
        changed[name] = dict(changed[name], version=f"{changed[name]['version']}.1")
    for name in rng.sample(names, 4):
        changed[name] = dict(changed[name], major=changed[name]["major"] + 1)
    for name in rng.sample(names, 5):
        changed.pop(name, None)
    extra = _catalogue(99, 6)
    for name, s in extra.items():
        changed[f"new-{name}"] = s
    _write_stack(ws, "stack", changed, [*zones[:4], "us-east-1e"])
    r = ws.run("terraform plan -out=tfplan", "stack")
    sigs, counts = _plan_signals(ws, "stack", "tfplan")
    add(
        "terraform-plan-mixed-large",
        RULE_PLAN,
        r,
        sigs,
        "`terraform show -json tfplan`: every resource_changes address whose action is not no-op, and the "
        "Plan: summary those actions add up to",
        notes=json.dumps(counts),
    )
    before = _state_index(ws, "stack")
    r = ws.run("terraform apply -auto-approve tfplan", "stack")
    after = _state_index(ws, "stack")
    replaced = {a for a in before.keys() & after.keys() if before[a][0] != after[a][0]}
    added = len(after.keys() - before.keys()) + len(replaced)
    destroyed = len(before.keys() - after.keys()) + len(replaced)
    changed = sum(1 for a in before.keys() & after.keys() if a not in replaced and before[a] != after[a])
    add(
        "terraform-apply-plan",
        RULE_PLAN,
        r,
        [sig("summary", f"Apply complete! Resources: {added} added, {changed} changed, {destroyed} destroyed.")],
        "`terraform show -json` of the state before and after: addresses added, removed, replaced (new id) "
        "and updated in place (same id, other values)",
    )
    r = ws.run("terraform plan", "stack")
    add(
        "terraform-plan-no-changes",
        RULE_PLAN,
        r,
        [sig("status", "No changes.")],
        "the plan right after applying the same configuration",
    )
    env_line = _line_of(ws, "stack/main.tf", 'variable "env"')
    r = ws.run("terraform plan -var env=qa", "stack")
    add(
        "terraform-plan-invalid-var",
        RULE_PLAN,
        r,
        [
            sig("error", "Invalid value for variable"),
            sig("message", 'The env value must be "staging" or "prod".'),
            sig("location", f"main.tf line {env_line}"),
        ],
        "the variable's validation block (its line in the generated main.tf) and its error_message",
    )

    # validate: several real mistakes
    ws.write(
        "broken/main.tf",
        """
        variable "replicas" {
          type    = number
          default = 2
        }

        resource "terraform_data" "api" {
          input = {
            replicas = var.replica
            image    = "shop/api:1.0"
          }
        }

        output "api_name" {
          value = terraform_data.worker.output
        }
        """,
    )
    ws.sh("terraform init -input=false", "broken", check=False)
    r = ws.run("terraform validate", "broken")
    add(
        "terraform-validate-errors",
        RULE_TF,
        r,
        [
            sig("error", "Reference to undeclared input variable"),
            sig("error", "Reference to undeclared resource"),
            sig("location", f"main.tf line {_line_of(ws, 'broken/main.tf', 'var.replica')}"),
            sig("location", f"main.tf line {_line_of(ws, 'broken/main.tf', 'terraform_data.worker')}"),
        ],
        "the mistakes written into main.tf (var.replica, terraform_data.worker) at their lines",
    )
    r = ws.run("terraform validate", "stack")
    add(
        "terraform-validate-ok",
        RULE_TF,
        r,
        [sig("status", "Success! The configuration is valid.")],
        "a valid configuration",
    )

    # fmt -check: unformatted files are listed, exit 3
    for k in range(4):
        ws.write(f"fmtme/file{k}.tf", f'resource "terraform_data" "r{k}" {{\ninput = {{ a = 1\n    bb = 2 }}\n}}\n')
    ws.write("fmtme/ok.tf", 'output "x" {\n  value = 1\n}\n')
    r = ws.run("terraform fmt -check", "fmtme")
    add(
        "terraform-fmt-check",
        RULE_TF,
        r,
        [sig("file", f"file{k}.tf") for k in range(4)],
        "the four files written unformatted",
    )

    # init with a provider: the registry is unreachable
    ws.write(
        "withprovider/main.tf",
        """
        terraform {
          required_providers {
            aws = {
              source  = "hashicorp/aws"
              version = "~> 5.70"
            }
            random = {
              source = "hashicorp/random"
            }
          }
        }
        """,
    )
    r = ws.run("terraform init", "withprovider", timeout=180)
    add(
        "terraform-init-registry-unreachable",
        RULE_TF,
        r,
        [sig("error", "Failed to query available provider packages"), sig("provider", "hashicorp/aws")],
        "the providers the configuration requires; the registry is not reachable from this machine",
    )

    # apply that fails in a provisioner, after creating some resources
    hooks = [f"hook-{k:02d}" for k in range(30)]
    ws.write(
        "deploy/main.tf",
        f"""
        locals {{
          hooks = {json.dumps(hooks)}
        }}

        resource "terraform_data" "hook" {{
          for_each = toset(local.hooks)
          input    = each.key
          provisioner "local-exec" {{
            command = "echo running ${{each.key}}"
          }}
        }}

        resource "terraform_data" "migrate" {{
          depends_on = [terraform_data.hook]
          provisioner "local-exec" {{
            command = "echo 'applying migration 0042_add_orders_index'; echo 'ERROR: relation \\"orders\\" does not exist' >&2; exit 3"
          }}
        }}
        """,
    )
    ws.sh("terraform init -input=false", "deploy")
    r = ws.run("terraform apply -auto-approve", "deploy")
    add(
        "terraform-apply-provisioner-fail",
        RULE_PLAN,
        r,
        [
            sig("error", "local-exec provisioner error"),
            sig("error", 'ERROR: relation "orders" does not exist'),
            sig("resource", "terraform_data.migrate"),
            sig("exit", "exit status 3"),
        ],
        "the failing local-exec command written into the configuration (its stderr and exit 3)",
    )

    fixtures.append(_tofu_plan())
    return fixtures


def _tofu_plan() -> dict[str, Any]:
    """OpenTofu's plan output: Terraform's layout with OpenTofu's wording."""
    rng = random.Random(4)
    lines = [
        "data.aws_caller_identity.current: Reading...",
        "data.aws_caller_identity.current: Read complete after 0s [id=123456789012]",
    ]
    buckets = [f"logs-{a}" for a in AREAS]
    for b in buckets:
        lines.append(f'aws_s3_bucket.logs["{b}"]: Refreshing state... [id=acme-{b}-prod]')
    lines += [
        "",
        "OpenTofu used the selected providers to generate the following execution plan. Resource actions are",
        "indicated with the following symbols:",
        "  + create",
        "  ~ update in-place",
        "-/+ destroy and then create replacement",
        "",
        "OpenTofu will perform the following actions:",
        "",
    ]
    sigs = []
    for b in buckets[:3]:
        addr = f'aws_s3_bucket_lifecycle_configuration.logs["{b}"]'
        sigs.append(sig("resource", addr))
        lines += [
            f"  # {addr} will be created",
            '  + resource "aws_s3_bucket_lifecycle_configuration" "logs" {',
            f'      + bucket                                 = "acme-{b}-prod"',
            "      + expected_bucket_owner                  = (known after apply)",
            "      + id                                     = (known after apply)",
            "      + transition_default_minimum_object_size = (known after apply)",
            "",
            "      + rule {",
            '          + id     = "expire-30d"',
            '          + status = "Enabled"',
            "",
            "          + expiration {",
            "              + days                         = 30",
            "              + expired_object_delete_marker = (known after apply)",
            "            }",
            "",
            "          + filter {",
            '              + prefix = "app/"',
            "            }",
            "        }",
            "    }",
            "",
        ]
    for b in buckets[3:6]:
        addr = f'aws_s3_bucket.logs["{b}"]'
        sigs.append(sig("resource", addr))
        lines += [
            f"  # {addr} will be updated in-place",
            '  ~ resource "aws_s3_bucket" "logs" {',
            f'        id                          = "acme-{b}-prod"',
            "      ~ tags                        = {",
            '          ~ "cost-center" = "platform" -> "observability"',
            '            "env"         = "prod"',
            "        }",
            "      ~ tags_all                    = {",
            '          ~ "cost-center" = "platform" -> "observability"',
            "            # (1 unchanged element hidden)",
            "        }",
            "        # (11 unchanged attributes hidden)",
            "",
            "        # (3 unchanged blocks hidden)",
            "    }",
            "",
        ]
    addr = "aws_instance.bastion"
    sigs.append(sig("resource", addr))
    lines += [
        f"  # {addr} must be replaced",
        '-/+ resource "aws_instance" "bastion" {',
        '      ~ ami                                  = "ami-0c55b159cbfafe1f0" -> "ami-0e2c8caa4b6378d8c" # forces replacement',
        '      ~ arn                                  = "arn:aws:ec2:us-east-1:123456789012:instance/i-0abc12de34f567890" -> (known after apply)',
        '      ~ id                                   = "i-0abc12de34f567890" -> (known after apply)',
        '      ~ private_ip                           = "10.20.1.17" -> (known after apply)',
        '      ~ public_ip                            = "54.210.167.99" -> (known after apply)',
        "        tags                                 = {",
        '            "Name" = "bastion"',
        "        }",
        "        # (22 unchanged attributes hidden)",
        "",
        "      ~ root_block_device {",
        '          ~ volume_id             = "vol-0a1b2c3d4e5f67890" -> (known after apply)',
        "            # (8 unchanged attributes hidden)",
        "        }",
        "",
        "        # (6 unchanged blocks hidden)",
        "    }",
        "",
    ]
    summary = "Plan: 4 to add, 3 to change, 1 to destroy."
    lines += [
        summary,
        "",
        "Changes to Outputs:",
        '  ~ bastion_ip = "54.210.167.99" -> (known after apply)',
        "",
        "─" * 77,
        "",
        "Note: You didn't use the -out option to save this plan, so OpenTofu can't guarantee to take exactly",
        'these actions if you run "tofu apply" now.',
    ]
    del rng
    return synthesized(
        "tofu-plan",
        RULE_PLAN,
        family=FAMILY,
        command="tofu plan",
        exit_code=0,
        stdout="\n".join(lines) + "\n",
        signals=[*sigs, sig("summary", summary), sig("output", "bastion_ip")],
        format_source="https://opentofu.org/docs/cli/commands/plan/ (OpenTofu keeps Terraform's plan rendering; "
        "wording 'OpenTofu will perform the following actions')",
        tool_version="OpenTofu v1.8.3",
    )
