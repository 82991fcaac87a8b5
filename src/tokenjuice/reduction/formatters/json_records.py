"""`gh … --json` lists (and any JSON array of objects): one table row per record.

`gh pr list --json number,title,author,labels` prints an array of objects whose keys
repeat in every record. Here the keys are named once in a header, nested objects are
flattened to dotted columns (`author.login`), lists show in brackets and objects
inside them as `{key=value, …}`, and a column whose value is the same
in every record moves to one `same for all:` line. Every value stays; only the JSON
punctuation and the repeated keys go. Anything else (one object, `--jq` scalars, an
error line) goes to the gh-api formatter.
"""

from __future__ import annotations

import json
from typing import Any

from tokenjuice.reduction.formatters import FormatInput, FormatOutput, gh_api
from tokenjuice.reduction.formatters._common import Builder

MIN_RECORDS = 2
# Columns that name a record go first (gh sorts keys alphabetically).
LEAD = ("number", "id", "name", "title", "state", "status")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    records = _records(fi.lines)
    if records is None:
        return gh_api.format(fi)
    rows = [_flatten(r) for r in records]
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    columns.sort(key=lambda c: LEAD.index(c) if c in LEAD else len(LEAD))
    same = {c: rows[0].get(c) for c in columns if all(c in r and r[c] == rows[0][c] for r in rows)}
    shown = [c for c in columns if c not in same]
    b = Builder(fi.lines, fi.weights)
    b.group(list(range(len(fi.lines))), f"{len(rows)} records; columns: {' | '.join(shown)}")
    if same:
        b.add("same for all: " + ", ".join(f"{c}={v}" for c, v in same.items()))
    for row in rows:
        b.add(" | ".join(row.get(c, "-") for c in shown))
    return b.build(final=True, essential=True)


def _records(lines: list[str]) -> list[dict[str, Any]] | None:
    """The records of a JSON array of objects, or of one object per line (NDJSON)."""
    text = "\n".join(lines).strip()
    if not text or text[0] not in "[{":
        return None
    try:
        doc = json.loads(text)
        recs = doc if isinstance(doc, list) else None
    except ValueError:
        try:
            recs = [json.loads(ln) for ln in lines if ln.strip()]
        except ValueError:
            return None
    if not recs or len(recs) < MIN_RECORDS or not all(isinstance(r, dict) for r in recs):
        return None
    return recs


def _flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in obj.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out.update(_flatten(v, f"{key}."))
        else:
            out[key] = _cell(v)
    return out


def _cell(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_cell(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}={_cell(x)}" for k, x in v.items()) + "}"
    if isinstance(v, str):
        return v.replace("\n", "\\n") if v else '""'
    return json.dumps(v)
