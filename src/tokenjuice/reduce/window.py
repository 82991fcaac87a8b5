"""Choosing which lines stay: head/tail windows, protected lines, budgets, markers.

A plan is a keep-mask over the lines left after filtering. Protected lines (failure
diagnostics, lines a formatter marks as signal) are kept wherever they are; the budget
then trims unprotected lines, most central first, and only when protected lines alone
are far over budget are the most central of those folded too. Every dropped run of
lines becomes one marker that says how many raw lines it stands for.
"""

from __future__ import annotations

DEFAULT_MAX_CHARS = 12_000
# Protected (signal) lines may use this multiple of the budget before they are trimmed;
# essential ones (every commit of a log, every changed line of a diff) far more.
PROTECTED_FACTOR = 4
ESSENTIAL_FACTOR = 64
DEFAULT_MAX_LINE_CHARS = 2_000
MARKER_COST = 32


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


def head_tail_mask(n: int, head: int, tail: int) -> list[bool]:
    if head + tail >= n:
        return [True] * n
    mask = [False] * n
    for i in range(min(head, n)):
        mask[i] = True
    for i in range(max(0, n - tail), n):
        mask[i] = True
    return mask


def _line_cost(line: str, max_line: int) -> int:
    return min(len(line), max_line) + 1


def fit_budget(
    lines: list[str],
    keep: list[bool],
    protected: list[bool] | None,
    limit: int,
    max_line: int,
    *,
    tail_bias: bool,
    protected_factor: int = PROTECTED_FACTOR,
) -> int:
    """Drop kept lines until the kept text fits `limit`; return the lines dropped.

    Unprotected lines go first, the most central first (on failing runs the head is
    given up before the tail). Protected lines are only trimmed beyond
    `protected_factor × limit`.
    """
    n = len(lines)
    cost = 0
    for i in range(n):
        if keep[i]:
            cost += _line_cost(lines[i], max_line)
    if cost <= limit:
        return 0

    def centrality(i: int) -> int:
        from_head = 2 * i if tail_bias else i
        return -min(from_head, n - 1 - i)

    dropped = 0
    unprot = [i for i in range(n) if keep[i] and not (protected and protected[i])]
    unprot.sort(key=centrality)
    gaps = 0
    for i in unprot:
        if cost + gaps * MARKER_COST <= limit:
            break
        keep[i] = False
        cost -= _line_cost(lines[i], max_line)
        dropped += 1
        gaps = min(gaps + 1, 64)
    hard = limit * protected_factor
    if cost > hard and protected:
        prot = [i for i in range(n) if keep[i] and protected[i]]
        prot.sort(key=centrality)
        for i in prot:
            if cost <= hard:
                break
            keep[i] = False
            cost -= _line_cost(lines[i], max_line)
            dropped += 1
    return dropped


def shorten(line: str, max_line: int) -> str:
    if len(line) <= max_line:
        return line
    head = max_line * 2 // 3
    tail = max_line - head
    cut = len(line) - head - tail
    return f"{line[:head]} …[{cut:,} chars]… {line[-tail:]}"


def marker(count: int) -> str:
    return f"… {count:,} line{'s' if count != 1 else ''} omitted …"


def render(
    lines: list[str],
    weights: list[int],
    keep: list[bool],
    max_line: int,
    *,
    show_repeats: bool = True,
) -> tuple[list[str], int, int]:
    """Body lines with gap markers; returns (body, raw lines omitted, lines shortened)."""
    body: list[str] = []
    gap = 0
    omitted = 0
    shortened = 0
    for line, w, k in zip(lines, weights, keep, strict=True):
        if not k:
            gap += w
            continue
        if gap:
            body.append(marker(gap))
            omitted += gap
            gap = 0
        if len(line) > max_line:
            line = shorten(line, max_line)
            shortened += 1
        if show_repeats and w > 1 and line.strip():
            line = f"{line} (×{w})"
        body.append(line)
    if gap:
        body.append(marker(gap))
        omitted += gap
    return body, omitted, shortened
