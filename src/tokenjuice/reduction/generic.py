"""The generic path: output no specific rule claims.

Low-density output (lines alike but for their numbers) is folded and windowed around
its signal lines; dense output passes whole when it fits and is capped when not.
"""

from __future__ import annotations

import operator
from itertools import compress, count, repeat

from tokenjuice.patterns import compile_any
from tokenjuice.reduction import window
from tokenjuice.reduction.batches import iter_batches, prepare
from tokenjuice.reduction.linematch import Hints
from tokenjuice.reduction.linematch import hits as _hits
from tokenjuice.reduction.pipeline import Context, Outcome, finish, window_size

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.patterns import Matcher
    from tokenjuice.rules.rule import Rule

DENSITY_SAMPLE_CHARS = 64 * 1024

_DELETE_DIGITS = str.maketrans("", "", "0123456789")


def density(lines: list[str]) -> float:
    """ρ = U/max(L,1) · N/max(C,1): unique-line ratio times non-whitespace ratio.

    Lines are compared with their digits removed, so `shard 7` and `shard 12` count as
    one line shape: numbered progress and counters are repetition, not information.
    """
    n_lines = len(lines)
    if not n_lines:
        return 1.0
    text = "\n".join(lines)
    chars = len(text)
    ws = sum(text.count(c) for c in " \t\n\r\f\v")
    unique = len(set(text.translate(_DELETE_DIGITS).split("\n")))
    return (unique / max(n_lines, 1)) * ((chars - ws) / max(chars, 1))


def sample_density(text: str) -> float:
    """Density of the output, measured on its first 64 KB (the whole of most outputs)."""
    sample = text
    if len(text) > DENSITY_SAMPLE_CHARS:
        cut = text.rfind("\n", 0, DENSITY_SAMPLE_CHARS)
        sample = text[: cut if cut > 0 else DENSITY_SAMPLE_CHARS]
    return density(prepare(sample, {}).text)


def apply_generic(rule: Rule, ctx: Context, threshold: float) -> Outcome:
    """No specific rule: reduce low-density output, pass dense output (capped)."""
    from tokenjuice.reduction import signals
    from tokenjuice.reduction.channels import line_channels

    d = rule.data
    transforms = d.get("transforms") or {}
    out = Outcome()
    limit = ctx.budget.chars(ctx.chars_per_token)
    text = ctx.text
    rho = sample_density(text)
    raw_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    tags = line_channels(ctx.run, raw_lines)
    dense = rho >= threshold
    if not dense and len(text) > limit and transforms.get("collapseTemplates", True) is not False:
        # Repetitive output (lines alike but for their numbers) over the budget: fold it
        # by template. Dense output (a table of distinct records) keeps its lines.
        text, tags = _collapse_text(text, tags, out)
    if dense:
        transforms = {**transforms, "dedupeAdjacent": False}
        if len(text) <= limit:
            body: list[str] = []
            for b in iter_batches(text, transforms):
                body.extend(b.text)
                out.lines_total += sum(b.weights)
            if not any(len(t) > ctx.budget.max_line_chars for t in body):
                out.body = body
                out.lines_kept = out.lines_total
                out.mode = "passthrough"
                return out
            out.lines_total = 0
        out.mode = "capped"
        head_chars: int | None = limit // 3
        tail_chars: int | None = limit - limit // 3
        head, tail = 10**9, 10**9
        skip: list[Matcher] = []
    else:
        out.mode = "generic"
        head_chars = tail_chars = None
        head, tail = window_size(d, ctx.failed)
        skip = compile_any([s for specs in rule.pipeline().skip.values() for s in specs], ctx.pattern_budget)
    hints = Hints()
    split_channels = tags is not None and ctx.failed
    collector = window.Collector(
        head if not split_channels else 0,
        tail,
        head_chars=head_chars,
        tail_chars=tail_chars,
        protected_chars=limit * window.PROTECTED_FACTOR * 2,
    )
    for batch in iter_batches(text, transforms, tags):
        lines, weights, btags = batch.text, batch.weights, batch.tags
        out.lines_total += sum(weights)
        # Failing run: every diagnostic survives; successful run: errors and warnings.
        sig = signals.find(lines, locations=ctx.failed)
        if skip:
            drop = _hits(skip, lines, hints)
            for i in sig:
                drop[i] = False  # never skip a signal line on the generic path
            if any(drop):
                out.drop("noise", sum(compress(weights, drop)))
                keep_mask = list(map(operator.not_, drop))
                sig = {j for j, i in enumerate(compress(range(len(lines)), keep_mask)) if i in sig}
                lines = list(compress(lines, keep_mask))
                weights = list(compress(weights, keep_mask))
                btags = list(compress(btags, keep_mask)) if btags is not None else None
        if split_channels and btags is not None:
            # Failing run with separate channels: all of stderr, the tail of stdout.
            sig |= set(compress(count(), map(operator.eq, btags, repeat(1))))
        # Errors are held apart from the other signal lines: warnings never crowd them out.
        errors = signals.find(lines, sorted(sig), locations=False, warnings=False) if ctx.failed and sig else None
        collector.add_batch(lines, weights, sig, head_ok=not split_channels, urgent=errors)
    # A failing run with no rule: its failure lines first, all within the budget itself.
    finish(collector, ctx, out, max_factor=1 if ctx.failed else None, markers=ctx.failed)
    return out


def _collapse_text(text: str, tags: list[int] | None, out: Outcome) -> tuple[str, list[int] | None]:
    """`text` with lines of one template folded (see `templates`), and its channel tags."""
    from tokenjuice.reduction import templates
    from tokenjuice.reduction.audit import raw_keys

    keys = raw_keys(text)
    col = templates.collapse(keys)
    if col is None:
        return text, tags
    out.drop("repeats", sum(1 for k, kept in zip(keys, col.kept, strict=True) if not kept and k))
    if tags is not None and len(tags) == len(col.kept):
        tags = list(compress(tags, col.kept))
    else:
        tags = None
    return "\n".join(col.lines) + "\n", tags
