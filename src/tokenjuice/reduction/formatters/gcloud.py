"""gcloud: `--format=json` answers become one row per record (cloud-json); default
table listings (instances, clusters, services) keep rows whose STATUS is not healthy
and fold the rest into counts (kubectl-table). Anything else takes the rule's window.
"""

from __future__ import annotations

from tokenjuice.reduction.formatters import FormatInput, FormatOutput, cloud_json, kubectl_table


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    return cloud_json.format(fi) or kubectl_table.format(fi)
