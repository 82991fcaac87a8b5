"""kubectl get (pods, deployments, events, nodes, jobs, pvc …), helm list and gcloud list tables.

Long tables keep their header and every row that needs attention, re-aligned to the
rows kept: pods not Running-and-ready (CrashLoopBackOff, Pending, Error, OOMKilled,
ImagePullBackOff, Terminating, Init:…), workloads whose ready/available counts fall
short, Warning events, nodes that are not Ready, releases that are not deployed. The
healthy rows fold into one count line per state, broken down by namespace (events: by
reason). Tables with no status-like column, and short tables, pass unchanged.
"""

from __future__ import annotations

from collections.abc import Callable

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._devops_tables import Table, find_tables, realign

OK_STATUS = frozenset(
    {"Running", "Completed", "Succeeded", "Ready", "Bound", "Active", "Complete", "deployed", "Available", "Healthy"}
    # gcloud spells its healthy states in capitals.
    | {"RUNNING", "READY", "ACTIVE", "ENABLED", "SUCCESS", "DONE"}
)
DONE_STATUS = frozenset({"Completed", "Succeeded", "Complete"})
FRACTION_RE = re.compile(r"^(\d+)/(\d+)$")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    # helm pads cells and joins them with tabs: expanded, the columns line up again.
    lines = [ln.expandtabs(8) if "\t" in ln else ln for ln in fi.lines]
    tables = [t for t in find_tables(lines) if _judge(t) is not None]
    max_rows = int(fi.options.get("maxRows", 30))
    if not tables or sum(len(t.rows) for t in tables) <= max_rows:
        return None
    b = Builder(lines, fi.weights)
    owner: dict[int, Table] = {}
    text: dict[int, str] = {}
    verdicts: dict[int, str | None] = {}
    for t in tables:
        judge = _judge(t)
        assert judge is not None
        for r in t.rows:
            owner[r] = t
            verdicts[r] = judge(t, lines[r])
        text.update(realign(t, lines, [r for r in t.rows if verdicts[r] is None]))
    attention = 0
    groups: dict[str, dict[str, int]] = {}
    for i, line in enumerate(lines):
        row_t = owner.get(i)
        if row_t is None:
            b.keep(i, protect=bool(line.strip()), text=text.get(i))
            continue
        verdict = verdicts[i]
        if verdict is None:
            b.keep(i, protect=True, text=text.get(i))
            attention += 1
        else:
            b.drop(i, "healthy rows")
            by = _group_key(row_t, line)
            g = groups.setdefault(verdict, {})
            g[by] = g.get(by, 0) + 1
        if i == row_t.rows[-1]:
            for verdict_name, counts in groups.items():
                total = sum(counts.values())
                if len(counts) == 1 and "" in counts:
                    b.add(f"{verdict_name}: {total:,}")
                else:
                    parts = ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))
                    b.add(f"{verdict_name}: {total:,} ({parts})")
            groups = {}
    b.facts["row"] = sum(len(t.rows) for t in tables)
    if attention:
        b.facts["unhealthy row"] = attention
    return b.build(final=True)


def _judge(t: Table) -> Callable[[Table, str], str | None] | None:
    """A function row -> fold label (healthy) or None (keep), or None when nothing to judge by."""
    status_k = t.col("STATUS")
    ready_k = t.col("READY")
    type_k = t.col("TYPE")
    if type_k is not None and t.col("REASON") is not None:
        return _judge_event
    if status_k is not None and ready_k is not None:
        return _judge_pod
    if ready_k is not None or t.col("DESIRED") is not None or t.col("COMPLETIONS") is not None:
        return _judge_workload
    if status_k is not None:
        return _judge_status
    return None


def _judge_pod(t: Table, line: str) -> str | None:
    status = t.cell(line, t.col("STATUS"))  # type: ignore[arg-type]
    ready = FRACTION_RE.match(t.cell(line, t.col("READY")))  # type: ignore[arg-type]
    if status in DONE_STATUS:
        return status
    if status == "Running" and ready and ready.group(1) == ready.group(2):
        return "Running and ready"
    return None


def _judge_workload(t: Table, line: str) -> str | None:
    for name in ("READY", "COMPLETIONS"):
        k = t.col(name)
        if k is not None:
            m = FRACTION_RE.match(t.cell(line, k))
            if m is None or m.group(1) != m.group(2):
                return None
            want = m.group(2)
            break
    else:
        want = t.cell(line, t.col("DESIRED"))  # type: ignore[arg-type]
    for name in ("CURRENT", "UP-TO-DATE", "AVAILABLE", "READY"):
        k = t.col(name)
        if k is not None:
            v = t.cell(line, k)
            if v.isdigit() and v != want:
                return None
    k = t.col("STATUS")
    if k is not None and t.cell(line, k) not in OK_STATUS:
        return None
    return "fully available"


def _judge_event(t: Table, line: str) -> str | None:
    if t.cell(line, t.col("TYPE")) != "Normal":  # type: ignore[arg-type]
        return None
    return "Normal events"


def _judge_status(t: Table, line: str) -> str | None:
    status = t.cell(line, t.col("STATUS"))  # type: ignore[arg-type]
    return status if status in OK_STATUS else None


def _group_key(t: Table, line: str) -> str:
    if t.col("TYPE") is not None and t.col("REASON") is not None:
        return t.cell(line, t.col("REASON"))  # type: ignore[arg-type]
    k = t.col("NAMESPACE")
    return t.cell(line, k) if k is not None else ""
