"""Apply a rule to one output.

Order: strip ANSI (and redraws) → trim empty edges → dedupe adjacent → skip patterns →
keep patterns → matchOutput → counters → formatter → head/tail (failure window and
protected diagnostics) → budget → markers. Every dropped line is counted by reason.

The output is processed in batches of lines (a few hundred KB each) and the window is a
bounded `Collector`, so memory stays proportional to what can be shown, not to the
output; the per-line work uses C-level `map`/`compress` where it can. Rules with a
formatter collect the lines that survive the filters and hand them to it.

Whitespace normalisation (trailing spaces, blank edges, runs of blank lines) is not an
omission: blank lines weigh nothing, and `lines_total` counts non-blank lines.
"""

from __future__ import annotations

import operator
from itertools import accumulate, compress, count, repeat

from tokenjuice import _log
from tokenjuice.patterns import PatternError, compile_any
from tokenjuice.reduction import normalize as nz
from tokenjuice.reduction import window
from tokenjuice.reduction.linematch import Hints
from tokenjuice.reduction.linematch import hits as _hits
from tokenjuice.reduction.linematch import weighted as _weighted_hits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import ModuleType
    from typing import Any

    from tokenjuice.command import CommandInfo
    from tokenjuice.model import ToolRun
    from tokenjuice.patterns import Budget as PatternBudget
    from tokenjuice.patterns import Matcher
    from tokenjuice.reduction.formatters import FormatOutput, Stream
    from tokenjuice.rules.rule import Rule

DEFAULT_HEAD = 20
DEFAULT_TAIL = 20
DEFAULT_FAILURE_HEAD = 20
DEFAULT_FAILURE_TAIL = 40
BATCH_CHARS = 256 * 1024
MIN_BATCH_CHARS = 14 * 1024
DENSITY_SAMPLE_CHARS = 64 * 1024


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


# ------------------------------------------------------------------ preparation


class Batch:
    """Prepared lines: text, how many raw non-blank lines each stands for, stream tags."""

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


def _window_size(d: dict[str, Any], failed: bool) -> tuple[int, int]:
    summ = d.get("summarize") or {}
    fail = d.get("failure") or {}
    if failed and fail.get("preserveOnFailure", True):
        return (
            fail.get("head", summ.get("head", DEFAULT_FAILURE_HEAD)),
            fail.get("tail", max(summ.get("tail", DEFAULT_FAILURE_TAIL), DEFAULT_FAILURE_TAIL)),
        )
    return summ.get("head", DEFAULT_HEAD), summ.get("tail", DEFAULT_TAIL)


# ------------------------------------------------------------------- rule path


def apply_rule(rule: Rule, ctx: Context) -> Outcome:
    """Reduce `ctx.text` with `rule` (not the generic fallback; see `apply_generic`)."""
    d = rule.data
    out = Outcome()
    pipe = rule.pipeline()
    pb = ctx.pattern_budget
    protect = compile_any(pipe.protect, pb)
    skips = [(reason, ms) for reason, specs in pipe.skip.items() if (ms := compile_any(specs, pb))]
    keep = compile_any(pipe.keep, pb)
    counters = pipe.counter_matchers(pb)
    pre_counts = {name: 0 for name, _ in counters}
    match_counts = {name: 0 for name, _ in counters}
    match_output = [] if ctx.failed else pipe.match_output
    summary: str | None = None
    head, tail = _window_size(d, ctx.failed)
    budget = ctx.budget
    limit = budget.chars(ctx.chars_per_token)
    formatter = rule.formatter
    max_factor = (d.get("summarize") or {}).get("maxFactor")
    collector = window.Collector(head, tail, protected_chars=limit * (max_factor or window.PROTECTED_FACTOR) * 2)
    # With a formatter, the survivors of the filters are collected for it instead.
    survivors: list[str] = []
    survivor_weights: list[int] = []
    survivor_kept: list[bool] = []  # matched keep (or protected), for the keep decision
    keep_seen = False
    keep_dropped = 0  # non-matching lines after the first keep match
    hints = Hints()
    # A formatter that reads in batches is fed as the batches come; the collector then
    # still gathers the plain result, for when the formatter declines the output.
    stream = _open_stream(rule, ctx) if formatter and not keep else None
    streaming = stream is not None
    streamed_weight = 0
    accepted = False  # the stream has said it will give a result: no plain one is gathered

    for batch in iter_batches(ctx.text, d.get("transforms") or {}):
        text, weights = batch.text, batch.weights
        del batch  # lines a skip pattern drops go as soon as it has
        out.lines_total += sum(weights)
        for spec, message in match_output:
            if summary is None and _search(spec, pb, "\n".join(text)):
                summary = message
        if skips:
            text, weights = _skip(skips, protect, text, weights, hints, out)
        # Protected lines matter to the window and the keep filter, not to a formatter.
        needs_window = not formatter or (streaming and not accepted)
        prot = _hits(protect, text, hints) if protect and (keep or needs_window) else None
        for name, m in counters:
            if m is not None:
                pre_counts[name] += _weighted_hits(m, text, weights, hints)
        # Diagnostics matter where a filter or the window could drop them.
        diag: set[int] = set()
        if ctx.failed and (keep or needs_window):
            diag = _signals().find(text, locations=True)
        prot_idx = set(compress(count(), prot)) if prot is not None else set()
        prot_idx |= diag
        matched = _hits(keep, text, hints) if keep else None
        if matched is not None:
            for i in prot_idx:
                matched[i] = True
            for name, m in counters:
                if m is not None:
                    match_counts[name] += _weighted_hits(
                        m, list(compress(text, matched)), list(compress(weights, matched))
                    )
            if not keep_seen and any(matched):
                keep_seen = True
                if not formatter:
                    keep_dropped += _drop_unmatched(collector)
            if keep_seen and not all(matched):
                keep_dropped += sum(compress(weights, map(operator.not_, matched)))
                remap = list(compress(count(), matched))
                text = list(compress(text, matched))
                weights = list(compress(weights, matched))
                pos = {old: new for new, old in enumerate(remap)}
                prot_idx = {pos[i] for i in prot_idx}
                matched = [True] * len(text)
        if streaming:
            stream = _feed(rule, stream, text, weights, accepted)
            streamed_weight += sum(weights)
            if not accepted:
                accepted = stream is not None and bool(getattr(stream, "accepted", False))
                if accepted:
                    # The plain result can no longer be used (see `_feed`): it goes.
                    collector = window.Collector(head, tail)
                else:
                    collector.add_batch(text, weights, prot_idx)
        elif formatter:
            survivors.extend(text)
            survivor_weights.extend(weights)
            survivor_kept.extend(matched if matched is not None else [True] * len(text))
        else:
            collector.add_batch(text, weights, prot_idx)
        del text, weights  # see iter_batches: not held while the next batch is made

    post_keep = keep_seen and d.get("counterSource") != "preKeep"
    out.facts = {name: (match_counts if post_keep else pre_counts)[name] for name, m in counters if m is not None}
    if summary is not None:
        out.body = [summary]
        out.omitted = {}
        out.drop("summarized", out.lines_total)
        out.mode = "summarized"
        return out

    essential = False
    headline_weight = 0
    show_repeats = True
    fo: FormatOutput | None = None
    lines: list[str] = []
    line_weights: list[int] = []
    if streaming:
        out.drop("filtered", keep_dropped)
        fo = _finish_stream(rule, stream, accepted) if stream is not None else None
        stream = None  # what it held to the end can go before the window works
        # Declined: the collector already holds the plain result.
    elif formatter:
        if keep_seen:
            # Lines collected before the first keep match that do not match are filtered.
            keep_mask = survivor_kept
            keep_dropped += sum(compress(survivor_weights, map(operator.not_, keep_mask)))
            survivors = list(compress(survivors, keep_mask))
            survivor_weights = list(compress(survivor_weights, keep_mask))
        out.drop("filtered", keep_dropped)
        streamed_weight = sum(survivor_weights)
        fo = _run_formatter(rule, survivors, survivor_weights, ctx)
        lines, line_weights = survivors, survivor_weights
    else:
        out.drop("filtered", keep_dropped)
    if fo is not None or (formatter and not streaming):
        protected: list[bool] | None = None
        final = False
        if fo is not None:
            _account(streamed_weight, fo, out)
            lines, line_weights = fo.lines, fo.weights
            protected = fo.protected
            if (d.get("transforms") or {}).get("collapseTemplates") and (
                sum(map(len, lines)) + len(lines) > limit * (max_factor or window.PROTECTED_FACTOR)
            ):
                # Only where the lines would not fit even as signal lines: each stays as
                # it is while they do.
                lines, line_weights, protected = _collapse_lines(lines, line_weights, protected, out)
            final = fo.final
            essential = fo.essential
            if fo.facts:
                out.facts.update(fo.facts)
            out.headline = fo.headline
            headline_weight = fo.headline_weight
            show_repeats = False
        # Only the lines the formatter left unprotected need the checks.
        if protected is not None and not any(protected):
            protected = None  # none yet: every line is checked as it is, without copies
        if protect:
            if protected is None:
                protected = _hits(protect, lines, hints)
            else:
                rest = list(compress(count(), map(operator.not_, protected)))
                protected = list(protected)
                for i, hit in zip(rest, _hits(protect, [lines[i] for i in rest], hints), strict=True):
                    if hit:
                        protected[i] = True
        if ctx.failed:
            unprotected = None
            if protected and any(protected):
                unprotected = list(compress(count(), map(operator.not_, protected)))
            diag_idx = _signals().find(lines, unprotected, locations=True)
            if diag_idx:
                protected = list(protected) if protected is not None else [False] * len(lines)
                for i in diag_idx:
                    protected[i] = True
        factor = max_factor or (window.ESSENTIAL_FACTOR if essential else window.PROTECTED_FACTOR)
        if final:
            # The formatter chose what to show: only the budget applies.
            if any(map(str.strip, lines)):
                body, omitted, shortened, kept = window.finish_all(
                    lines,
                    line_weights,
                    protected,
                    limit,
                    budget.max_line_chars,
                    tail_bias=ctx.failed,
                    protected_factor=factor,
                    show_repeats=show_repeats,
                )
                out.body = body
                out.drop("middle", omitted)
                out.shortened = shortened
                out.lines_kept = kept + headline_weight
                return out
            return _on_empty(d, out, headline_weight)
        collector = window.Collector(head, tail, protected_chars=limit * factor * 2)
        # As if one by one (see Collector.add_batch), without an entry per middle line.
        collector.add_batch(lines, line_weights, set(compress(count(), protected)) if protected else None)

    if not any(e.text.strip() for e in collector.entries):
        # Nothing but blank lines survived (or a window of 0 lines kept nothing).
        return _on_empty(d, out, headline_weight)
    _finish(collector, ctx, out, essential=essential, show_repeats=show_repeats, max_factor=max_factor)
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


def _finish(
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


def _run_formatter(rule: Rule, lines: list[str], weights: list[int], ctx: Context) -> FormatOutput | None:
    from tokenjuice.reduction import formatters

    name = rule.formatter or ""
    try:
        fn = formatters.get(name)
    except formatters.UnknownFormatter:
        _log.warn(
            f"{rule.path}: rule {rule.id!r}: unknown formatter {name!r}; rule applied without it",
            key=f"formatter:{rule.id}:{name}",
        )
        return None
    fi = formatters.FormatInput(lines, weights, ctx.run, ctx.cmd, dict(rule.data.get("formatterOptions") or {}))
    try:
        result = fn(fi)
    except Exception as exc:  # noqa: BLE001 - a formatter bug must not cost the output
        _formatter_failed(rule, exc)
        return None
    if result is not None and len(result.weights) != len(result.lines):
        _log.warn(f"formatter {name!r} returned inconsistent weights; rule applied without it")
        return None
    return result


def _formatter_failed(rule: Rule, exc: Exception) -> None:
    _log.warn(f"formatter {rule.formatter!r} failed ({type(exc).__name__}: {exc}); rule applied without it")


def _signals() -> ModuleType:
    """The signal scans, imported when first needed (a successful run with a rule
    never needs them)."""
    from tokenjuice.reduction import signals

    return signals


def _open_stream(rule: Rule, ctx: Context) -> Stream | None:
    """The rule's formatter as a batch reader, when it is one."""
    from tokenjuice.reduction import formatters

    cls = formatters.get_stream(rule.formatter or "")
    if cls is None:
        return None
    fctx = formatters.FormatContext(ctx.run, ctx.cmd, dict(rule.data.get("formatterOptions") or {}))
    try:
        return cls(fctx)
    except Exception as exc:  # noqa: BLE001 - a formatter bug must not cost the output
        _formatter_failed(rule, exc)
        return None


def _feed(rule: Rule, stream: Stream | None, lines: list[str], weights: list[int], accepted: bool) -> Stream | None:
    """Feed one batch; a formatter that fails is dropped (the plain result stands). Once
    it has accepted the output no plain result is gathered: its failure then fails the
    whole reduction open (the engine passes the original output)."""
    if stream is None:
        return None
    try:
        stream.feed(lines, weights)
    except Exception as exc:
        if accepted:
            raise
        _formatter_failed(rule, exc)
        return None
    return stream


def _finish_stream(rule: Rule, stream: Stream, accepted: bool) -> FormatOutput | None:
    try:
        result = stream.finish()
    except Exception as exc:
        if accepted:
            raise
        _formatter_failed(rule, exc)
        return None
    if result is not None and len(result.weights) != len(result.lines):
        result = None
        _log.warn(f"formatter {rule.formatter!r} returned inconsistent weights; rule applied without it")
    if result is None and accepted:
        raise RuntimeError(f"formatter {rule.formatter!r} accepted the output but gave no result")
    return result


def _account(total_in: int, fo: FormatOutput, out: Outcome) -> None:
    total_out = sum(fo.weights) + sum(fo.omitted.values()) + fo.headline_weight
    for reason, n in fo.omitted.items():
        out.drop(reason, n)
    if total_out < total_in:
        # Never silent: whatever the formatter did not account for is still counted.
        out.drop("formatted", total_in - total_out)


# --------------------------------------------------------------------- generic path

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
    from tokenjuice.reduction.streams import line_streams

    d = rule.data
    transforms = d.get("transforms") or {}
    out = Outcome()
    limit = ctx.budget.chars(ctx.chars_per_token)
    text = ctx.text
    rho = sample_density(text)
    raw_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    tags = line_streams(ctx.run, raw_lines)
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
        head, tail = _window_size(d, ctx.failed)
        skip = compile_any([s for specs in rule.pipeline().skip.values() for s in specs], ctx.pattern_budget)
    hints = Hints()
    split_streams = tags is not None and ctx.failed
    collector = window.Collector(
        head if not split_streams else 0,
        tail,
        head_chars=head_chars,
        tail_chars=tail_chars,
        protected_chars=limit * window.PROTECTED_FACTOR * 2,
    )
    for batch in iter_batches(text, transforms, tags):
        lines, weights, btags = batch.text, batch.weights, batch.tags
        out.lines_total += sum(weights)
        # Failing run: every diagnostic survives; successful run: errors and warnings.
        sig = _signals().find(lines, locations=ctx.failed)
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
        if split_streams and btags is not None:
            # Failing run with separate streams: all of stderr, the tail of stdout.
            sig |= set(compress(count(), map(operator.eq, btags, repeat(1))))
        # Errors are held apart from the other signal lines: warnings never crowd them out.
        errors = _signals().find(lines, sorted(sig), locations=False, warnings=False) if ctx.failed and sig else None
        collector.add_batch(lines, weights, sig, head_ok=not split_streams, urgent=errors)
    # A failing run with no rule: its failure lines first, all within the budget itself.
    _finish(collector, ctx, out, max_factor=1 if ctx.failed else None, markers=ctx.failed)
    return out


def _collapse_text(text: str, tags: list[int] | None, out: Outcome) -> tuple[str, list[int] | None]:
    """`text` with lines of one template folded (see `templates`), and its stream tags."""
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


def _collapse_lines(
    lines: list[str], weights: list[int], protected: list[bool] | None, out: Outcome
) -> tuple[list[str], list[int], list[bool] | None]:
    """A formatter's lines with lines of one template folded (see `templates`): each
    folded line weighs and is protected as all it stands for together."""
    from tokenjuice.reduction import templates

    col = templates.collapse(lines, numbered=False)
    if col is None:
        return lines, weights, protected
    new_w: list[int] = []
    new_p: list[bool] = []
    firsts: dict[str, int] = {}
    shapes = [templates.shape(t) for t in lines]
    for i, keep in enumerate(col.kept):
        if keep:
            firsts.setdefault(shapes[i], len(new_w))
            new_w.append(weights[i])
            new_p.append(bool(protected[i]) if protected is not None else False)
        else:
            k = firsts[shapes[i]]
            new_w[k] += weights[i]
            new_p[k] = new_p[k] or (bool(protected[i]) if protected is not None else False)
    return col.lines, new_w, new_p if protected is not None else None
