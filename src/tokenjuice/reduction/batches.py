"""Output text as prepared lines, in batches.

Escapes stripped, redraws collapsed, trailing space removed, blank edges trimmed, blank
runs and adjacent repeats folded into weighted lines. Batches of a few hundred KB keep
the working set a fraction of the input; the per-line work uses C-level `map` and
`compress` where it can.
"""

from __future__ import annotations

import operator
from itertools import accumulate, compress, count

from tokenjuice.reduction import normalize as nz

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

BATCH_CHARS = 256 * 1024
MIN_BATCH_CHARS = 14 * 1024


class Batch:
    """Prepared lines: text, how many raw non-blank lines each stands for, channel tags."""

    __slots__ = ("tags", "text", "weights")

    def __init__(self, text: list[str], weights: list[int], tags: list[int] | None) -> None:
        self.text = text
        self.weights = weights
        self.tags = tags


def iter_batches(text: str, transforms: dict[str, Any], tags: list[int] | None = None) -> Iterator[Batch]:
    """Normalised lines in batches: escapes stripped, redraws collapsed, trailing space
    removed, leading blank lines dropped, blank runs folded to one, and (unless the rule
    turns it off) adjacent repeats folded into one line whose weight is the run length.
    """
    if transforms.get("prettyPrintJson"):
        pretty = nz.pretty_print_json(text)
        if pretty is not text:
            text, tags = pretty, None
    strip = transforms.get("stripAnsi", True) is not False
    trim = transforms.get("trimEmptyEdges", True) is not False
    dedupe = transforms.get("dedupeAdjacent", True) is not False
    fold_blanks = transforms.get("collapseBlankRuns", True) is not False
    trim_trailing = transforms.get("trimTrailingWhitespace", True) is not False
    whole = strip and "\x1b[" in text and nz.has_redraw(text)
    if whole:
        # Cursor-up redraws span lines: replay the whole text once.
        text = nz.normalize(text, strip=True)
        tags = None
    started = not trim
    carry: tuple[str, int, int] | None = None  # last line, held back to fold across batches
    raw_line = 0
    pos, n = 0, len(text)
    # About 16 batches per output (14 KB to 256 KB each): few enough to keep the
    # per-batch overhead small, small enough that the working set stays a fraction
    # of the input (a batch's lines take 2-3 times its characters as Python strings;
    # 14 KB keeps a 100 KB output under 1.2x, at no measurable cost in time).
    step = min(BATCH_CHARS, max(MIN_BATCH_CHARS, n // 16))
    while pos < n:
        end = text.find("\n", pos + step)
        end = n if end < 0 else end + 1
        chunk = text[pos:end]
        pos = end
        if not whole:
            chunk = nz.normalize(chunk, strip=strip)
        lines = chunk.split("\n")
        del chunk  # the lines are copies: a batch's text is not held twice
        if lines[-1] == "":
            lines.pop()
        if trim_trailing:
            lines = list(map(str.rstrip, lines))
        btags = tags[raw_line : raw_line + len(lines)] if tags is not None else None
        raw_line += len(lines)
        if not started:
            first = next((i for i, ln in enumerate(lines) if ln), None)
            if first is None:
                continue
            started = True
            lines = lines[first:]
            btags = btags[first:] if btags is not None else None
        if carry is not None:
            lines.insert(0, carry[0])
            if btags is not None:
                btags.insert(0, carry[2])
        batch = _fold(lines, btags, dedupe, carry[1] if carry is not None else None, fold_blanks)
        if not batch.text:
            continue
        carry = (batch.text.pop(), batch.weights.pop(), batch.tags.pop() if batch.tags is not None else 0)
        if batch.text:
            # Handed over without a local still naming it: the consumer's lines (and
            # the ones its skip patterns drop) are freed as soon as it lets go of them,
            # not when this generator resumes to split the next batch.
            handed = [batch]
            del batch, lines
            yield handed.pop()
    if carry is not None:
        yield Batch([carry[0]], [carry[1]], [carry[2]] if tags is not None else None)


def _fold(
    lines: list[str], tags: list[int] | None, dedupe: bool, first_weight: int | None, fold_blanks: bool = True
) -> Batch:
    """Weights for one batch; fold blank runs and (if `dedupe`) identical neighbours.

    A line folds into the line before it when the two are equal (blank and
    `fold_blanks`, or not blank and `dedupe`), adding its weight to that line. Most
    batches have no repeats and few blank runs: both are found with C-level scans; a
    batch with a few folds is copied in slices, one full of them compressed. No Python
    step per line.
    """
    weights = [1] * len(lines)
    if "" in lines:
        i = lines.index("")
        try:
            while True:
                weights[i] = 0
                i = lines.index("", i + 1)
        except ValueError:
            pass
    if first_weight is not None and lines:
        weights[0] = first_weight
    if not dedupe and not fold_blanks:
        return Batch(lines, weights, tags)
    if not any(map(operator.eq, lines, lines[1:])):
        return Batch(lines, weights, tags)
    folds = list(map(operator.eq, lines[1:], lines))  # folds[i]: line i + 1 folds into line i
    if not dedupe:
        folds = list(map(operator.and_, folds, map(operator.not_, lines[1:])))
    elif not fold_blanks:
        folds = list(map(operator.and_, folds, map(bool, lines[1:])))
    at = list(compress(count(1), folds))
    if len(at) * 8 < len(lines):
        out: list[str] = []
        w: list[int] = []
        t: list[int] | None = [] if tags is not None else None
        start = 0
        for i in at:
            out += lines[start:i]
            w += weights[start:i]
            if t is not None and tags is not None:
                t += tags[start:i]
            w[-1] += weights[i]
            start = i + 1
        out += lines[start:]
        w += weights[start:]
        if t is not None and tags is not None:
            t += tags[start:]
        return Batch(out, w, t)
    keep = [True, *map(operator.not_, folds)]
    out = list(compress(lines, keep))
    t = list(compress(tags, keep)) if tags is not None else None
    # A kept line weighs its own weight and that of the lines folded into it, up to
    # the next kept line: differences of the running sums taken at the kept lines.
    keep.append(True)
    sums = list(compress(accumulate(weights, initial=0), keep))
    w = list(map(operator.sub, sums[1:], sums))
    return Batch(out, w, t)


def prepare(text: str, transforms: dict[str, Any], tags: list[int] | None = None) -> Batch:
    """All prepared lines at once (small inputs, tools like `explain`)."""
    texts: list[str] = []
    weights: list[int] = []
    all_tags: list[int] | None = [] if tags is not None else None
    for b in iter_batches(text, {**transforms, "dedupeAdjacent": False}, tags):
        texts.extend(b.text)
        weights.extend(b.weights)
        if all_tags is not None and b.tags is not None:
            all_tags.extend(b.tags)
    return Batch(texts, weights, all_tags)
