"""Shared by the build-tool formatters: compiler diagnostics folded to one line each.

A formatter parses its tool's output into a sequence of items: plain lines (kept or
dropped with a reason), `Diag` records (a header with its location, the detail lines
worth keeping, and the lines folded away) and `Plain` runs (many diagnostics with
nothing kept under them, column by column). `emit` renders them through a `Builder`:

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

import operator
from array import array
from collections import Counter

from tokenjuice import _re as re
from tokenjuice.reduction.formatters._common import Builder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

GROUP_MIN = 3  # identical messages seen this often are listed once with their locations
LOCATIONS_LINE_CHARS = 160
MAX_CHILDREN = 8  # detail lines kept per diagnostic (notes, labels)
MAX_CHARS = 8_000  # beyond this, details give way to grouping (see `emit`)
_DIGITS = re.compile(r"\d+")


class Diag:
    """One diagnostic: header line `idx`, its location and message, and its other lines.

    Dropped lines are only counted (weight per reason, in first-seen order), so a
    diagnostic costs the same memory whatever its snippets: a formatter reading a
    huge build log in batches holds one small record per diagnostic. Details and drop
    counts start as shared empty tuples; most warnings never need more.
    """

    __slots__ = (
        "children",
        "dropped",
        "fold_w",
        "idx",
        "loc",
        "merged",
        "message",
        "prefix",
        "sep",
        "severity",
        "suffix",
        "weights",
    )

    def __init__(self, idx: int, severity: str, message: str, loc: str | None, weights: Sequence[int]) -> None:
        self.idx = idx
        self.severity = severity  # "error", "warning", "note", …
        self.message = message  # as printed, without the location: "error[E0308]: mismatched types"
        self.loc = loc
        self.weights = weights  # of every input line, by index
        self.suffix = ""  # appended to the message, e.g. " [clippy::needless_return]"
        self.prefix = ""  # printed before the location, e.g. maven's "[ERROR] "
        self.sep = ": "  # between location and message
        self.fold_w = 0  # weight of the input lines merged into the header (a `-->` location)
        self.children: tuple[tuple[int, str], ...] = ()  # detail lines kept under the header
        # reason -> weight of the input lines dropped: a dict once `drop` adds to it, or
        # (reason, weight) pairs that a formatter may share between diagnostics.
        self.dropped: dict[str, int] | tuple[tuple[str, int], ...] = ()
        self.merged: tuple[tuple[int, int], ...] = ()  # (child line, input line shown in that child)

    def header(self) -> str:
        text = self.message + self.suffix
        return f"{self.prefix}{self.loc}{self.sep}{text}" if self.loc else self.prefix + text

    def fold(self, i: int) -> None:
        """Input line i now shows in the header (a `-->` location line)."""
        self.fold_w += self.weights[i]

    def child(self, i: int, text: str, *, limit: int = MAX_CHILDREN) -> None:
        """Keep detail line i (as `text`) unless the diagnostic already has enough."""
        if len(self.children) >= limit or any(t == text for _, t in self.children):
            self.drop(i, "notes")
        else:
            self.children = (*self.children, (i, text))

    def set_child(self, k: int, text: str) -> None:
        """Detail k shows `text` from now on."""
        kids = list(self.children)
        kids[k] = (kids[k][0], text)
        self.children = tuple(kids)

    def merge(self, child: int, i: int) -> None:
        """Input line i now shows in detail line `child` (a location appended to it)."""
        self.merged = (*self.merged, (child, i))

    def drop(self, i: int, reason: str) -> None:
        w = self.weights[i]
        if w:  # blank lines weigh nothing and are never reported
            d = self.dropped
            if not isinstance(d, dict):
                d = self.dropped = dict(d)
            d[reason] = d.get(reason, 0) + w

    def drop_counts(self) -> Iterable[tuple[str, int]]:
        d = self.dropped
        return d.items() if isinstance(d, dict) else d

    def drop_details(self, *, clear: bool = True) -> None:
        """Kept details and the lines shown in them become dropped `details` (`clear`:
        forget them too; a grouped diagnostic keeps them for its grouping key)."""
        for j, _ in self.children:
            self.drop(j, "details")
        for _, j in self.merged:
            self.drop(j, "details")
        if clear:
            self.children, self.merged = (), ()


class Kept:
    """A plain line kept as `text`, standing for its own weight plus `extra` merged lines."""

    __slots__ = ("extra", "protect", "text", "weight")

    def __init__(self, text: str, weight: int, extra: int, protect: bool) -> None:
        self.text = text
        self.weight = weight
        self.extra = extra
        self.protect = protect


class Dropped:
    """Consecutive plain lines dropped for one reason (their total weight)."""

    __slots__ = ("reason", "weight")

    def __init__(self, reason: str, weight: int) -> None:
        self.reason = reason
        self.weight = weight


DropCounts = tuple[tuple[str, int], ...]


class Plain:
    """Consecutive warnings with a location and nothing kept under them, column by
    column: a long build log holds thousands, and a `Diag` each would cost more memory
    than the log. Printed like a `Diag` (`loc: message`, no prefix); `pop` gives the last
    one back as a `Diag` when a line after it turns out to belong to it.

    Their text is held as one string per batch (`seal`): message, location and suffix of
    each, newline-separated (none holds a newline, all being parts of lines).
    """

    __slots__ = ("chars", "counts", "folds", "idx", "parts", "text", "weights")

    def __init__(self, weights: Sequence[int]) -> None:
        self.weights = weights  # of every input line, by index (as a Diag's)
        self.idx = array("q")  # header line of each
        self.folds = array("q")  # `Diag.fold_w` of each
        self.counts: list[DropCounts] = []  # `Diag.dropped` of each (shared tuples)
        self.parts: list[str] = []  # message, location, suffix of each not yet sealed
        self.text = ""  # the sealed ones
        self.chars = 0  # what `_size` counts for them

    def __len__(self) -> int:
        return len(self.idx)

    def add(
        self, idx: int, message: str, loc: str, suffix: str, fold_w: int, counts: tuple[tuple[str, int], ...]
    ) -> None:
        self.idx.append(idx)
        self.folds.append(fold_w)
        self.counts.append(counts)
        self.parts += (message, loc, suffix)
        self.chars += len(message) + len(loc) + 3

    def seal(self) -> None:
        """Join the text added since the last seal (the lines it came from can go)."""
        if self.parts:
            if self.text:
                self.parts.insert(0, self.text)
            self.text = "\n".join(self.parts)
            self.parts = []

    def fields(self) -> list[str]:
        """Message, location and suffix of each, in order."""
        return self.text.split("\n") + self.parts if self.text else self.parts

    def diag(self, k: int, message: str, loc: str, suffix: str) -> Diag:
        d = Diag(self.idx[k], "warning", message, loc, self.weights)
        d.suffix = suffix
        d.fold_w = self.folds[k]
        d.dropped = self.counts[k]
        return d

    def pop(self) -> Diag:
        fields = self.fields()
        message, loc, suffix = fields[-3:]
        k = len(self.idx) - 1
        d = self.diag(k, message, loc, suffix)
        del self.idx[k], self.folds[k], self.counts[k]
        self.chars -= len(message) + len(loc) + 3
        if self.parts:
            del self.parts[-3:]
        else:
            self.text = "\n".join(fields[:-3])
        return d


Item = Diag | Kept | Dropped | Plain


class Collector:
    """Items in input order; `emit` renders them. `lines` and `weights` are the
    formatter's input, indexed as the formatter numbers its lines (a batch reader
    passes a list it extends batch by batch)."""

    __slots__ = ("diags", "items", "lines", "weights")

    def __init__(self, lines: Sequence[str], weights: Sequence[int]) -> None:
        self.lines = lines
        self.weights = weights
        self.items: list[Item] = []
        self.diags = 0

    def new(self, idx: int, severity: str, message: str, loc: str | None = None) -> Diag:
        """A diagnostic for header line `idx`, not yet added (see `diag`)."""
        return Diag(idx, severity, message, loc, self.weights)

    def keep(self, i: int, *, protect: bool = False, text: str | None = None, merge: tuple[int, ...] = ()) -> None:
        """Keep line i (as `text`); `merge` lines are represented by it (joined into it)."""
        weights = self.weights
        extra = sum(weights[j] for j in merge) if merge else 0
        self.items.append(Kept(self.lines[i] if text is None else text, weights[i], extra, protect))

    def drop(self, i: int, reason: str) -> None:
        w = self.weights[i]
        if not w:
            return  # blank lines weigh nothing and are never reported
        last = self.items[-1] if self.items else None
        if isinstance(last, Dropped) and last.reason == reason:
            last.weight += w
        else:
            self.items.append(Dropped(reason, w))

    def redrop(self, k: int, reason: str) -> None:
        """Turn item k (a kept plain line) into a dropped one."""
        it = self.items[k]
        assert isinstance(it, Kept)
        self.items[k] = Dropped(reason, it.weight)

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
    if _size(items) > max_chars:
        trimmed = False
        for d in diags:
            if d.children and not is_error(d.severity):
                d.drop_details()
                trimmed = True
        detailed = not trimmed or _size(items) > max_chars
    # Counted first, so that only messages seen `group_min` times get a member list
    # (a long build log holds thousands of distinct ones).
    counts: Counter[str] = Counter()
    for it in items:
        if isinstance(it, Diag):
            if it.loc and (detailed or not it.children):
                counts[_key(it)] += 1
        elif isinstance(it, Plain):
            f = it.fields()
            counts.update(map(operator.add, f[0::3], f[2::3]))
    groups: dict[str, list[Diag]] = {k: [] for k, n in counts.items() if n >= group_min}
    del counts
    if groups:
        for it in items:
            if isinstance(it, Diag):
                if it.loc and (detailed or not it.children):
                    members = groups.get(_key(it))
                    if members is not None:
                        members.append(it)
            elif isinstance(it, Plain):
                f = it.fields()
                for k in range(len(it)):
                    members = groups.get(f[3 * k] + f[3 * k + 2])
                    if members is not None:
                        members.append(it.diag(k, f[3 * k], f[3 * k + 1], f[3 * k + 2]))
    done: set[str] = set()
    for it in items:
        if isinstance(it, Kept):
            b.keep_line(it.text, it.weight, protect=it.protect)
            b.weights[-1] += it.extra
            continue
        if isinstance(it, Dropped):
            b.drop_weight(it.reason, it.weight)
            continue
        if isinstance(it, Plain):
            _emit_plain(b, it, groups, done)
            continue
        # A member's details are kept (not cleared) below, so its key stays the same.
        found = _key(it) if groups and it.loc and (detailed or not it.children) else None
        members = groups.get(found) if found is not None else None
        if found is None or members is None:
            _emit_one(b, it)
        elif found not in done:
            done.add(found)
            _emit_group(b, members)
        # else: accounted for with its group


def _emit_group(b: Builder, members: list[Diag]) -> None:
    """Diagnostics sharing a message, at the first one's place: the message once, then
    every location."""
    first = members[0]
    where = f", first at {first.loc}" if first.children else ""
    text = f"{first.prefix}{first.message}{first.suffix} ({len(members)}×){where}:"
    b.keep_line(text, first.weights[first.idx], protect=True)
    pos = len(b.weights) - 1
    for d in members:
        if d is not first:
            b.weights[pos] += d.weights[d.idx]
            d.drop_details(clear=False)
        b.weights[pos] += d.fold_w
        for reason, w in d.drop_counts():
            b.drop_weight(reason, w)
    _emit_children(b, first)
    chunks = _wrap([d.loc or "" for d in members])
    for k, chunk in enumerate(chunks):
        b.add(("  all: " if first.children and k == 0 else "  ") + chunk, protect=True)


def _emit_plain(b: Builder, run: Plain, groups: dict[str, list[Diag]], done: set[str]) -> None:
    """Each of `run` as `_emit_one` prints a `Diag`, or its group at the first one."""
    f = run.fields()
    weights, folds, counts = run.weights, run.folds, run.counts
    omitted = b.omitted
    for k, idx in enumerate(run.idx):
        message, loc, suffix = f[3 * k], f[3 * k + 1], f[3 * k + 2]
        if groups:
            key = message + suffix
            members = groups.get(key)
            if members is not None:
                if key not in done:
                    done.add(key)
                    _emit_group(b, members)
                continue
        w = weights[idx]
        b.keep_line(f"{loc}: {message}{suffix}", w, protect=True)
        b.weights[-1] = w + folds[k]
        for reason, n in counts[k]:
            if n:
                omitted[reason] = omitted.get(reason, 0) + n


def _emit_one(b: Builder, d: Diag) -> None:
    w = d.weights[d.idx]
    # The header carries the folded location lines' weight, not their repeat count.
    b.keep_line(d.header(), w, protect=True)
    b.weights[-1] = w + d.fold_w
    if d.children:
        _emit_children(b, d)
    omitted = b.omitted
    for reason, n in d.drop_counts():
        if n:
            omitted[reason] = omitted.get(reason, 0) + n


def _emit_children(b: Builder, d: Diag) -> None:
    extra: dict[int, list[int]] = {}
    for child, j in d.merged:
        extra.setdefault(child, []).append(j)
    for j, text in d.children:
        b.keep_line(text, d.weights[j], protect=is_error(d.severity))
        for k in extra.get(j, ()):
            b.weights[-1] += d.weights[k]


def _key(d: Diag) -> str:
    """What makes diagnostics the same: the message and, when kept, the first detail
    (`symbol: method close()`) with its numbers blanked (lines differ, the fact not)."""
    key = d.message + d.suffix
    if d.children:
        key += "\n" + _DIGITS.sub("#", d.children[0][1])
    return key


def _size(items: list[Item]) -> int:
    n = 0
    for it in items:
        if isinstance(it, Diag):
            n += len(it.message) + len(it.loc or "") + 3
            if it.children:
                n += sum(len(t) + 1 for _, t in it.children)
        elif isinstance(it, Plain):
            n += it.chars
        elif isinstance(it, Kept):
            n += len(it.text) + 1
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
