"""Apply a rule to one output.

Order: strip ANSI (and redraws) → trim empty edges → dedupe adjacent → skip patterns →
keep patterns → matchOutput → counters → formatter → head/tail (failure window and
protected diagnostics) → budget → markers. Every dropped line is counted by reason.

A rule runs in one of three modes: without a formatter the filtered lines go straight
to a bounded window (`window.Collector`); a formatter that reads in batches is fed as
the batches come (`_apply_batch_reader`); any other formatter gets the filtered lines at
once (`_apply_collected`). Memory stays proportional to what can be shown, not to the
output, in the first two.

Whitespace normalisation (trailing spaces, blank edges, runs of blank lines) is not an
omission: blank lines weigh nothing, and `lines_total` counts non-blank lines.
"""

from __future__ import annotations

import operator
from itertools import compress, count

from tokenjuice import _log
from tokenjuice.patterns import PatternError, compile_any
from tokenjuice.reduction import formatting, window
from tokenjuice.reduction.batches import iter_batches
from tokenjuice.reduction.linematch import Hints
from tokenjuice.reduction.linematch import hits as _hits
from tokenjuice.reduction.linematch import weighted as _weighted_hits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

    from tokenjuice.command import CommandInfo
    from tokenjuice.model import ToolRun
    from tokenjuice.patterns import Budget as PatternBudget
    from tokenjuice.reduction.formatters import FormatOutput
    from tokenjuice.rules.rule import Rule

DEFAULT_HEAD = 20
DEFAULT_TAIL = 20
DEFAULT_FAILURE_HEAD = 20
DEFAULT_FAILURE_TAIL = 40


class Context:
    """Everything a reduction needs besides the rule."""

    __slots__ = ("budget", "chars_per_token", "cmd", "failed", "pattern_budget", "run", "text")

    def __init__(
        self,
        run: ToolRun,
        cmd: CommandInfo,
        text: str,
        budget: window.Budget,
        pattern_budget: PatternBudget,
    ) -> None:
        self.run = run
        self.cmd = cmd
        self.text = text
        self.failed = bool(run.exit_code)
        self.budget = budget
        self.pattern_budget = pattern_budget
        self.chars_per_token = 4.0


class Outcome:
    __slots__ = ("body", "facts", "headline", "lines_kept", "lines_total", "mode", "omitted", "shortened")

    def __init__(self) -> None:
        self.body: list[str] = []
        self.facts: dict[str, int] = {}
        self.headline: str | None = None
        self.omitted: dict[str, int] = {}
        self.lines_total = 0
        self.lines_kept = 0
        self.shortened = 0
        self.mode = "rule"

    def drop(self, reason: str, count: int) -> None:
        if count > 0:
            self.omitted[reason] = self.omitted.get(reason, 0) + count


# ------------------------------------------------------------------- matching


def pluralize(count: int, name: str) -> str:
    if count == 1:
        return f"1 {name}"
    head, _, last = name.rpartition(" ")
    if last.endswith("s") or not last:
        plural = last
    elif last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        plural = last[:-1] + "ies"
    elif last.endswith(("ch", "sh", "x", "z")):
        plural = last + "es"
    else:
        plural = last + "s"
    return f"{count:,} {head + ' ' if head else ''}{plural}"


def facts_line(facts: dict[str, int]) -> str | None:
    parts = [pluralize(v, k) for k, v in facts.items() if v > 0]
    return ", ".join(parts) if parts else None


def window_size(d: dict[str, Any], failed: bool) -> tuple[int, int]:
    summ = d.get("summarize") or {}
    fail = d.get("failure") or {}
    if failed and fail.get("preserveOnFailure", True):
        return (
            fail.get("head", summ.get("head", DEFAULT_FAILURE_HEAD)),
            fail.get("tail", max(summ.get("tail", DEFAULT_FAILURE_TAIL), DEFAULT_FAILURE_TAIL)),
        )
    return summ.get("head", DEFAULT_HEAD), summ.get("tail", DEFAULT_TAIL)


# ------------------------------------------------------------------- rule path


class _Filters:
    """The rule's line filters, batch by batch: matchOutput, skip, keep (never dropping
    a protected or diagnostic line) and the counters before and after keep."""

    __slots__ = (
        "counters",
        "diagnostics",
        "hints",
        "keep",
        "keep_dropped",
        "keep_seen",
        "match_counts",
        "match_output",
        "pb",
        "pre_counts",
        "protect",
        "skips",
        "summary",
    )

    def __init__(self, rule: Rule, ctx: Context) -> None:
        pipe = rule.pipeline()
        pb = ctx.pattern_budget
        self.pb = pb
        self.diagnostics = ctx.failed or pipe.diagnostics  # protect what `signals` finds
        self.protect = compile_any(pipe.protect, pb)
        self.skips = [(reason, ms) for reason, specs in pipe.skip.items() if (ms := compile_any(specs, pb))]
        self.keep = compile_any(pipe.keep, pb)
        self.counters = pipe.counter_matchers(pb)
        self.pre_counts = {name: 0 for name, _ in self.counters}
        self.match_counts = {name: 0 for name, _ in self.counters}
        self.match_output = [] if ctx.failed else pipe.match_output
        self.summary: str | None = None  # the matchOutput message, once one matched
        self.keep_seen = False
        self.keep_dropped = 0  # non-matching lines after the first keep match
        self.hints = Hints()

    def skip(self, text: list[str], weights: list[int], out: Outcome) -> tuple[list[str], list[int]]:
        """Count the batch, look for a matchOutput message, drop what the skip patterns drop."""
        out.lines_total += sum(weights)
        for spec, message in self.match_output:
            if self.summary is None and _search(spec, self.pb, "\n".join(text)):
                self.summary = message
        if self.skips:
            text, weights = _skip(self.skips, self.protect, text, weights, self.hints, out)
        return text, weights

    def select(
        self, text: list[str], weights: list[int], marks: bool
    ) -> tuple[list[str], list[int], set[int], list[bool] | None, bool]:
        """Counters, then the keep filter: the lines left, their weights, which of them
        are protected or diagnostics (when `marks` asks for them, or keep needs them),
        which matched keep, and whether this batch had the first keep match."""
        keep = self.keep
        wanted = bool(keep) or marks
        prot = _hits(self.protect, text, self.hints) if self.protect and wanted else None
        for name, m in self.counters:
            if m is not None:
                self.pre_counts[name] += _weighted_hits(m, text, weights, self.hints)
        # Diagnostics matter where a filter or the window could drop them.
        diag: set[int] = _signals().find(text, locations=True) if self.diagnostics and wanted else set()
        prot_idx = set(compress(count(), prot)) if prot is not None else set()
        prot_idx |= diag
        first_keep = False
        matched = _hits(keep, text, self.hints) if keep else None
        if matched is not None:
            for i in prot_idx:
                matched[i] = True
            for name, m in self.counters:
                if m is not None:
                    self.match_counts[name] += _weighted_hits(
                        m, list(compress(text, matched)), list(compress(weights, matched))
                    )
            if not self.keep_seen and any(matched):
                self.keep_seen = first_keep = True
            if self.keep_seen and not all(matched):
                self.keep_dropped += sum(compress(weights, map(operator.not_, matched)))
                remap = list(compress(count(), matched))
                text = list(compress(text, matched))
                weights = list(compress(weights, matched))
                pos = {old: new for new, old in enumerate(remap)}
                prot_idx = {pos[i] for i in prot_idx}
                matched = [True] * len(text)
        return text, weights, prot_idx, matched, first_keep

    def facts(self, d: dict[str, Any]) -> dict[str, int]:
        post_keep = self.keep_seen and d.get("counterSource") != "preKeep"
        counts = self.match_counts if post_keep else self.pre_counts
        return {name: counts[name] for name, m in self.counters if m is not None}


def apply_rule(rule: Rule, ctx: Context) -> Outcome:
    """Reduce `ctx.text` with `rule` (not the generic fallback; see `generic.apply_generic`)."""
    filters = _Filters(rule, ctx)
    if not rule.formatter:
        return _apply_plain(rule, ctx, filters)
    if not filters.keep:
        out = _apply_batch_reader(rule, ctx, filters)
        if out is not None:
            return out
    return _apply_collected(rule, ctx, filters)


def _apply_plain(rule: Rule, ctx: Context, filters: _Filters) -> Outcome:
    """No formatter: the filtered lines go straight to the window."""
    d = rule.data
    out = Outcome()
    collector = _rule_collector(d, ctx)
    for batch in iter_batches(ctx.text, d.get("transforms") or {}):
        text, weights = batch.text, batch.weights
        del batch  # lines a skip pattern drops go as soon as it has
        text, weights = filters.skip(text, weights, out)
        text, weights, prot_idx, _, first_keep = filters.select(text, weights, marks=True)
        if first_keep:
            filters.keep_dropped += _drop_unmatched(collector)
        collector.add_batch(text, weights, prot_idx)
        del text, weights  # see iter_batches: not held while the next batch is made
    out.facts = filters.facts(d)
    if filters.summary is not None:
        return _summarized(out, filters.summary)
    out.drop("filtered", filters.keep_dropped)
    return _conclude(d, ctx, out, collector)


def _apply_batch_reader(rule: Rule, ctx: Context, filters: _Filters) -> Outcome | None:
    """A formatter that reads in batches, fed as they come (None: it does not). Until
    it accepts the output the window still gathers the plain result, for when it
    declines."""
    reader = formatting.open_reader(rule, ctx)
    if reader is None:
        return None
    d = rule.data
    out = Outcome()
    collector = _rule_collector(d, ctx)
    fed = 0
    accepted = False  # the reader has said it will give a result: no plain one is gathered
    for batch in iter_batches(ctx.text, d.get("transforms") or {}):
        text, weights = batch.text, batch.weights
        del batch
        text, weights = filters.skip(text, weights, out)
        # Protected lines matter to the window, not to a formatter.
        text, weights, prot_idx, _, _ = filters.select(text, weights, marks=not accepted)
        reader = formatting.feed(rule, reader, text, weights, accepted)
        fed += sum(weights)
        if not accepted:
            accepted = reader is not None and bool(getattr(reader, "accepted", False))
            if accepted:
                # The plain result can no longer be used (see `formatting.feed`): it goes.
                collector = window.Collector(*window_size(d, ctx.failed))
            else:
                collector.add_batch(text, weights, prot_idx)
        del text, weights
    out.facts = filters.facts(d)
    if filters.summary is not None:
        return _summarized(out, filters.summary)
    fo = formatting.finish_reader(rule, reader, accepted) if reader is not None else None
    reader = None  # what it held to the end can go before the window works
    if fo is None:
        # Declined: the collector already holds the plain result.
        return _conclude(d, ctx, out, collector)
    return _window_formatted(rule, ctx, out, filters, fo.lines, fo.weights, fo, fed)


def _apply_collected(rule: Rule, ctx: Context, filters: _Filters) -> Outcome:
    """A formatter that reads the whole output: the lines that pass the filters are
    collected and handed to it at once."""
    d = rule.data
    out = Outcome()
    lines: list[str] = []
    weights: list[int] = []
    kept: list[bool] = []  # matched keep (or protected), for the keep decision
    for batch in iter_batches(ctx.text, d.get("transforms") or {}):
        text, w = batch.text, batch.weights
        del batch
        text, w = filters.skip(text, w, out)
        text, w, _, matched, _ = filters.select(text, w, marks=False)
        lines.extend(text)
        weights.extend(w)
        kept.extend(matched if matched is not None else [True] * len(text))
        del text, w
    out.facts = filters.facts(d)
    if filters.summary is not None:
        return _summarized(out, filters.summary)
    if filters.keep_seen:
        # Lines collected before the first keep match that do not match are filtered.
        filters.keep_dropped += sum(compress(weights, map(operator.not_, kept)))
        lines = list(compress(lines, kept))
        weights = list(compress(weights, kept))
    out.drop("filtered", filters.keep_dropped)
    fo = formatting.run(rule, lines, weights, ctx)
    if fo is None:
        return _window_formatted(rule, ctx, out, filters, lines, weights, None, 0)
    return _window_formatted(rule, ctx, out, filters, fo.lines, fo.weights, fo, sum(weights))


def _window_formatted(
    rule: Rule,
    ctx: Context,
    out: Outcome,
    filters: _Filters,
    lines: list[str],
    weights: list[int],
    fo: FormatOutput | None,
    total_in: int,
) -> Outcome:
    """Window a formatter's lines (`fo`), or the filtered lines it declined (None);
    `total_in` is the weight the formatter was given."""
    d = rule.data
    max_factor = _max_factor(d)
    limit = ctx.budget.chars(ctx.chars_per_token)
    protected: list[bool] | None = None
    essential = final = False
    headline_weight = 0
    if fo is not None:
        formatting.account(total_in, fo, out)
        protected = fo.protected
        if (d.get("transforms") or {}).get("collapseTemplates") and (
            sum(map(len, lines)) + len(lines) > limit * (max_factor or window.PROTECTED_FACTOR)
        ):
            # Only where the lines would not fit even as signal lines: each stays as
            # it is while they do.
            lines, weights, protected = formatting.collapse_lines(lines, weights, protected, out)
        final = fo.final
        essential = fo.essential
        if fo.facts:
            out.facts.update(fo.facts)
        out.headline = fo.headline
        headline_weight = fo.headline_weight
    protected = _mark_formatted(filters, lines, protected)
    factor = max_factor or (window.ESSENTIAL_FACTOR if essential else window.PROTECTED_FACTOR)
    show_repeats = fo is None
    if final:
        # The formatter chose what to show: only the budget applies.
        if not any(map(str.strip, lines)):
            return _on_empty(d, out, headline_weight)
        body, omitted, shortened, kept = window.finish_all(
            lines,
            weights,
            protected,
            limit,
            ctx.budget.max_line_chars,
            tail_bias=ctx.failed,
            protected_factor=factor,
            show_repeats=show_repeats,
        )
        out.body = body
        out.drop("middle", omitted)
        out.shortened = shortened
        out.lines_kept = kept + headline_weight
        return out
    collector = window.Collector(*window_size(d, ctx.failed), protected_chars=limit * factor * 2)
    # As if one by one (see Collector.add_batch), without an entry per middle line.
    collector.add_batch(lines, weights, set(compress(count(), protected)) if protected else None)
    return _conclude(
        d, ctx, out, collector, essential=essential, show_repeats=show_repeats, headline_weight=headline_weight
    )


def _mark_formatted(filters: _Filters, lines: list[str], protected: list[bool] | None) -> list[bool] | None:
    """`protected` with the rule's protected lines and, on a failing run, diagnostics
    marked too (see `_Filters.diagnostics`); only the lines the formatter left
    unprotected need the checks."""
    if protected is not None and not any(protected):
        protected = None  # none yet: every line is checked as it is, without copies
    if filters.protect:
        if protected is None:
            protected = _hits(filters.protect, lines, filters.hints)
        else:
            rest = list(compress(count(), map(operator.not_, protected)))
            protected = list(protected)
            for i, hit in zip(rest, _hits(filters.protect, [lines[i] for i in rest], filters.hints), strict=True):
                if hit:
                    protected[i] = True
    if filters.diagnostics:
        unprotected = None
        if protected and any(protected):
            unprotected = list(compress(count(), map(operator.not_, protected)))
        diag_idx = _signals().find(lines, unprotected, locations=True)
        if diag_idx:
            protected = list(protected) if protected is not None else [False] * len(lines)
            for i in diag_idx:
                protected[i] = True
    return protected


def _max_factor(d: dict[str, Any]) -> int | None:
    factor: int | None = (d.get("summarize") or {}).get("maxFactor")
    return factor


def _rule_collector(d: dict[str, Any], ctx: Context) -> window.Collector:
    limit = ctx.budget.chars(ctx.chars_per_token)
    factor = _max_factor(d) or window.PROTECTED_FACTOR
    return window.Collector(*window_size(d, ctx.failed), protected_chars=limit * factor * 2)


def _summarized(out: Outcome, summary: str) -> Outcome:
    """A matchOutput message stands for the whole output."""
    out.body = [summary]
    out.omitted = {}
    out.drop("summarized", out.lines_total)
    out.mode = "summarized"
    return out


def _conclude(
    d: dict[str, Any],
    ctx: Context,
    out: Outcome,
    collector: window.Collector,
    *,
    essential: bool = False,
    show_repeats: bool = True,
    headline_weight: int = 0,
) -> Outcome:
    if not any(e.text.strip() for e in collector.entries):
        # Nothing but blank lines survived (or a window of 0 lines kept nothing).
        return _on_empty(d, out, headline_weight)
    finish(collector, ctx, out, essential=essential, show_repeats=show_repeats, max_factor=_max_factor(d))
    out.lines_kept += headline_weight
    return out


def _skip(
    skips: list[tuple[str, list[Any]]],
    protect: list[Any],
    text: list[str],
    weights: list[int],
    hints: Hints,
    out: Outcome,
) -> tuple[list[str], list[int]]:
    """The lines no skip pattern drops, with their weights (a protected line is never
    skipped); the dropped ones are counted in `out`."""
    for reason, skip in skips:
        drop = _hits(skip, text, hints)
        if protect and any(drop):
            # Only the skip candidates are checked for protection.
            idx = list(compress(count(), drop))
            for i, p in zip(idx, _hits(protect, [text[i] for i in idx]), strict=True):
                if p:
                    drop[i] = False
        if any(drop):
            out.drop(reason, sum(compress(weights, drop)))
            keep_mask = list(map(operator.not_, drop))
            text = list(compress(text, keep_mask))
            weights = list(compress(weights, keep_mask))
    return text, weights


def _on_empty(d: dict[str, Any], out: Outcome, headline_weight: int) -> Outcome:
    on_empty = d.get("onEmpty")
    out.body = [on_empty] if on_empty and not out.headline else []
    out.lines_kept = headline_weight
    out.drop("middle", out.lines_total - sum(out.omitted.values()) - headline_weight)
    return out


def _drop_unmatched(collector: window.Collector) -> int:
    """The first keep match: lines collected so far that did not match are filtered."""
    dropped = 0
    for e in collector.entries:
        if e.alive and not e.protected:
            e.alive = False
            dropped += e.weight
        dropped += e.gap
        e.gap = 0
    dropped += collector.pending_gap
    collector.pending_gap = 0
    collector.entries = [e for e in collector.entries if e.alive]
    collector.reset_windows()
    return dropped


def _search(spec: Any, pb: PatternBudget, text: str) -> bool:
    try:
        return spec.matcher(pb).search(text) is not None
    except PatternError as exc:
        _log.warn(f"{exc}; matchOutput entry skipped")
        return False


def finish(
    collector: window.Collector,
    ctx: Context,
    out: Outcome,
    *,
    essential: bool = False,
    show_repeats: bool = True,
    max_factor: int | None = None,
    markers: bool = False,
) -> None:
    budget = ctx.budget
    body, omitted, shortened, kept = collector.finish(
        budget.chars(ctx.chars_per_token),
        budget.max_line_chars,
        tail_bias=ctx.failed,
        protected_factor=max_factor or (window.ESSENTIAL_FACTOR if essential else window.PROTECTED_FACTOR),
        show_repeats=show_repeats,
        markers=markers,
    )
    out.body = body
    out.drop("middle", omitted)
    out.shortened = shortened
    out.lines_kept = kept


def _signals() -> ModuleType:
    """The signal scans, imported when first needed (a successful run with a rule
    never needs them)."""
    from tokenjuice.reduction import signals

    return signals
