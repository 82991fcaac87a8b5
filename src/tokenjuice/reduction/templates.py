"""Template collapse: lines that differ only in numbers, ids, hashes or times fold into one.

`773× WARNING [db] slow query table=orders elapsed=566–3761ms threshold=500ms (lines 12-49876)`
stands for 773 lines of one template: each varying field shows the range of what it
held (the value itself when it never varied), and the raw line range that holds them
all. The line stands where the template first occurred; the other occurrences go,
except the output's last `TAIL` lines, which stay as they are (where a run stopped).

Never folded: error lines (each one matters as it is), lines with a `file:line`
location (each location is a signal of its own), indented lines (they continue a
record: stack frames, source excerpts), blank lines, and templates with fewer than
`MIN_COUNT` lines or one in `SHARE` of all lines.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

from tokenjuice import _re as re
from tokenjuice.reduction import signals

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

MIN_COUNT = 3
SHARE = 200
TAIL = 5
# A varying field: hex literals, hashes and uuids, numbers with their separators
# (times `00:10:49`, versions `1.2.3`, decimals).
_FIELD = re.compile(r"\b(?:0x[0-9a-fA-F]+|[0-9a-fA-F]{8,}(?:-[0-9a-fA-F]{4,12}){0,4})\b|\d+(?:[.:]\d+)*")
_LOCATION = re.compile(signals.LOCATION_PATTERN)
_HOLE = "\x00"


class Collapsed:
    """The lines after folding: `lines`, `kept[i]` (raw line i stays, maybe rewritten),
    the indexes (into `lines`) of folded lines, and how many raw lines went."""

    __slots__ = ("folded", "gone", "kept", "lines")

    def __init__(self, lines: list[str], kept: list[bool], folded: list[int], gone: int) -> None:
        self.lines = lines
        self.kept = kept
        self.folded = folded
        self.gone = gone


def shape(line: str) -> str:
    """The line with every varying field replaced by one placeholder."""
    return _FIELD.sub(_HOLE, line)


def collapse(lines: Sequence[str], *, numbered: bool = True, min_count: int = MIN_COUNT) -> Collapsed | None:
    """Fold `lines` by template; None when no template repeats. `numbered`: the lines
    are the raw output's own (index + 1 is the line number), so each folded line can
    state the raw range of its lines."""
    shapes = list(map(partial(_FIELD.sub, _HOLE), lines))
    counts = Counter(shapes)
    # An indented line continues a record (stack frames, source excerpts): never folded.
    # A template folds when it is frequent: `min_count` lines and one in `SHARE` of them.
    least = max(min_count, len(lines) // SHARE)
    repeated = {s for s, n in counts.items() if n >= least and s.strip() and not s[:1].isspace()}
    if not repeated:
        return None
    where: dict[str, list[int]] = {}
    for i, s in enumerate(shapes):
        if s in repeated:
            where.setdefault(s, []).append(i)
    # The last lines of the output stay as they are (where a run stopped); errors and
    # located lines stay one by one: their shapes are not folded.
    tail = _tail_start(lines)
    for s in list(where):
        idx = where[s]
        while idx and idx[-1] >= tail:
            idx.pop()
        if len(idx) < min_count or _exempt(lines, idx):
            del where[s]
    if not where:
        return None
    out = list(lines)
    kept = [True] * len(lines)
    gone = 0
    for s, idx in where.items():
        out[idx[0]] = _render(s, [lines[i] for i in idx], (idx[0] + 1, idx[-1] + 1) if numbered else None)
        for i in idx[1:]:
            kept[i] = False
        gone += len(idx) - 1
    from itertools import compress

    new = list(compress(out, kept))
    pos = list(compress(range(len(lines)), kept))
    firsts = {idx[0] for idx in where.values()}
    folded = [k for k, i in enumerate(pos) if i in firsts]
    return Collapsed(new, kept, folded, gone)


def _tail_start(lines: Sequence[str]) -> int:
    """Index of the first of the last `TAIL` non-blank lines."""
    seen = 0
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip():
            seen += 1
            if seen == TAIL:
                return i
    return 0


def _exempt(lines: Sequence[str], idx: list[int]) -> bool:
    """Whether a template's lines read as errors or hold locations (judged on its first
    two: they share everything but the fields)."""
    return any(_LOCATION.search(lines[i]) is not None or signals.is_error(lines[i]) for i in idx[:2])


def _render(shape: str, lines: list[str], span: tuple[int, int] | None) -> str:
    """`N× ` and the shape with each hole filled by the range of what it held."""
    cols: list[list[str]] = []
    for line in lines:
        for k, v in enumerate(_FIELD.findall(line)):
            if k == len(cols):
                cols.append([])
            cols[k].append(v)
    parts = shape.split(_HOLE)
    text = [parts[0]]
    for k, rest in enumerate(parts[1:]):
        text.append(_span(cols[k]) if k < len(cols) else "")
        text.append(rest)
    where = ""
    if span is not None:
        where = f" (lines {span[0]}-{span[1]})"
    return f"{len(lines):,}× {''.join(text)}{where}"


def _span(values: list[str]) -> str:
    lo = hi = values[0]
    if all(v.isdigit() for v in values):
        lo = min(values, key=int)
        hi = max(values, key=int)
    elif all(_is_decimal(v) for v in values):
        lo = min(values, key=float)
        hi = max(values, key=float)
    else:
        lo, hi = min(values), max(values)
    return lo if lo == hi else f"{lo}–{hi}"


def _is_decimal(v: str) -> bool:
    head, dot, tail = v.partition(".")
    return bool(dot) and head.isdigit() and tail.isdigit()
