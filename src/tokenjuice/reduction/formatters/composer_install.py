"""composer install / update / require / remove: package operations folded, nothing lost.

Runs of `  - Installing vendor/pkg (1.2.0): Extracting archive` lines become one wrapped
list per operation (`  - Installing (30): acme/a (1.0.0), acme/b (1.1.0), …`); the
`Locking` lines of an update are dropped when the same packages are installed below
(the `Lock file operations` count stays), `Downloading` lines go. Every other line
(problems, exceptions, warnings, notes) is left to the rule's filters.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._install_common import wrap_items

OP_RE = re.compile(
    r"^\s+- (Locking|Installing|Updating|Upgrading|Downgrading|Removing|Downloading) (\S+) \(([^)]+)\)(?::.*)?$"
)
APPLIED = frozenset({"Installing", "Updating", "Upgrading", "Downgrading", "Removing"})
FOLD_MIN = 4  # shorter runs stay one line per package


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    ops: list[tuple[str, str, str] | None] = []
    applied: set[str] = set()
    for line in lines:
        m = OP_RE.match(line)
        if m:
            ops.append((m.group(1), m.group(2), m.group(3)))
            if m.group(1) in APPLIED:
                applied.add(m.group(2))
        else:
            ops.append(None)
    if not any(ops):
        return None
    b = Builder(lines, fi.weights)
    i = 0
    n = len(lines)
    while i < n:
        op = ops[i]
        if op is None:
            b.keep(i)
            i += 1
            continue
        verb, name, _ = op
        if verb == "Downloading":
            b.drop(i, "downloads")
            i += 1
            continue
        if verb == "Locking" and name in applied:
            b.drop(i, "locking (installed below)")
            i += 1
            continue
        j = i
        while (
            j < n and (nxt := ops[j]) is not None and nxt[0] == verb and not (verb == "Locking" and nxt[1] in applied)
        ):
            j += 1
        if j - i < FOLD_MIN:
            for k in range(i, j):
                b.keep(k, protect=True)
        else:
            items = [f"{o[1]} ({o[2]})" for o in ops[i:j] if o is not None]
            texts = wrap_items(f"  - {verb} ({j - i}): ", items, sep=", ", width=160)
            b.keep(i, protect=True, text=texts[0])
            for k in range(i + 1, j):
                b.merge_into_last(k)
            for t in texts[1:]:
                b.add(t, protect=True)
        i = j
    return b.build(final=False)
