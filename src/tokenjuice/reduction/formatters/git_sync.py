"""git fetch / pull / push / clone: what moved, what was refused, what broke.

Transfer progress (`Counting/Compressing/Receiving/Resolving/Writing objects`, `remote:
Total …`) goes; the final Receiving/Writing line becomes "received 434 objects,
309.52 KiB". Ref updates keep one line each (padding collapsed) except the long runs of
new branches/tags, which are grouped, every name kept:

    From file:///srv/central
    db4947a..997c0c3 main -> origin/main
    new branches (237) -> origin/…: chore/auth-2266, chore/auth-4571, …
    ! [rejected] main -> main (fetch first)

`hint:` paragraphs shrink to their first sentence; error/fatal/CONFLICT lines always
stay. A pull's merge part keeps "Updating a..b", "Fast-forward", the per-file stat
(bars trimmed to counts) and the summary; "Auto-merging" lines go (the CONFLICT lines
name the paths that matter). `branch 'x' set up to track 'origin/x'` lines are grouped.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._git_lines import Outcome, pack

PROGRESS_RE = re.compile(
    r"^(?:remote: +)?(?:Enumerating objects|Counting objects|Compressing objects|Receiving objects|"
    r"Resolving deltas|Writing objects|Unpacking objects|Total \d+|Delta compression|Checking out files|"
    r"Updating files|Filtering content|Checking connectivity|Finding sources|Indexing objects|"
    r"POST git-|Auto packing|Counting distinct|Dropping )"
)
TRANSFER_RE = re.compile(r"^(Receiving|Writing|Unpacking) objects: 100% \((\d+)/\d+\)(?:, ([\d.]+ \w+))?")
REF_RE = re.compile(
    r"^ ([ +\-t*!=]) (\[[^\]]+\]|[0-9a-f]{4,}\.\.\.?[0-9a-f]{4,})\s+(\S+)\s+->\s+(\S+)(?:\s+\((.+)\))?$"
)
TRACK_RE = re.compile(r"^branch '([^']+)' set up to track '([^']+)'\.?$")
GROUPABLE = {
    "[new branch]": "new branches",
    "[new tag]": "new tags",
    "[new ref]": "new refs",
    "[up to date]": "up to date",
}
FACTS = {"[new branch]": "new branch", "[new tag]": "new tag", "[new ref]": "new ref", "[up to date]": "unchanged ref"}
GROUP_MIN = 4


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    b = Builder(lines, fi.weights)
    # First pass: which ref lines join a group (emitted where its first member was).
    groups: dict[str, list[tuple[int, str, str]]] = {}
    tracking: list[tuple[int, str]] = []
    member: dict[int, str] = {}
    for i, line in enumerate(lines):
        m = REF_RE.match(line)
        if m and m.group(2) in GROUPABLE and not m.group(5):
            groups.setdefault(m.group(2), []).append((i, m.group(3), m.group(4)))
            member[i] = m.group(2)
        elif (tr := TRACK_RE.match(line)) is not None:
            tracking.append((i, tr.group(1)))
            member[i] = "tracking"
    out = Outcome(b, lines)
    for i, line in enumerate(lines):
        if i in member:
            key = member[i]
            items = tracking if key == "tracking" else groups[key]
            if items[0][0] == i:
                if key == "tracking":
                    _emit_tracking(b, tracking, groups.get("[new branch]", []))
                else:
                    _emit_group(b, GROUPABLE[key], groups[key])
            continue
        t = TRANSFER_RE.match(line)
        if t:
            verb = "received" if t.group(1) != "Writing" else "sent"
            size = f", {t.group(3)}" if t.group(3) else ""
            b.keep(i, text=f"{verb} {t.group(2)} objects{size}")
            continue
        if PROGRESS_RE.match(line) or line.strip() in ("remote:", "done."):
            b.drop(i, "progress")
            continue
        m = REF_RE.match(line)
        if m:
            flag, summary, src, dst, reason = m.groups()
            text = " ".join(x for x in (flag.strip(), summary, src, "->", dst, f"({reason})" if reason else "") if x)
            b.keep(i, protect=True, text=text)
            continue
        # A pull's merge part, hints, errors: shared with the merge formatter.
        if not out.feed(i, line):
            b.keep(i, protect=line.startswith(("To ", "From ")))
    for key, items in groups.items():
        b.facts[FACTS[key]] = len(items)
    return b.build(final=True, essential=True)


def _emit_tracking(b: Builder, tracking: list[tuple[int, str]], pushed: list[tuple[int, str, str]]) -> None:
    """`branch 'x' set up to track 'origin/x'` lines: said once when they name exactly
    the branches the push just created (listed above), else listed."""
    names = {n for _, n in tracking}
    if len(pushed) >= GROUP_MIN and names == {src for _, src, _ in pushed}:
        b.keep(tracking[0][0], text=f"tracking set up for each of the {len(tracking)} new branches")
        for i, _ in tracking[1:]:
            b.merge_into_last(i)
    else:
        pack(b, f"tracking set up for ({len(tracking)})", tracking)


def _emit_group(b: Builder, label: str, items: list[tuple[int, str, str]]) -> None:
    if len(items) < GROUP_MIN:
        for i, src, dst in items:
            b.keep(i, protect=True, text=f"{label}: {src} -> {dst}")
        return
    # Say the destination once when every ref maps to <prefix><same name>.
    prefixes = {dst[: len(dst) - len(src)] if dst.endswith(src) else None for _, src, dst in items}
    if len(prefixes) == 1 and None not in prefixes:
        prefix = prefixes.pop() or ""
        head = f"{label} ({len(items)})" + (f" -> {prefix}…" if prefix else "")
        pack(b, head, [(i, src) for i, src, _ in items])
    else:
        for i, src, dst in items:
            b.keep(i, protect=True, text=f"{label}: {src} -> {dst}")
