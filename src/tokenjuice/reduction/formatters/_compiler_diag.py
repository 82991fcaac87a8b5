"""Shared by the build-tool formatters: compiler diagnostics folded to one line each.

A formatter parses its tool's output into a sequence of items: plain lines (kept or
dropped with a reason) and `Diag` records (a header with its location, the detail lines
worth keeping, and the lines folded away). `emit` renders them through a `Builder`:

    src/main.rs:5:5: error[E0308]: mismatched types
      line 5: expected `String`, found `i64`
    warning: variable does not need to be mutable (40×):
      src/main.rs:8:9, src/main.rs:10:9, …

Diagnostics without kept details that share a message are listed once with all their
locations (at the first one's place), so nothing is lost but the repetition. When the
text would still be long, warnings drop their details and errors that share a message
and first detail are grouped too, the first keeping its details. Every location and
every message stays in the text.
"""

from __future__ import annotations

import re

from tokenjuice.reduction.formatters._common import Builder

GROUP_MIN = 3  # identical messages seen this often are listed once with their locations
LOCATIONS_LINE_CHARS = 160
MAX_CHILDREN = 8  # detail lines kept per diagnostic (notes, labels)
MAX_CHARS = 8_000  # beyond this, details give way to grouping (see `emit`)
_DIGITS = re.compile(r"\d+")


class Diag:
    """One diagnostic: header line `idx`, its location and message, and its other lines."""

    __slots__ = (
        "children",
        "dropped",
        "folded",
        "idx",
        "loc",
        "merged",
        "message",
        "prefix",
        "sep",
        "severity",
        "suffix",
    )

    def __init__(self, idx: int, severity: str, message: str, loc: str | None = None) -> None:
        self.idx = idx
        self.severity = severity  # "error", "warning", "note", …
        self.message = message  # as printed, without the location: "error[E0308]: mismatched types"
        self.loc = loc
        self.suffix = ""  # appended to the message, e.g. " [clippy::needless_return]"
        self.prefix = ""  # printed before the location, e.g. maven's "[ERROR] "
        self.sep = ": "  # between location and message
        self.folded: list[int] = []  # input lines merged into the header (a `-->` location)
        self.children: list[tuple[int, str]] = []  # detail lines kept under the header
        self.dropped: list[tuple[int, str]] = []  # (input line, reason)
        self.merged: list[tuple[int, int]] = []  # (child line, input line shown in that child)

    def header(self) -> str:
        text = self.message + self.suffix
        return f"{self.prefix}{self.loc}{self.sep}{text}" if self.loc else self.prefix + text

    def child(self, i: int, text: str, *, limit: int = MAX_CHILDREN) -> None:
        """Keep detail line i (as `text`) unless the diagnostic already has enough."""
        if len(self.children) >= limit or any(t == text for _, t in self.children):
            self.dropped.append((i, "notes"))
        else:
            self.children.append((i, text))

    def drop(self, i: int, reason: str) -> None:
        self.dropped.append((i, reason))


# (line, drop reason or None, protect, new text, other input lines the kept line stands for)
Item = Diag | tuple[int, str | None, bool, str | None, tuple[int, ...]]


class Collector:
    """Items in input order; `emit` renders them."""

    __slots__ = ("diags", "items")

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.diags = 0

    def keep(self, i: int, *, protect: bool = False, text: str | None = None, merge: tuple[int, ...] = ()) -> None:
        """Keep line i (as `text`); `merge` lines are represented by it (joined into it)."""
        self.items.append((i, None, protect, text, merge))

    def drop(self, i: int, reason: str) -> None:
        self.items.append((i, reason, False, None, ()))

    def redrop(self, k: int, reason: str) -> None:
        """Turn item k (a kept plain line) into a dropped one."""
        it = self.items[k]
        assert not isinstance(it, Diag)
        self.items[k] = (it[0], reason, False, None, ())

    def diag(self, d: Diag) -> Diag:
        self.items.append(d)
        self.diags += 1
        return d


def emit(b: Builder, items: list[Item], *, group_min: int = GROUP_MIN, max_chars: int = MAX_CHARS) -> None:
    """Render items; diagnostics that share a message are grouped.

    Normally only diagnostics without details are grouped. When the text would exceed
    `max_chars`, warnings lose their details first, then errors sharing a message are
    grouped too, the first one keeping its details (the rest are usually the same).
    """
    diags = [it for it in items if isinstance(it, Diag)]
    detailed = False
    if _size(items, b) > max_chars:
        for d in diags:
            if d.children and not is_error(d.severity):
                d.dropped.extend((j, "details") for j, _ in d.children)
                d.dropped.extend((j, "details") for _, j in d.merged)
                d.children, d.merged = [], []
        detailed = _size(items, b) > max_chars
    groups: dict[str, list[Diag]] = {}
    for d in diags:
        if d.loc and (detailed or not d.children):
            groups.setdefault(_key(d), []).append(d)
    done: set[str] = set()
    for it in items:
        if not isinstance(it, Diag):
            i, reason, protect, text, merge = it
            if reason is None:
                b.keep(i, protect=protect, text=text)
                for j in merge:
                    b.merge_into_last(j)
            else:
                b.drop(i, reason)
            continue
        key = _key(it)
        members = groups.get(key) if it.loc and (detailed or not it.children) else None
        if members is None or len(members) < group_min:
            _emit_one(b, it)
            continue
        if key in done:
            continue  # accounted for with its group
        done.add(key)
        first = members[0]
        where = f", first at {first.loc}" if first.children else ""
        b.keep(first.idx, protect=True, text=f"{first.prefix}{first.message}{first.suffix} ({len(members)}×){where}:")
        pos = len(b.weights) - 1
        for d in members:
            if d is not first:
                b.weights[pos] += b.src_weights[d.idx]
                d.dropped.extend((j, "details") for j, _ in d.children)
                d.dropped.extend((j, "details") for _, j in d.merged)
            for j in d.folded:
                b.weights[pos] += b.src_weights[j]
            for j, reason in d.dropped:
                b.drop(j, reason)
        _emit_children(b, first)
        chunks = _wrap([d.loc or "" for d in members])
        for k, chunk in enumerate(chunks):
            b.add(("  all: " if first.children and k == 0 else "  ") + chunk, protect=True)


def _emit_one(b: Builder, d: Diag) -> None:
    b.keep(d.idx, protect=True, text=d.header())
    for j in d.folded:
        b.merge_into_last(j)
    _emit_children(b, d)
    for j, reason in d.dropped:
        b.drop(j, reason)


def _emit_children(b: Builder, d: Diag) -> None:
    extra: dict[int, list[int]] = {}
    for child, j in d.merged:
        extra.setdefault(child, []).append(j)
    for j, text in d.children:
        b.keep(j, protect=is_error(d.severity), text=text)
        for k in extra.get(j, ()):
            b.merge_into_last(k)


def _key(d: Diag) -> str:
    """What makes diagnostics the same: the message and, when kept, the first detail
    (`symbol: method close()`) with its numbers blanked (lines differ, the fact not)."""
    key = d.message + d.suffix
    if d.children:
        key += "\n" + _DIGITS.sub("#", d.children[0][1])
    return key


def _size(items: list[Item], b: Builder) -> int:
    n = 0
    for it in items:
        if isinstance(it, Diag):
            n += len(it.message) + len(it.loc or "") + 3 + sum(len(t) + 1 for _, t in it.children)
        elif it[1] is None:
            n += len(it[3] if it[3] is not None else b.src_lines[it[0]]) + 1
    return n


def _wrap(locs: list[str]) -> list[str]:
    lines: list[str] = []
    cur: list[str] = []
    width = 0
    for loc in locs:
        if cur and width + len(loc) + 2 > LOCATIONS_LINE_CHARS:
            lines.append(", ".join(cur))
            cur, width = [], 0
        cur.append(loc)
        width += len(loc) + 2
    if cur:
        lines.append(", ".join(cur))
    return lines


def is_error(severity: str) -> bool:
    return severity in ("error", "fatal error", "fatal")
