"""Archive and transfer listings (tar, zip/unzip, rsync): entry counts per directory.

Thousands of `path` / `adding: path (deflated 62%)` / `inflating: path` /
`-rw-r--r-- user/group size date path` / unzip -l rows become one line per directory
(at the shallowest depth that splits them) with its entry count and, when the listing
shows sizes, its total size. The first and last entries stay as samples; rsync's
--progress lines go. Everything else — errors, unzip's header and total line, rsync's
`sent … received …` summary, tar warnings — stays.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

TAR_V_RE = re.compile(r"^[-dlcbpsh][rwxsStT-]{9}\S*\s+\S+\s+(\d+)\s+\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)? (.+)$")
ZIP_RE = re.compile(r"^\s*(?:adding|updating|freshening): (.+?)(?: \((?:deflated|stored|in=)[^)]*\))?$")
UNZIP_RE = re.compile(r"^\s*(?:inflating|extracting|creating|linking|testing|exploding): (.+?)(?:\s+OK)?\s*$")
UNZIP_L_RE = re.compile(r"^\s*(\d+)\s+\d{2,4}-\d\d-\d{2,4} \d\d:\d\d\s+(.+)$")
UNZIP_V_RE = re.compile(
    r"^\s*(\d+)\s+(?:Stored|Defl:\w|Shrunk|Reduce\d|Implode|BZip2|LZMA|\w+)\s+\d+\s+-?\d+%"
    r"\s+\S+ \S+\s+[0-9a-f]{8}\s+(.+)$"
)
PROGRESS_RE = re.compile(r"^\s+[\d,.]+[KMGT]?\s+\d+%\s+\S+/s\s+\d+:\d\d:\d\d")
PLAIN_SKIP_RE = re.compile(
    r"^(?:tar|rsync|zip|unzip|gzip|bzip2|xz|zstd|ssh|scp)(?: \(child\))?:"
    r"|^(?:sending|receiving) incremental file list$"
    r"|^sent [\d,.]+\w? bytes|^total size is |^created directory |^Archive: |^\s|^[A-Z][a-z]+ [a-z]"
    r"|^\*deleting |^deleting "
    r"|^building file list|^delta-transmission|^\S+ error\b|^\w+ warning:"
)
SAMPLE_HEAD = 2
SAMPLE_TAIL = 1
MAX_GROUPS = 40
MIN_ENTRIES = 100
NAME_FILES = 3  # a directory with this few files lists their names


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    style = str(fi.options.get("style", "tar"))
    lines = fi.lines
    entries: dict[int, tuple[str, int | None]] = {}
    progress: set[int] = set()
    for i, ln in enumerate(lines):
        if style == "rsync" and PROGRESS_RE.match(ln):
            progress.add(i)
            continue
        hit = _entry(ln, style)
        if hit is not None:
            entries[i] = hit
    if len(entries) < MIN_ENTRIES:
        return None
    paths = [p for p, _ in entries.values()]
    depth = _depth(paths)
    groups: dict[str, list[int]] = {}
    for i, (path, _size) in entries.items():
        groups.setdefault(_key(path, depth), []).append(i)
    order = sorted(entries)
    samples = set(order[:SAMPLE_HEAD] + order[-SAMPLE_TAIL:])
    summary_at = order[SAMPLE_HEAD] if len(order) > SAMPLE_HEAD else order[0]
    sized = any(s is not None for _, s in entries.values())

    b = Builder(lines, fi.weights)
    for i, ln in enumerate(lines):
        if i == summary_at:
            b.add(f"{len(entries):,} entries in {len(groups)} director{'y' if len(groups) == 1 else 'ies'}:")
            for key, members in sorted(groups.items()):
                files = sum(1 for j in members if not entries[j][0].endswith("/"))
                size = sum(entries[j][1] or 0 for j in members)
                extra = f", {_human(size)}" if sized else ""
                names = [entries[j][0] for j in members if not entries[j][0].endswith("/")]
                if 0 < len(names) <= NAME_FILES:
                    extra += ": " + ", ".join(names)
                b.add(f"  {key}  {files:,} file{'s' if files != 1 else ''}{extra}", protect=True)
        if i in progress:
            b.drop(i, "progress")
        elif i in entries and i not in samples:
            b.drop(i, "entries (counted per directory)")
        elif not ln.strip():
            b.drop(i, "blank")
        else:
            b.keep(i, protect=i not in entries)
    b.facts["entry"] = len(entries)
    return b.build(final=False)


def _entry(ln: str, style: str) -> tuple[str, int | None] | None:
    m = TAR_V_RE.match(ln)
    if m:
        return m.group(2).split(" -> ")[0].split(" link to ")[0], int(m.group(1))
    if style in ("zip", "unzip"):
        for rx in (UNZIP_V_RE, UNZIP_L_RE):
            m = rx.match(ln)
            if m:
                return m.group(2), int(m.group(1))
        m = ZIP_RE.match(ln) or UNZIP_RE.match(ln)
        return (m.group(1).strip(), None) if m else None
    if not ln or PLAIN_SKIP_RE.search(ln) or ": " in ln or len(ln) > 4096:
        return None
    return ln, None


def _depth(paths: list[str]) -> int:
    """The shallowest directory depth that splits the entries into several groups."""
    best = 1
    for d in range(1, 5):
        n = len({_key(p, d) for p in paths})
        if n > MAX_GROUPS:
            break
        best = d
        if n >= 4:
            break
    return best


def _key(path: str, depth: int) -> str:
    parts = path.strip("/").split("/")
    dirs = parts[:-1] if not path.endswith("/") else parts
    if not dirs:
        return "./"
    return "/".join(dirs[:depth]) + "/"


def _human(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"
