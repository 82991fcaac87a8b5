"""dig: a large record set becomes one header and its values, every value kept.

    pool.example.test. 300 IN A (60 records):
      198.51.100.1 198.51.100.2 198.51.100.3 …

Runs of records with the same owner, TTL, class and type (more than GROUP_MIN of
them) share one header; the values are wrapped at about WRAP characters. Every other
line (header, flags, question, errors, small record sets) passes unchanged.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

RECORD_RE = re.compile(r"^(\S+)\s+(\d+)\s+(IN|CH|HS|CLASS\d+)\s+([A-Z][A-Z0-9]*)\s+(\S.*)$")
GROUP_MIN = 4
WRAP = 160


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    keys: list[tuple[str, str, str, str] | None] = []
    for line in lines:
        m = RECORD_RE.match(line)
        keys.append((m.group(1), m.group(2), m.group(3), m.group(4)) if m else None)
    if not any(keys):
        return None
    b = Builder(lines, fi.weights)
    i = 0
    n = len(lines)
    while i < n:
        key = keys[i]
        j = i + 1
        while key is not None and j < n and keys[j] == key:
            j += 1
        if key is None or j - i < GROUP_MIN:
            for k in range(i, j):
                b.keep(k, protect=key is not None)
            i = j
            continue
        name, ttl, cls, rtype = key
        b.add(f"{name} {ttl} {cls} {rtype} ({j - i} records):", protect=True)
        row: list[str] = []
        row_idx: list[int] = []
        used = 0
        for k in range(i, j):
            value = RECORD_RE.match(lines[k]).group(5)  # type: ignore[union-attr]
            if row and used + len(value) + 1 > WRAP:
                _row(b, row, row_idx)
                row, row_idx, used = [], [], 0
            row.append(value)
            row_idx.append(k)
            used += len(value) + 1
        _row(b, row, row_idx)
        i = j
    return b.build(final=False, essential=True)


def _row(b: Builder, values: list[str], idx: list[int]) -> None:
    b.keep(idx[0], protect=True, text="  " + " ".join(values))
    for k in idx[1:]:
        b.merge_into_last(k)
