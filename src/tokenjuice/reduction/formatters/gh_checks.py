"""gh pr checks (no terminal): failing and pending checks in full, the rest by name.

gh prints one tab-separated row per check — name, bucket (pass/fail/pending/skipping),
elapsed, link, description — failing first. Passing and skipped checks only need their
names; failing and pending ones keep elapsed time, link and description:

    3 failing, 2 pending, 32 passed, 3 skipped
    failing (3):
      e2e (webkit) · 12m27s · https://github.com/acme/widgets/actions/runs/…/job/… · Process completed with exit code 1.
    pending (2):
      e2e (firefox) · https://github.com/…
    passed (32): Analyze (javascript), Analyze (python), CodeQL, …
    skipped (3): container-scan, helm-lint, sbom
"""

from __future__ import annotations

from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._git_lines import pack

BUCKETS = {"fail": "failing", "pending": "pending", "pass": "passed", "skipping": "skipped", "cancel": "cancelled"}
DETAILED = ("fail", "pending", "cancel")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    rows: dict[str, list[tuple[int, list[str]]]] = {}
    other: list[int] = []
    for i, line in enumerate(lines):
        cells = line.split("\t")
        if len(cells) >= 3 and cells[1] in BUCKETS:
            rows.setdefault(cells[1], []).append((i, cells))
        else:
            other.append(i)
    if not rows:
        return None
    b = Builder(lines, fi.weights)
    for i in other:
        b.keep(i, protect=True)
    for bucket in sorted(rows, key=lambda k: list(BUCKETS).index(k)):
        items = rows[bucket]
        label = BUCKETS[bucket]
        if bucket in DETAILED:
            b.add(f"{label} ({len(items)}):")
            for i, cells in items:
                name, _, elapsed, *rest = cells
                parts = [name] + ([elapsed] if elapsed not in ("", "0") else []) + [c for c in rest if c]
                b.keep(i, protect=True, text="  " + " · ".join(parts))
        else:
            pack(b, f"{label} ({len(items)})", [(i, cells[0]) for i, cells in items])
    counts = {BUCKETS[k]: len(v) for k, v in rows.items()}
    b.headline = ", ".join(f"{counts[BUCKETS[k]]} {BUCKETS[k]}" for k in BUCKETS if k in rows)
    return b.build(final=True, essential=True)
