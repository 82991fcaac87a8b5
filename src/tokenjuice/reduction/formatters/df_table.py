"""df: real filesystems and anything nearly full; pseudo filesystems counted, not listed.

The header and every row of a short table stay. A long one (a host with many tmpfs,
overlay and snap loop mounts) keeps the rows of block devices and network shares, and
every row at or above FULL percent use (read-only squashfs images are always 100% and
do not count); the rest become one line with their types. Near-full filesystems are
named on the facts line first.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

HEADER_RE = re.compile(r"^Filesystem\s+(?:Type\s+)?(?:Size|\d*[KMG]?-?blocks|1[kK]-blocks|Inodes)\b")
PCT_RE = re.compile(r"\s(\d{1,3})%\s+(/\S*(?: \S+)*)$")
PSEUDO_RE = re.compile(
    r"^(?:tmpfs|devtmpfs|udev|none|shm|overlay|cgroup2?|proc|sysfs|efivarfs|devpts|mqueue|hugetlbfs|"
    r"securityfs|pstore|bpf|tracefs|debugfs|configfs|fusectl|ramfs|nsfs|autofs|squashfs|portal|"
    r"/dev/loop\d+)\b"
)
READ_ONLY_IMAGE_RE = re.compile(r"^/dev/loop\d+\b|\bsquashfs\b|^\S+\s+squashfs\s")
FULL = 85
SMALL = 12


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines or not any(HEADER_RE.match(ln) for ln in lines[:3]):
        return None
    b = Builder(lines, fi.weights)
    full_at = fi.options.get("full", FULL)
    rows = [i for i, ln in enumerate(lines) if not HEADER_RE.match(ln) and ln.strip()]
    small = len(rows) <= fi.options.get("small", SMALL)
    near_full: list[str] = []
    dropped: dict[str, int] = {}
    for i, line in enumerate(lines):
        if HEADER_RE.match(line):
            b.keep(i)
            continue
        if not line.strip():
            b.drop(i, "blank")
            continue
        m = PCT_RE.search(line)
        pct = int(m.group(1)) if m else -1
        # the pattern's `\b` makes `re` try every position: searched only where it can match
        image = ("squashfs" in line or line.startswith("/dev/loop")) and bool(READ_ONLY_IMAGE_RE.search(line))
        if pct >= full_at and not image and m:
            near_full.append(f"{m.group(2)} {pct}%")
            b.keep(i, protect=True)
        elif small or not PSEUDO_RE.match(line):
            b.keep(i)
        else:
            kind = line.split(None, 1)[0]
            kind = "loop (snap/squashfs)" if kind.startswith("/dev/loop") else kind
            dropped[kind] = dropped.get(kind, 0) + fi.weights[i]
            b.drop(i, "pseudo filesystems")
    if dropped:
        parts = ", ".join(f"{n} {kind}" for kind, n in sorted(dropped.items(), key=lambda kv: -kv[1]))
        b.add(f"… {sum(dropped.values())} pseudo/read-only filesystems not listed ({parts})")
    if near_full:
        b.headline = f"{len(near_full)} filesystem{'s' if len(near_full) != 1 else ''} ≥ {full_at}% full: " + ", ".join(
            near_full
        )
    return b.build(final=True)
