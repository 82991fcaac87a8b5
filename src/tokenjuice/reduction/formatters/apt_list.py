"""apt list (--installed, --upgradable, --all-versions, patterns): every package kept,
one short `name=version` item each instead of a `name/suite,now version arch [flags]`
line, grouped by state (automatically installed dependencies by name only):

    manually installed (42): bc=1.07.1-3+b1 curl=7.88.1-10+deb12u15 …
    automatically installed (600, versions omitted): adduser adwaita-icon-theme …
    upgradable (12): bash 5.2.15-2+b8 → 5.2.15-2+b13, …

Lines of another shape (notes, errors) stay as they are.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._install_common import wrap_items

ENTRY_RE = re.compile(r"^(?P<name>[^/\s]+)/(?P<suites>\S+) (?P<ver>\S+) (?P<arch>\S+)(?: \[(?P<flags>[^\]]+)\])?$")
NOISE_RE = re.compile(r"^WARNING: apt does not have a stable CLI interface|^Listing\.\.\.(?: Done)?$")
UPGRADE_TO_RE = re.compile(r"upgradable to: (\S+)")
UPGRADE_FROM_RE = re.compile(r"upgradable from: (\S+)")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    groups: dict[str, list[str]] = {}
    members: dict[str, list[int]] = {}
    order: list[str] = []
    entries = 0
    for i, line in enumerate(lines):
        if NOISE_RE.match(line) or not line.strip():
            b.drop(i, "headers")
            continue
        m = ENTRY_RE.match(line)
        if not m:
            b.keep(i)
            continue
        entries += 1
        flags = m.group("flags") or ""
        name, ver = m.group("name"), m.group("ver")
        up_from = UPGRADE_FROM_RE.search(flags)
        up_to = UPGRADE_TO_RE.search(flags)
        if up_from:
            group, item = "upgradable", f"{name} {up_from.group(1)} → {ver}"
        elif "installed" in flags.split(","):
            if "automatic" in flags:
                # Dependencies pulled in by apt: the name says they are there; their
                # versions are most of the tokens and rarely the question.
                group, item = "automatically installed, versions omitted", name
            else:
                group = "manually installed"
                item = f"{name}={ver}" + (f" (→ {up_to.group(1)})" if up_to else "")
        elif "residual-config" in flags:
            group, item = "removed, config left", name
        else:
            group, item = "available", f"{name}={ver}"
        if group not in groups:
            groups[group] = []
            members[group] = []
            order.append(group)
        groups[group].append(item)
        members[group].append(i)
    if not entries:
        return None
    # Groups are emitted after any other kept lines, in the order they first appeared.
    for group in order:
        idxs = members[group]
        name, _, note = group.partition(", ")
        head = f"{name} ({len(idxs)}{', ' + note if note else ''}): "
        texts = wrap_items(head, groups[group], sep=", " if group == "upgradable" else " ")
        b.keep(idxs[0], protect=True, text=texts[0])
        for j in idxs[1:]:
            b.merge_into_last(j)
        for t in texts[1:]:
            b.add(t, protect=True)
    return b.build(final=True, essential=True)
