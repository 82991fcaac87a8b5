"""Archive and transfer listings (tar, zip/unzip, rsync): entry counts per directory.

Thousands of `path` / `adding: path (deflated 62%)` / `inflating: path` /
`-rw-r--r-- user/group size date path` / unzip -l rows become one line per directory
(at the shallowest depth that splits them) with its entry count and, when the listing
shows sizes, its total size. The first and last entries stay as samples; rsync's
--progress lines go. Everything else — errors, unzip's header and total line, rsync's
`sent … received …` summary, tar warnings — stays.
"""

from __future__ import annotations

import operator
from itertools import compress

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder, lazy_end

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

TAR_V_RE = re.compile(r"^[-dlcbpsh][rwxsStT-]{9}\S*\s+\S+\s+(\d+)\s+\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)? (.+)$")
# What `_zip_name` reads (a test holds it to this): its lazy name tried the note after
# every character.
ZIP_RE = re.compile(r"^\s*(?:adding|updating|freshening): (.+?)(?: \((?:deflated|stored|in=)[^)]*\))?$")
ZIP_HEAD_RE = re.compile(r"^\s*(?:adding|updating|freshening): (?=.)")
ZIP_NOTE_RE = re.compile(r" \((?:deflated|stored|in=)[^)]*\)$")
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
    weights = fi.weights
    progress: list[int] = []
    rest = list(range(len(lines)))
    if style == "rsync":
        progress, _, rest = _split(PROGRESS_RE.match, lines, rest)
    entries = _entries(lines, rest, style)
    if len(entries) < MIN_ENTRIES:
        return None
    # Each entry's directories, worked out once; entries in the same directory share a
    # group at every depth, so the depth is chosen on the distinct directories.
    by_dir: dict[tuple[str, ...], list[int]] = {}
    for i, (path, _size) in entries.items():
        by_dir.setdefault(_dirs(path), []).append(i)
    depth = _depth(list(by_dir))
    merged: dict[tuple[str, ...], list[int]] = {}
    for dirs, members in by_dir.items():
        merged.setdefault(dirs[:depth], []).extend(members)
    groups = {_key(dirs): sorted(members) if len(merged) < len(by_dir) else members for dirs, members in merged.items()}
    order = list(entries)  # line order
    summary_at = order[SAMPLE_HEAD] if len(order) > SAMPLE_HEAD else order[0]
    sized = any(s is not None for _, s in entries.values())

    b = Builder(lines, weights)
    # Progress lines and the entries counted per directory are dropped wholesale; only
    # the other lines (headers, errors, summaries, the samples) are looked at one by one.
    # The entries between the samples (at least MIN_ENTRIES entries: the two never overlap).
    counted = order[SAMPLE_HEAD:-SAMPLE_TAIL]
    dropped = [(progress, "progress"), (counted, "entries (counted per directory)")]
    gone = set(progress).union(counted)
    firsts: list[tuple[int, str, int]] = []
    for idx, reason in dropped:
        w = sum(map(weights.__getitem__, idx))
        if w:
            firsts.append((next(i for i in idx if weights[i]), reason, w))
    blank_first = -1
    blank_w = 0
    for i in sorted(set(range(len(lines))).difference(gone) | {summary_at}):
        if i == summary_at:
            b.add(f"{len(entries):,} entries in {len(groups)} director{'y' if len(groups) == 1 else 'ies'}:")
            for key, members in sorted(groups.items()):
                names = [entries[j][0] for j in members if not entries[j][0].endswith("/")]
                files = len(names)
                size = sum(entries[j][1] or 0 for j in members)
                extra = f", {_human(size)}" if sized else ""
                if 0 < files <= NAME_FILES:
                    extra += ": " + ", ".join(names)
                b.add(f"  {key}  {files:,} file{'s' if files != 1 else ''}{extra}", protect=True)
            if i in gone:
                continue
        ln = lines[i]
        if not ln.strip():
            if weights[i] and blank_first < 0:
                blank_first = i
            blank_w += weights[i]
        else:
            b.keep(i, protect=i not in entries)
    if blank_w:
        firsts.append((blank_first, "blank", blank_w))
    for _, reason, w in sorted(firsts):
        b.drop_weight(reason, w)  # in the order the reasons first occur, as line by line
    b.facts["entry"] = len(entries)
    return b.build(final=False)


def _split(
    test: Callable[[str], re.Match[str] | None], lines: list[str], idx: list[int]
) -> tuple[list[int], list[re.Match[str]], list[int]]:
    """The indices whose line `test` matches with the matches, and the other indices
    (C-level passes, no Python step per line)."""
    got = list(map(test, map(lines.__getitem__, idx)))
    return list(compress(idx, got)), list(filter(None, got)), list(compress(idx, map(operator.not_, got)))


def _entries(lines: list[str], idx: list[int], style: str) -> dict[int, tuple[str, int | None]]:
    """The entry (path, size if shown) on each of the lines `idx` that lists one, in line
    order. Each line form is tried on the lines no earlier form took, in one pass each."""
    tar, ms, idx = _split(TAR_V_RE.match, lines, idx)
    found: dict[int, tuple[str, int | None]] = {
        i: (_link_source(m.group(2)), int(m.group(1))) for i, m in zip(tar, ms, strict=True)
    }
    if style in ("zip", "unzip"):
        for rx in (UNZIP_V_RE, UNZIP_L_RE):
            hit, ms, idx = _split(rx.match, lines, idx)
            found.update({i: (m.group(2), int(m.group(1))) for i, m in zip(hit, ms, strict=True)})
        hit, ms, idx = _split(ZIP_HEAD_RE.match, lines, idx)
        found.update({i: (_zip_name(m).strip(), None) for i, m in zip(hit, ms, strict=True)})
        hit, ms, idx = _split(UNZIP_RE.match, lines, idx)
        found.update({i: (m.group(1).strip(), None) for i, m in zip(hit, ms, strict=True)})
    else:
        for i in idx:
            ln = lines[i]
            if ln and ": " not in ln and len(ln) <= 4096 and not PLAIN_SKIP_RE.search(ln):
                found[i] = ln, None
    return dict(sorted(found.items())) if len(found) > len(tar) else found


def _zip_name(head: re.Match[str]) -> str:
    """The name on a `zip` line whose start `head` matched, without its note."""
    return head.string[head.end() : lazy_end(head, ZIP_NOTE_RE)]


def _link_source(name: str) -> str:
    """A tar -v name without its `-> target` / `link to target`."""
    return name.partition(" -> ")[0].partition(" link to ")[0]


def _dirs(path: str) -> tuple[str, ...]:
    """The directories an entry is in (all of its parts for a directory entry)."""
    parts = path.strip("/").split("/")
    return tuple(parts if path.endswith("/") else parts[:-1])


def _depth(dirs: list[tuple[str, ...]]) -> int:
    """The shallowest directory depth that splits the entries into several groups."""
    best = 1
    for d in range(1, 5):
        n = len({x[:d] for x in dirs})
        if n > MAX_GROUPS:
            break
        best = d
        if n >= 4:
            break
    return best


def _key(dirs: tuple[str, ...]) -> str:
    return "/".join(dirs) + "/" if dirs else "./"


def _human(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"
