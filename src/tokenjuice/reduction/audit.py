"""The engine's audit of every text: which raw lines it shows, and what it leaves out.

Whatever a rule or formatter produced, the engine aligns its body with the raw output,
numbered as `tokenjuice cat ID --lines A-B` numbers it: split on `\\n`, from 1, blank
lines included. A body line shows a raw line when it is that line as the reducer
cleans it (escapes stripped, redraws collapsed, trailing space removed), maybe with a
`(×N)` count standing for N equal lines in a row. A line shortened in the middle stands
for its raw line without showing it whole; any other line is the rule's own text.

From the alignment come: the raw lines the text does not show, as ranges (blank lines
next to them included), each omission marker rewritten to state the exact ranges it
stands for (a marker that stands for nothing is removed), and whether the text is
lossy. The alignment is monotone and greedy (each line at the first fit after the
previous one), so a text that keeps raw lines in order is read exactly as it was made.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from tokenjuice import _re as re
from tokenjuice.reduction import normalize as nz
from tokenjuice.reduction.window import shorten

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

# `… 1,918 lines omitted …`, `… 12 captured lines omitted …`, `  … 40 lines of build output omitted …`
_MARKER = r"^(\s*)… ([\d,]+) ((?:[\w.-]+ )*lines?(?: [\w.-]+)*) omitted(?: \([^()]*\))? …$"
_REPEAT = r" \(×([\d,]+)\)$"
_SHORTENED = " …["
# Ranges a marker or the footer lists before it only counts the rest.
MAX_LISTED_RANGES = 4


def count_lines(text: str) -> int:
    """Lines as `tokenjuice cat` numbers them: a last line without `\\n` counts."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def raw_keys(raw: str) -> list[str]:
    """Each raw line as the reducer shows it (one entry per raw line)."""
    if not raw:
        return []
    lines = raw.split("\n")
    if lines[-1] == "":
        lines.pop()
    cleaned = nz.normalize(raw)
    keys = cleaned.split("\n")
    if keys and keys[-1] == "" and raw.endswith("\n"):
        keys.pop()
    if len(keys) != len(lines):
        # A cursor redraw moved lines: clean each raw line on its own.
        keys = [nz.normalize(ln) for ln in lines]
    return list(map(str.rstrip, keys))


class Audit:
    """What a body shows of the raw output (see the module docstring)."""

    __slots__ = ("blank", "body", "partial", "ranges", "total", "uncovered")

    def __init__(self, body: list[str], ranges: list[tuple[int, int]], total: int, partial: int) -> None:
        self.body = body  # markers rewritten with their exact ranges
        self.ranges = ranges  # raw lines not shown, 1-based and inclusive, in order
        self.total = total  # raw lines
        self.partial = partial  # raw lines shown only shortened
        self.blank = 0  # blank lines among the omitted ones
        self.uncovered: list[tuple[int, int]] = []  # ranges no marker states (the footer lists them)

    @property
    def omitted(self) -> int:
        return sum(b - a + 1 for a, b in self.ranges)

    @property
    def lossy(self) -> bool:
        return bool(self.ranges)


def audit(
    raw: str,
    body: Sequence[str],
    max_line: int,
    *,
    numbers: Sequence[int] | None = None,
    total: int | None = None,
) -> Audit:
    """Align `body` with `raw`. `numbers`, when `raw` is only a sample of a larger
    output, gives each sample line's number in the whole (`total` lines)."""
    plain, wanted = _parse(body)
    n, status, at, short = _scan(raw, wanted, max_line, any(_SHORTENED in t[0] for t in plain if t is not None))
    anchors = _align(plain, at, short, status)
    partial = sum(1 for a in anchors if a is not None and a[2])
    spans = _spans(status)
    if numbers is None:
        ranges = [(a + 1, b + 1) for a, b in spans]
        total = n
    else:
        ranges = _sample_ranges(spans, numbers, total if total is not None else n)
        total = total if total is not None else n

    def pos(i: int) -> int:  # a sample position as a raw line number (1-based)
        return i + 1 if numbers is None else numbers[i]

    out: list[str] = []
    covered: list[tuple[int, int]] = []
    prev_end = 0
    last_number = total
    next_start = _next_starts(anchors, pos, last_number + 1)
    for j, line in enumerate(body):
        a = anchors[j]
        if a is not None:
            prev_end = pos(a[1])
            out.append(line)
            continue
        m = re.match(_MARKER, line) if "omitted" in line else None
        if m is None:
            out.append(line)
            continue
        inside = _clip(ranges, prev_end + 1, next_start[j] - 1)
        if not inside or (covered and covered[-1] == inside[-1]):
            # It stands for no raw line, or for the same lines as the marker before it
            # (no raw line shown in between): a false or repeated marker goes.
            continue
        covered.extend(inside)
        out.append(_marker(m.group(1), m.group(3), inside))
    res = Audit(out, ranges, total, partial)
    res.uncovered = _minus(ranges, covered)
    if numbers is None:
        res.blank = sum(status.count(2, a, b + 1) for a, b in spans)
    return res


# The raw output is read in slices of about this many characters: the audit holds one
# slice's lines at a time, not a list of every line.
SCAN_CHARS = 16 * 1024


def _scan(
    raw: str, wanted: dict[str, int], max_line: int, shortened: bool
) -> tuple[int, bytearray, dict[str, list[int]], dict[str, list[int]]]:
    """Read the raw output once: its line count, a status byte per line (2 blank, else
    0), where each wanted line occurs, and (`shortened`) where each long line occurs
    under its shortened form."""
    status = bytearray()
    at: dict[str, list[int]] = {}
    short: dict[str, list[int]] = {}
    pos, n = 0, 0
    while pos < len(raw):
        end = raw.find("\n", pos + SCAN_CHARS)
        end = len(raw) if end < 0 else end + 1
        keys = raw_keys(raw[pos:end])
        pos = end
        first = len(status)
        status += bytes(len(keys))
        i = -1
        try:
            while True:
                i = keys.index("", i + 1)  # a C-level scan to each blank line
                status[first + i] = 2
        except ValueError:
            pass
        for i in _where(keys, wanted):
            at.setdefault(keys[i], []).append(first + i)
        if shortened:
            for i, key in enumerate(keys):
                if len(key) > max_line:
                    sk = shorten(key, max_line)
                    if sk in wanted:
                        short.setdefault(sk, []).append(first + i)
        n += len(keys)
    return n, status, at, short


def _spans(status: bytearray) -> list[tuple[int, int]]:
    """(first, last) indexes of each run of unshown lines with the blank lines around
    it, up to the shown lines on either side."""
    spans: list[tuple[int, int]] = []
    i = status.find(0)
    while i >= 0:
        start = status.rfind(1, 0, i) + 1
        j = status.find(1, i)
        if j < 0:
            j = len(status)
        spans.append((start, j - 1))
        i = status.find(0, j)
    return spans


def _parse(body: Sequence[str]) -> tuple[list[tuple[str, int] | None], dict[str, int]]:
    """Each body line as the raw line it may show, with its `(×N)` count (None: blank),
    and the set of those lines."""
    wanted: dict[str, int] = {}
    plain: list[tuple[str, int] | None] = []
    for line in body:
        text, rep = line, 1
        if line.endswith(")") and "(×" in line:
            m = re.search(_REPEAT, line)
            if m is not None:
                text, rep = line[: m.start()], int(m.group(1).replace(",", ""))
        text = text.rstrip()
        if "\x1b" in text:  # a rule that keeps escapes (file reads)
            text = nz.normalize(text).rstrip()
        if not text:
            plain.append(None)
            continue
        plain.append((text, rep))
        wanted[text] = 1
    return plain, wanted


def _align(
    plain: list[tuple[str, int] | None],
    at: dict[str, list[int]],
    short: dict[str, list[int]],
    status: bytearray,
) -> list[tuple[int, int, bool] | None]:
    """Per body line, the raw lines it shows ((first, last, shortened) or None); each
    raw line shown whole gets status 1."""
    anchors: list[tuple[int, int, bool] | None] = [None] * len(plain)
    last = -1
    for j, item in enumerate(plain):
        if item is None:
            continue
        text, rep = item
        cut = False
        lst = at.get(text)
        if lst is None:
            lst = short.get(text)
            cut = True
            if lst is None:
                continue
        k = bisect_right(lst, last)
        if k >= len(lst):
            continue
        first = p = lst[k]
        r = 1
        while r < rep and k + r < len(lst) and lst[k + r] == p + 1:
            p += 1
            r += 1
        anchors[j] = (first, p, cut)
        if not cut:
            status[first : p + 1] = b"\x01" * (p + 1 - first)
        last = p
    return anchors


def _where(keys: list[str], wanted: dict[str, int]) -> list[int]:
    """Indexes of the keys that are in `wanted` (C-level membership tests)."""
    from itertools import compress, count

    return list(compress(count(), map(wanted.__contains__, keys)))


def _next_starts(anchors: list[tuple[int, int, bool] | None], pos: Callable[[int], int], end: int) -> list[int]:
    """For each body line, the raw number of the next anchored line after it (or `end`)."""
    out = [end] * len(anchors)
    nxt = end
    for j in range(len(anchors) - 1, -1, -1):
        out[j] = nxt
        a = anchors[j]
        if a is not None:
            nxt = pos(a[0])
    return out


def _sample_ranges(spans: list[tuple[int, int]], numbers: Sequence[int], total: int) -> list[tuple[int, int]]:
    """Unshown ranges of a whole output of which only a sample was aligned: the lines
    between sample lines, and the sample's own unshown spans."""
    out = [(numbers[a], numbers[b]) for a, b in spans]
    prev = 0
    for num in numbers:
        if num > prev + 1:
            out.append((prev + 1, num - 1))
        prev = num
    if total > prev:
        out.append((prev + 1, total))
    out.sort()
    merged: list[tuple[int, int]] = []
    for a, b in out:
        if merged and a <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _clip(ranges: list[tuple[int, int]], lo: int, hi: int) -> list[tuple[int, int]]:
    if hi < lo or not ranges:
        return []
    k = bisect_left(ranges, (lo, lo))
    if k > 0 and ranges[k - 1][1] >= lo:
        k -= 1
    out: list[tuple[int, int]] = []
    while k < len(ranges) and ranges[k][0] <= hi:
        a, b = ranges[k]
        out.append((max(a, lo), min(b, hi)))
        k += 1
    return out


def _minus(ranges: list[tuple[int, int]], covered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of `ranges` no covered range holds (both sorted, covered within ranges)."""
    if not covered:
        return list(ranges)
    cov = sorted(covered)
    out: list[tuple[int, int]] = []
    k = 0
    for a, b in ranges:
        cur = a
        while k < len(cov) and cov[k][1] < a:
            k += 1
        j = k
        while j < len(cov) and cov[j][0] <= b:
            if cov[j][0] > cur:
                out.append((cur, cov[j][0] - 1))
            cur = max(cur, cov[j][1] + 1)
            j += 1
        if cur <= b:
            out.append((cur, b))
    return out


def describe(ranges: list[tuple[int, int]], limit: int = MAX_LISTED_RANGES) -> str:
    """`lines 12-40, lines 52-60`: each range spelt out whole (`lines 7-7` for one line),
    so any reader of `lines A-B` finds every one; past `limit` ranges the span they lie in."""
    if not ranges:
        return ""
    if len(ranges) > limit:
        return f"lines {ranges[0][0]}-{ranges[-1][1]} in {len(ranges):,} ranges"
    return ", ".join(f"lines {a}-{b}" for a, b in ranges)


def _marker(indent: str, label: str, ranges: list[tuple[int, int]]) -> str:
    n = sum(b - a + 1 for a, b in ranges)
    words = label.split(" ")
    # `lines` agrees with the count: `1 line`, `3 captured lines`
    words = [("line" if n == 1 else "lines") if w in ("line", "lines") else w for w in words]
    return f"{indent}… {n:,} {' '.join(words)} omitted ({describe(ranges)}) …"
