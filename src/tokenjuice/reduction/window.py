"""Choosing which lines stay: head/tail windows, protected lines, budgets, markers.

`Collector` receives lines one at a time (in order) and keeps only what the window can
possibly show: the first `head` lines, a bounded tail, and protected lines (failure
diagnostics, lines a rule or formatter marks as signal), the first and last of them
when they are too many. Everything else is folded into the gap before the next kept
line, so memory stays bounded however long the output is. `finish()` trims the kept
lines to the character budget — unprotected lines first, most central first; protected
lines only far over budget — and renders the body with one marker per gap.
"""

from __future__ import annotations

from collections import deque
from itertools import compress, repeat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

DEFAULT_MAX_CHARS = 12_000
# No text's body exceeds the budget times this factor, however many signal lines it
# has (the engine cuts it, and states the ranges cut), unless its rule states a larger
# `maxFactor` (file reads). Protected and essential lines both may use all of it.
MAX_FACTOR = 4
PROTECTED_FACTOR = MAX_FACTOR
ESSENTIAL_FACTOR = MAX_FACTOR
DEFAULT_MAX_LINE_CHARS = 2_000
# What a marker costs, with the raw range the engine adds: `… 1,234 lines omitted (lines 12345-13578) …`.
MARKER_COST = 44
_COMPACT_EVERY = 4096


class Budget:
    """Size limits for the text the model sees.

    `max_chars` bounds the body; `max_tokens`, when given, is converted to characters
    with the estimator's ratio for this output. `max_line_chars` shortens single huge
    lines (minified bundles, base64) in the middle.
    """

    __slots__ = ("max_chars", "max_line_chars", "max_tokens")

    def __init__(
        self,
        max_chars: int | None = None,
        max_tokens: int | None = None,
        max_line_chars: int | None = None,
    ) -> None:
        self.max_chars = max_chars if max_chars and max_chars > 0 else DEFAULT_MAX_CHARS
        self.max_tokens = max_tokens if max_tokens and max_tokens > 0 else None
        self.max_line_chars = max_line_chars if max_line_chars and max_line_chars > 0 else DEFAULT_MAX_LINE_CHARS

    def chars(self, chars_per_token: float = 4.0) -> int:
        limit = self.max_chars
        if self.max_tokens is not None:
            limit = min(limit, int(self.max_tokens * chars_per_token))
        return max(limit, 200)


def shorten(line: str, max_line: int) -> str:
    if len(line) <= max_line:
        return line
    head = max_line * 2 // 3
    tail = max_line - head
    cut = len(line) - head - tail
    return f"{line[:head]} …[{cut:,} chars]… {line[-tail:]}"


def marker(count: int) -> str:
    return f"… {count:,} line{'s' if count != 1 else ''} omitted …"


class _Entry:
    __slots__ = ("alive", "gap", "index", "protected", "text", "weight")

    def __init__(self, text: str, weight: int, protected: bool, index: int, gap: int) -> None:
        self.text = text
        self.weight = weight
        self.protected = protected
        self.index = index
        self.gap = gap  # raw lines omitted just before this line
        self.alive = True


class Collector:
    """Bounded, order-preserving selection of lines for the window.

    `head`/`tail` are line counts; `head_chars`/`tail_chars` optionally bound them by
    size as well (the generic capped path). `protected_chars` bounds how much protected
    text is held while collecting (the first half and the most recent half are kept).
    (A formatter's final output, every line of which is kept until the budget is
    fitted, goes to `finish_all` instead.)
    """

    def __init__(
        self,
        head: int,
        tail: int,
        *,
        head_chars: int | None = None,
        tail_chars: int | None = None,
        protected_chars: int | None = None,
    ) -> None:
        self.head = head
        self.tail = tail
        self.head_chars = head_chars
        self.tail_chars = tail_chars
        self.protected_chars = protected_chars
        self.entries: list[_Entry] = []
        self.pending_gap = 0
        self.count = 0  # lines seen
        self.total_weight = 0
        self._head_n = 0
        self._head_used = 0
        self._tail: deque[_Entry] = deque()
        self._tail_used = 0
        self._prot_first_used = 0
        self._urgent_used = 0  # error lines held apart from the protected cap
        self._prot_last: deque[_Entry] = deque()
        self._prot_last_used = 0
        self._dead = 0

    # ----------------------------------------------------------------- collect

    def add(
        self, text: str, weight: int, protected: bool = False, *, head_ok: bool = True, urgent: bool = False
    ) -> None:
        index = self.count
        self.count += 1
        self.total_weight += weight
        size = len(text) + 1
        if (
            head_ok
            and self._head_n < self.head
            and (self.head_chars is None or self._head_used + size <= self.head_chars)
        ):
            self._head_n += 1
            self._head_used += size
            self._append(text, weight, protected, index)
            return
        if head_ok and self._head_n < self.head:
            self._head_n = self.head  # the head's character budget is spent
        e = self._append(text, weight, protected, index)
        if urgent and self._take_urgent(size):
            pass  # an error line: held whatever the other signal lines use
        elif protected:
            cap = self.protected_chars
            if cap is None or self._prot_first_used + size <= cap // 2:
                self._prot_first_used += size
            else:
                self._prot_last.append(e)
                self._prot_last_used += size
                while self._prot_last and self._prot_last_used > cap - cap // 2:
                    old = self._prot_last.popleft()
                    self._prot_last_used -= len(old.text) + 1
                    self._kill(old)
        # The tail window counts every line; leaving it only drops unprotected ones.
        self._tail.append(e)
        self._tail_used += size
        while self._tail and (
            len(self._tail) > self.tail or (self.tail_chars is not None and self._tail_used > self.tail_chars)
        ):
            old = self._tail.popleft()
            self._tail_used -= len(old.text) + 1
            if not old.protected:
                self._kill(old)

    def add_batch(
        self,
        texts: list[str],
        weights: list[int],
        protected: set[int] | None = None,
        *,
        head_ok: bool = True,
        urgent: set[int] | None = None,
    ) -> None:
        """Add many lines at once.

        Only lines that can still be shown are added one by one: the rest of the head,
        protected lines, and the lines that will make up the tail; everything in between
        is folded into a gap with a C-level sum, so a long output costs little Python.
        `urgent` lines (errors, among the protected ones) are held apart from the
        protected cap, up to a cap of their own, so other signal lines never push them out.
        """
        n = len(texts)
        urg = urgent or set()
        prot = (protected or set()) | urg
        i = 0
        if head_ok:
            while i < n and self._head_n < self.head:
                self.add(texts[i], weights[i], i in prot, urgent=i in urg)
                i += 1
        if i >= n:
            for j in range(i, n):
                self.add(texts[j], weights[j], j in prot, head_ok=head_ok, urgent=j in urg)
            return
        # Lines from `cut` on may stay in the tail; earlier ones only if protected.
        cut = max(i, n - self.tail)
        if self.tail_chars is not None:
            used = 0
            j = n
            while j > cut and used + len(texts[j - 1]) + 1 <= self.tail_chars:
                used += len(texts[j - 1]) + 1
                j -= 1
            cut = j
        if cut > i:
            # A line before `cut` does not fit the tail with the lines after it, so no
            # line the tail holds from earlier batches does either: one by one, these
            # lines would have pushed them all out.
            while self._tail:
                old = self._tail.popleft()
                self._tail_used -= len(old.text) + 1
                if not old.protected:
                    self._kill(old)
        middle = sorted(p for p in prot if i <= p < cut)
        held = {p for p in middle if p in urg and self._take_urgent(len(texts[p]) + 1)}
        others = self._surviving([p for p in middle if p not in held], texts)
        for j in sorted(held.union(others)):
            if j > i:
                w = sum(weights[i:j])
                self.pending_gap += w
                self.total_weight += w
                self.count += j - i
            if j in held:
                self.count += 1
                self.total_weight += weights[j]
                self._append(texts[j], weights[j], True, self.count - 1)
            else:
                self._add_protected_only(texts[j], weights[j])
            i = j + 1
        self.pending_gap += sum(weights[i:cut])
        self.count += cut - i
        self.total_weight += sum(weights[i:cut])
        for j in range(cut, n):
            self.add(texts[j], weights[j], j in prot, head_ok=head_ok, urgent=j in urg)

    def _surviving(self, idx: list[int], texts: list[str]) -> list[int]:
        """Of protected lines `idx` that the tail will have passed, those that
        `_add_protected_only`, line by line, would leave alive: all that fit the older
        half of the protected budget, then the latest that fit the recent half. The
        others are only counted (a failing run can have thousands of such lines).
        Recent-half lines from earlier batches go now if a line of this one would have
        pushed them out."""
        cap = self.protected_chars
        if cap is None or not idx:
            return idx
        half = cap // 2
        first_used = self._prot_first_used
        alive: list[bool] = []
        later: list[int] = []  # positions in idx bound for the recent half
        for k, j in enumerate(idx):
            size = len(texts[j]) + 1
            if first_used + size <= half:
                first_used += size
                alive.append(True)
            else:
                alive.append(False)
                later.append(k)
        room = cap - half
        s = len(later)
        while s and len(texts[idx[later[s - 1]]]) + 1 <= room:
            room -= len(texts[idx[later[s - 1]]]) + 1
            s -= 1
        for k in later[s:]:
            alive[k] = True
        if s:
            while self._prot_last:
                old = self._prot_last.popleft()
                self._prot_last_used -= len(old.text) + 1
                self._kill(old)
        return list(compress(idx, alive))

    def _take_urgent(self, size: int) -> bool:
        """Room for one more error line in its own cap (the protected cap, again)."""
        cap = self.protected_chars
        if cap is not None and self._urgent_used + size > cap:
            return False
        self._urgent_used += size
        return True

    def _add_protected_only(self, text: str, weight: int) -> None:
        """A protected line that the tail window will have passed by the batch's end."""
        index = self.count
        self.count += 1
        self.total_weight += weight
        e = self._append(text, weight, True, index)
        size = len(text) + 1
        cap = self.protected_chars
        if cap is None or self._prot_first_used + size <= cap // 2:
            self._prot_first_used += size
            return
        self._prot_last.append(e)
        self._prot_last_used += size
        while self._prot_last and self._prot_last_used > cap - cap // 2:
            old = self._prot_last.popleft()
            self._prot_last_used -= len(old.text) + 1
            self._kill(old)

    def skip(self, weight: int) -> None:
        """A line that is not shown at all (counted in the gap before the next kept line)."""
        self.count += 1
        self.total_weight += weight
        self.pending_gap += weight

    def _append(self, text: str, weight: int, protected: bool, index: int) -> _Entry:
        e = _Entry(text, weight, protected, index, self.pending_gap)
        self.pending_gap = 0
        self.entries.append(e)
        return e

    def _kill(self, e: _Entry) -> None:
        if e.alive:
            e.alive = False
            self._dead += 1
            if self._dead >= _COMPACT_EVERY and self._dead > len(self.entries) // 2:
                self._compact()

    def _compact(self) -> None:
        """Drop dead entries, folding their lines into the next live entry's gap."""
        carry = 0
        live: list[_Entry] = []
        for e in self.entries:
            if e.alive:
                e.gap += carry
                carry = 0
                live.append(e)
            else:
                carry += e.gap + e.weight
        self.entries = live
        self.pending_gap += carry
        self._dead = 0

    def reset_windows(self) -> None:
        """Start the head/tail windows afresh over the entries still held."""
        self.entries = [e for e in self.entries if e.alive]
        self._dead = 0
        self._head_n = min(len(self.entries), self.head)
        self._head_used = sum(len(e.text) + 1 for e in self.entries)
        self._tail.clear()
        self._tail_used = 0
        self._prot_first_used = sum(len(e.text) + 1 for e in self.entries if e.protected)
        self._prot_last.clear()
        self._prot_last_used = 0

    # ------------------------------------------------------------------ finish

    def finish(
        self,
        limit: int,
        max_line: int,
        *,
        tail_bias: bool,
        protected_factor: int,
        show_repeats: bool = True,
        markers: bool = False,
    ) -> tuple[list[str], int, int, int]:
        """Fit the budget and render: (body, raw lines omitted, lines shortened, raw lines
        kept). `markers`: the markers' cost counts against the signal allowance too."""
        self._compact()
        self._fit(limit, max_line, tail_bias, protected_factor, markers)
        self._compact()
        shown = ((e.gap, e.text, e.weight) for e in self.entries)
        return _render(shown, self.pending_gap, max_line, show_repeats)

    def _fit(self, limit: int, max_line: int, tail_bias: bool, protected_factor: int, markers: bool) -> None:
        entries = self.entries
        cost = sum(min(len(e.text), max_line) + 1 for e in entries)
        if cost <= limit:
            return
        n = max(self.count, 1)

        def centrality(e: _Entry) -> int:
            return _centrality(e.index, n, tail_bias)

        unprot = sorted((e for e in entries if not e.protected), key=centrality)
        gaps = 0
        for e in unprot:
            if cost + gaps * MARKER_COST <= limit:
                break
            e.alive = False
            cost -= min(len(e.text), max_line) + 1
            gaps = min(gaps + 1, 64)
        hard = limit * protected_factor
        # With `markers`, what the markers cost counts against the hard limit too: runs of
        # dropped lines, and gaps the collector folded while collecting.
        gap_at = [e.gap > 0 for e in entries] + [self.pending_gap > 0]
        gaps = _marker_count([e.alive for e in entries], gap_at) if markers else 0
        if cost + gaps * MARKER_COST > hard:
            # Errors go last: warnings and locations never crowd them out.
            is_error = _error_test()
            prot = sorted(
                (e for e in entries if e.protected and e.alive), key=lambda e: (is_error(e.text), centrality(e))
            )
            at = {id(e): k for k, e in enumerate(entries)}
            for e in prot:
                if cost + gaps * MARKER_COST <= hard:
                    break
                e.alive = False
                cost -= min(len(e.text), max_line) + 1
                if markers:
                    k = at[id(e)]
                    left = (k > 0 and not entries[k - 1].alive) or gap_at[k]
                    right = (not entries[k + 1].alive or gap_at[k + 1]) if k + 1 < len(entries) else gap_at[k + 1]
                    gaps += 1 - left - right


def _marker_count(alive: list[bool], gap_at: list[bool]) -> int:
    """Markers a body will have: one before each line kept after a dropped run or a
    folded gap (`gap_at[k]`), and one at the end (`gap_at[-1]`: the gap after the last)."""
    count, dropped = 0, False
    for a, g in zip(alive, gap_at, strict=False):
        if a:
            count += dropped or g
            dropped = False
        else:
            dropped = True
    return count + (dropped or gap_at[-1])


def _error_test() -> Callable[[str], bool]:
    """`signals.is_error`, imported when a budget first has to drop signal lines."""
    from tokenjuice.reduction.signals import is_error

    return is_error


def _centrality(i: int, n: int, tail_bias: bool) -> int:
    """Sort key: the line furthest from both ends first (a failing run keeps twice as
    much of its tail, so there the head counts double)."""
    from_head = 2 * i if tail_bias else i
    return -min(from_head, n - 1 - i)


def finish_all(
    texts: list[str],
    weights: list[int],
    protected: list[bool] | None,
    limit: int,
    max_line: int,
    *,
    tail_bias: bool,
    protected_factor: int,
    show_repeats: bool = True,
) -> tuple[list[str], int, int, int]:
    """Every line kept, then fitted to the budget and rendered: what a `Collector` that
    holds all of them gives from `finish`, without an entry per line (a formatter's
    final output can be thousands of lines, most of which fit)."""
    n = len(texts)
    long_lines = max(map(len, texts), default=0) > max_line
    cost = sum(min(len(t), max_line) for t in texts) if long_lines else sum(map(len, texts))
    cost += n
    alive: list[bool] | None = None
    if cost > limit:
        alive = [True] * n
        prot = protected if protected is not None else [False] * n
        gaps = 0
        for i in _central_first(n, tail_bias):
            if cost + gaps * MARKER_COST <= limit:
                break
            if not prot[i]:
                alive[i] = False
                cost -= min(len(texts[i]), max_line) + 1
                gaps = min(gaps + 1, 64)
        hard = limit * protected_factor
        if cost > hard:
            # Errors go last: warnings and locations never crowd them out.
            is_error = _error_test()
            errors = [bool(p) and is_error(t) for p, t in zip(prot, texts, strict=True)]
            for last in (False, True):
                for i in _central_first(n, tail_bias):
                    if cost <= hard:
                        break
                    if prot[i] and alive[i] and errors[i] == last:
                        alive[i] = False
                        cost -= min(len(texts[i]), max_line) + 1
    shown, end_gap = _kept(texts, weights, alive)
    return _render(shown, end_gap, max_line, show_repeats)


def _kept(texts: list[str], weights: list[int], alive: list[bool] | None) -> tuple[Iterable[tuple[int, str, int]], int]:
    """(lines omitted before it, text, weight) of each line kept, and the lines omitted
    after the last one."""
    if alive is None:
        return zip(repeat(0), texts, weights), 0
    out: list[tuple[int, str, int]] = []
    gap = 0
    for i, line in enumerate(texts):
        if alive[i]:
            out.append((gap, line, weights[i]))
            gap = 0
        else:
            gap += weights[i]
    return out, gap


def _render(
    shown: Iterable[tuple[int, str, int]], end_gap: int, max_line: int, show_repeats: bool
) -> tuple[list[str], int, int, int]:
    """The body, with a marker for each gap: (body, raw lines omitted, lines shortened,
    raw lines kept)."""
    body: list[str] = []
    omitted = shortened = kept = 0
    for gap, line, w in shown:
        if gap:
            body.append(marker(gap))
            omitted += gap
        if len(line) > max_line:
            line = shorten(line, max_line)
            shortened += 1
        if show_repeats and w > 1 and line.strip():
            line = f"{line} (×{w})"
        body.append(line)
        kept += w
    if end_gap:
        body.append(marker(end_gap))
        omitted += end_gap
    _trim_blank_edges(body)
    return body, omitted, shortened, kept


def _central_first(n: int, tail_bias: bool) -> Iterator[int]:
    """0..n-1 in the order `sorted(range(n), key=_centrality)` gives, one at a time.

    The key rises to a peak and falls: lines before the peak (their key from the head)
    and after it (from the tail) are each in order already, so the two runs are merged
    walking outwards; on a tie the earlier line comes first, as in a stable sort.
    """
    scale = 2 if tail_bias else 1
    # The peak: the last line whose distance from the head is at most its distance from the tail.
    p = (n - 1) // (scale + 1) if n else -1
    left, right = p, p + 1
    while left >= 0 or right < n:
        if right >= n or (left >= 0 and scale * left >= n - 1 - right):
            yield left
            left -= 1
        else:
            yield right
            right += 1


def _trim_blank_edges(body: list[str]) -> None:
    """Blank lines at the edges of the body are layout only."""
    while body and not body[-1].strip():
        body.pop()
    k = 0
    while k < len(body) and not body[k].strip():
        k += 1
    del body[:k]
