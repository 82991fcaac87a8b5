"""Shared pieces of the lint/format-checker formatters (ruff, mypy, eslint, …).

`Findings` records a formatter's decisions in output order and renders them through a
`Builder`. Findings that carry a grouping key (the message without its location) are
folded when the same message comes back at several places: the first occurrence stays
where it was and is followed by `… same at N more: a.py:18, b.py:3, …` lines that name
every other location, so no location is lost and the message is paid for once.

`DiffFolder` reduces the unified diffs of `black --diff`, `isort --diff` and
`ruff format --diff`: file headers without timestamps, hunk headers and every changed
line stay, context lines go.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatOutput
from tokenjuice.reduction.formatters._common import Builder

FOLD_MIN = 3  # a message seen this many times is listed once with its locations
LOCS_LINE_CHARS = 160  # location lists wrap at about this width

_KEEP = 0
_FINDING = 1
_ADD = 2
_DROP = 3
_CONTEXT = 4


class Findings:
    """Ordered keep/drop/finding decisions, rendered with repeat folding by `build`."""

    __slots__ = ("_ops", "facts", "headline", "headline_weight", "lines", "weights")

    def __init__(self, lines: list[str], weights: list[int]) -> None:
        self.lines = lines
        self.weights = weights
        # (kind, index, text, protect, key, loc, extra indices represented)
        self._ops: list[tuple[int, int, str | None, bool, str | None, str | None, tuple[int, ...]]] = []
        self.facts: dict[str, int] = {}
        self.headline: str | None = None
        self.headline_weight = 0

    def keep(self, i: int, *, protect: bool = False, text: str | None = None, extra: tuple[int, ...] = ()) -> None:
        """Keep input line i (as `text`); `extra` are input lines it also stands for."""
        self._ops.append((_KEEP, i, text, protect, None, None, extra))

    def add(self, text: str, *, protect: bool = False) -> None:
        self._ops.append((_ADD, -1, text, protect, None, None, ()))

    def drop(self, i: int, reason: str) -> None:
        self._ops.append((_DROP, i, reason, False, None, None, ()))

    def context(self, i: int) -> None:
        """A line that only introduces the findings after it (mypy's `In function "f":`).

        It is shown before the next finding that is shown; when every finding it
        introduces was folded into an earlier message's location list, it goes."""
        self._ops.append((_CONTEXT, i, None, False, None, None, ()))

    def finding(
        self,
        i: int,
        text: str,
        *,
        loc: str | None = None,
        key: str | None = None,
        extra: tuple[int, ...] = (),
    ) -> None:
        """A finding line (always protected); `extra` are input lines it stands for
        (a folded block's arrow line); `key`/`loc` allow repeat folding."""
        if key is not None:
            key = " ".join(key.split())  # wrapped and unwrapped forms of one message match
        self._ops.append((_FINDING, i, text, True, key, loc, extra))

    def last_finding_extra(self, i: int) -> bool:
        """Count input line i as part of the last finding (e.g. a wrapped message line)."""
        for k in range(len(self._ops) - 1, -1, -1):
            op = self._ops[k]
            if op[0] == _FINDING:
                self._ops[k] = (*op[:6], (*op[6], i))
                return True
        return False

    def n_findings(self) -> int:
        return sum(1 for op in self._ops if op[0] == _FINDING)

    def build(self, *, fold_min: int = FOLD_MIN, final: bool = True) -> FormatOutput:
        b = Builder(self.lines, self.weights)
        counts: dict[str, int] = {}
        for op in self._ops:
            if op[0] == _FINDING and op[4] is not None and op[5] is not None:
                counts[op[4]] = counts.get(op[4], 0) + 1
        # For each folded key: the later occurrences (their loc and represented lines).
        later: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
        first_seen: set[str] = set()
        for op in self._ops:
            key = op[4]
            if op[0] == _FINDING and key is not None and counts.get(key, 0) >= fold_min:
                if key in first_seen:
                    later.setdefault(key, []).append((op[5] or "", (op[1], *op[6])))
                else:
                    first_seen.add(key)
        emitted: set[str] = set()
        pending: int | None = None  # a context line waiting for its first shown finding
        for kind, i, text, protect, key, _loc, extra in self._ops:
            if kind == _CONTEXT:
                if pending is not None:
                    b.drop(pending, "error context")
                pending = i
                continue
            if kind == _KEEP:
                b.keep(i, protect=protect, text=text)
                for j in extra:
                    b.merge_into_last(j)
            elif kind == _ADD:
                b.add(text or "", protect=protect)
            elif kind == _DROP:
                b.drop(i, text or "dropped")
            else:
                folded = key is not None and key in later
                if folded and key in emitted:
                    continue  # listed under the first occurrence
                if pending is not None:
                    b.keep(pending, protect=True)
                    pending = None
                b.keep(i, protect=True, text=text)
                for j in extra:
                    b.merge_into_last(j)
                if folded and key is not None:
                    emitted.add(key)
                    _emit_locations(b, later[key])
        if pending is not None:
            b.drop(pending, "error context")
        b.facts.update(self.facts)
        b.headline = self.headline
        b.headline_weight = self.headline_weight
        # Every finding is the point of a lint run (like every changed line of a diff):
        # a long list of them may use far more of the budget than ordinary signal lines.
        return b.build(final=final, essential=True)


def _emit_locations(b: Builder, rest: list[tuple[str, tuple[int, ...]]]) -> None:
    """`… same at N more: loc, loc, …` lines carrying the weight of what they list."""
    chunks: list[list[tuple[str, tuple[int, ...]]]] = [[]]
    width = 0
    for item in rest:
        if chunks[-1] and width + len(item[0]) + 2 > LOCS_LINE_CHARS:
            chunks.append([])
            width = 0
        chunks[-1].append(item)
        width += len(item[0]) + 2
    for n, chunk in enumerate(chunks):
        head = f"  … same at {len(rest)} more: " if n == 0 else "    "
        b.add(head + ", ".join(loc for loc, _ in chunk), protect=True)
        for _loc, idx in chunk:
            for j in idx:
                b.merge_into_last(j)


# ------------------------------------------------------------------ unified diffs

# What `_header_path` reads (a test holds it to these); the lazy path tried both optional
# parts after every character of the line.
DIFF_OLD_RE = re.compile(r"^--- (\S.*?)(?::before)?(?:\t.*)?$")
DIFF_NEW_RE = re.compile(r"^\+\+\+ (\S.*?)(?::after)?(?:\t.*)?$")


def _header_path(line: str, mark: str, label: str) -> str | None:
    """The path of a diff header line (`--- a/x.py\t2024-…`, ruff's `+++ x.py:after`):
    what follows `mark` up to the first tab (or the end of the line), less a `label`
    right before that; None when `line` is no such header."""
    if not line.startswith(mark) or len(line) == len(mark) or line[len(mark)].isspace():
        return None
    start = len(mark)
    end = line.find("\t", start)
    end = len(line) if end < 0 else end
    if end - len(label) > start and line.startswith(label, end - len(label)):
        end -= len(label)
    return line[start:end]


def old_path(line: str) -> str | None:
    return _header_path(line, "--- ", ":before")


def new_path(line: str) -> str | None:
    return _header_path(line, "+++ ", ":after")


HUNK_RE = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")


class DiffFolder:
    """Feeds lines of a unified diff; keeps headers (no timestamps), hunks, changes.

    `feed(i)` returns False when line i is not part of a diff (the caller decides).
    """

    __slots__ = ("added", "files", "in_hunk", "lines", "out", "paired", "removed")

    def __init__(self, out: Findings | Builder, lines: list[str]) -> None:
        self.out = out
        self.lines = lines
        self.in_hunk = False
        self.files = 0
        self.added = 0
        self.removed = 0
        # The `+++` line already matched as the partner of the `---` line before it: the
        # test for a `+++` line is on the same two lines, so it is not run again.
        self.paired = -1

    def feed(self, i: int) -> bool:
        line = self.lines[i]
        # Each header pattern starts with its own literal: most lines need no regex.
        if line.startswith("--- "):
            nxt = self.lines[i + 1] if i + 1 < len(self.lines) else ""
            path = old_path(line)
            if path is not None and new_path(nxt) is not None:
                self.paired = i + 1
                self.in_hunk = False
                self.files += 1
                self.out.keep(i, protect=True, text=f"--- {path}")
                return True
        elif line.startswith("+++ "):
            if i == self.paired or (new_path(line) is not None and i > 0 and old_path(self.lines[i - 1]) is not None):
                self.out.drop(i, "diff headers")
                return True
        elif line.startswith("@@ ") and HUNK_RE.match(line):
            self.in_hunk = True
            self.out.keep(i, protect=True)
            return True
        if not self.in_hunk:
            return False
        if line.startswith("+"):
            self.added += 1
            self.out.keep(i, protect=True)
            return True
        if line.startswith("-"):
            self.removed += 1
            self.out.keep(i, protect=True)
            return True
        if line.startswith((" ", "\\ No newline")) or line == "":
            self.out.drop(i, "diff context")
            return True
        self.in_hunk = False
        return False


def looks_like_diff(lines: list[str]) -> bool:
    return any(HUNK_RE.match(line) for line in lines) and any(old_path(line) is not None for line in lines)
