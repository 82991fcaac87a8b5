"""Large JSON from cloud CLIs (aws, az, gcloud --format=json): one row per record.

A describe/list call returns a few big arrays of objects (Reservations[].Instances[],
Roles[], a top-level list of VMs). When the JSON is large (over `minChars`), each such
array becomes a table of its records with the fields that identify them and say their
state (names, ids, state/status, type, addresses, zone, time), picked from the
record's scalar fields, one level of nesting (`State.Name`) and `Tags`/`tags` (the Name
tag). Fields equal in every record move to one `same for all:` line; the other keys
are named so the agent can ask for them with `--query`. Scalars outside the arrays
(NextToken, counts) stay. Small or non-JSON output passes unchanged.
"""

from __future__ import annotations

import json
from typing import Any

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

# Field names in order of how much they say about a record.
_RANKS = [
    re.compile(p)
    for p in (
        r"(?i)^(?:name|displayName|tag:Name)$|^(?!.*Dns)\w+Name$",
        r"(?i)^(?:id|.+Id)$",
        r"(?i)(?:state|status|health|ready)(?:\.(?:Name|name))?$",
        r"(?i)(?:type|size|sku|tier)$",
        r"(?i)(?:ipaddress|privateip|publicip|\bip\b)",
        r"(?i)(?:zone|region|location)",
        r"(?i)(?:dnsname|endpoint|hostname|url|fqdn|address)",
        r"(?i)(?:time|date|created|updated)",
    )
]
_MAX_CELL = 60


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    text = "\n".join(lines)
    if len(text) < int(fi.options.get("minChars", 4000)):
        return None
    start = text.lstrip()[:1]
    if start not in ("{", "["):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    max_fields = int(fi.options.get("maxFields", 6))
    groups: list[tuple[str, list[dict[str, Any]]]] = []
    scalars: list[str] = []
    _collect(data, "", groups, scalars)
    groups = [(p, recs) for p, recs in groups if recs]
    if not groups:
        return None
    b = Builder(lines, fi.weights)
    for path, records in groups:
        _render(b, path, records, max_fields)
    for s in scalars:
        b.add(s)
    b.add("(JSON reduced to key fields; use --query / --format to select others)", protect=True)
    total = sum(fi.weights)
    if len(b.lines) >= total:
        return None
    # Each summary line stands for one line of the JSON; the rest is accounted as dropped.
    b.weights = [1] * len(b.lines)
    b.omitted["json"] = total - len(b.lines)
    b.facts["record"] = sum(len(r) for _, r in groups)
    return b.build(final=True)


def _collect(node: Any, path: str, groups: list[tuple[str, list[dict[str, Any]]]], scalars: list[str]) -> None:
    """Arrays of records become groups; scalars outside them are listed; wrappers are walked."""
    if isinstance(node, list):
        dicts = [x for x in node if isinstance(x, dict)]
        if dicts and len(dicts) == len(node):
            # A wrapper list (Reservations) whose records hold the real array (Instances).
            inner = _inner_array(dicts)
            if inner is not None:
                merged: list[dict[str, Any]] = []
                for d in dicts:
                    merged.extend(x for x in d.get(inner, []) if isinstance(x, dict))
                groups.append((f"{path}[].{inner}[]", merged))
                return
            groups.append((f"{path}[]" if path else "[]", dicts))
        elif node:
            scalars.append(f"{path or '[]'}: {len(node)} items: " + _clip(json.dumps(node[:20])))
        return
    if isinstance(node, dict):
        for k, v in node.items():
            sub = f"{path}.{k}" if path else k
            if isinstance(v, (dict, list)):
                _collect(v, sub, groups, scalars)
            else:
                scalars.append(f"{sub}: {_clip(json.dumps(v))}")
        return
    scalars.append(f"{path or 'value'}: {_clip(json.dumps(node))}")


def _inner_array(dicts: list[dict[str, Any]]) -> str | None:
    """The one key holding a non-empty list of objects in (nearly) every record, if the
    records are otherwise small wrappers."""
    candidates: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                candidates[k] = candidates.get(k, 0) + len(v)
    if len(candidates) != 1:
        return None
    key = next(iter(candidates))
    wrapper_keys = max(len(d) for d in dicts)
    return key if wrapper_keys <= 6 else None


def _flat(rec: dict[str, Any]) -> dict[str, str]:
    """Scalar fields, one level of nested scalars, and the Name tag."""
    out: dict[str, str] = {}
    for k, v in rec.items():
        if isinstance(v, dict):
            if k.lower() == "tags":
                for tk, tv in v.items():
                    if isinstance(tv, (str, int, float)) and tk.lower() == "name":
                        out["tag:Name"] = str(tv)
                continue
            for k2, v2 in v.items():
                if isinstance(v2, (str, int, float, bool)):
                    out[f"{k}.{k2}"] = _scalar(v2)
                elif k2 == "conditions" and isinstance(v2, list):
                    for c in v2:
                        if isinstance(c, dict) and c.get("type") in ("Ready", "Available"):
                            out[f"{k}.{c['type']}"] = _scalar(c.get("status"))
        elif isinstance(v, list):
            if k.lower() == "conditions":
                # Kubernetes-style status: the Ready/Available condition says it all.
                for c in v:
                    if isinstance(c, dict) and c.get("type") in ("Ready", "Available"):
                        out[f"{k}.{c['type']}"] = _scalar(c.get("status"))
            if k.lower() == "tags":
                for t in v:
                    if isinstance(t, dict) and str(t.get("Key", t.get("key", ""))).lower() == "name":
                        out["tag:Name"] = str(t.get("Value", t.get("value", "")))
        elif v is not None and v != "":
            out[k] = _scalar(v)
    return out


def _scalar(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _rank(name: str) -> int:
    last = name.rsplit(".", 1)[-1]
    if last != name and last.endswith("Name") and last.lower() not in ("name", "displayname"):
        return len(_RANKS) - 1  # nested `computerName`, `latestReadyRevisionName`: rarely the identity
    for r, rx in enumerate(_RANKS):
        if rx.search(last):
            return r
    return len(_RANKS)


def _render(b: Builder, path: str, records: list[dict[str, Any]], max_fields: int) -> None:
    flat = [_flat(r) for r in records]
    seen: dict[str, int] = {}
    for f in flat:
        for k in f:
            seen[k] = seen.get(k, 0) + 1
    common = {k: flat[0][k] for k in seen if seen[k] == len(flat) and len({f.get(k) for f in flat}) == 1}
    if len(flat) == 1:
        common = {}
    # `State.Code` says what `State.Name` says.
    redundant = {k for k in seen if k.endswith((".Code", ".code")) and k.rsplit(".", 1)[0] + ".Name" in seen}
    varying = [
        k
        for k in seen
        if k not in common and k not in redundant and seen[k] * 2 >= len(flat) and _rank(k) < len(_RANKS)
    ]
    # Long values (Azure resource ids, ARNs) cost a lot per row: they come last.
    longest = {k: max(len(f.get(k, "")) for f in flat) for k in varying}
    varying.sort(key=lambda k: (_rank(k) + (len(_RANKS) if longest[k] > 70 else 0), list(seen).index(k)))
    fields = varying[:max_fields]
    if not fields:
        fields = [k for k in seen if k not in common][:max_fields]
    all_keys = list(dict.fromkeys(k for r in records for k in r))
    b.add(f"{path}: {len(records):,} records", protect=True)
    if common:
        shown = [f"{k}={_clip(v)}" for k, v in common.items() if _rank(k) < len(_RANKS)][:8]
        if shown:
            b.add("same for all: " + ", ".join(shown), protect=True)
    rows = [[_clip(f.get(k, "-"), _MAX_CELL) for k in fields] for f in flat]
    widths = [max(len(k), *(len(r[c]) for r in rows)) for c, k in enumerate(fields)]
    b.add("  ".join(k.ljust(w) for k, w in zip(fields, widths, strict=True)).rstrip(), protect=True)
    for row in rows:
        b.add("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip(), protect=True)
    other = [k for k in all_keys if k not in {f.split(".", 1)[0] for f in fields} and k not in common]
    if other:
        more = f", … {len(other) - 40} more" if len(other) > 40 else ""
        b.add(f"other keys: {', '.join(other[:40])}{more}", protect=True)


def _clip(s: str, n: int = 120) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"
