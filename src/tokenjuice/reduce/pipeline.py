"""Apply a rule to one output.

Order: strip ANSI (and redraws) → trim empty edges → dedupe adjacent → skip patterns →
keep patterns → matchOutput → counters → formatter → head/tail (failure window and
protected diagnostics) → budget → markers. Every dropped line is counted by reason.

Whitespace normalisation (trailing spaces, blank edges, runs of blank lines) is not an
omission: `lines_total` is counted after it.
"""

from __future__ import annotations

from tokenjuice import _log
from tokenjuice.patterns import PatternError, compile_any
from tokenjuice.reduce import normalize as nz
from tokenjuice.reduce import signals, window

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from tokenjuice.command import CommandInfo
    from tokenjuice.model import ToolRun
    from tokenjuice.patterns import Budget as PatternBudget
    from tokenjuice.patterns import Matcher
    from tokenjuice.reduce.formatters import FormatOutput
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


class Lines:
    """Parallel lists: text, how many raw lines each stands for, and (optionally) stream."""

    __slots__ = ("show_repeats", "tags", "text", "weights")

    def __init__(self, text: list[str], weights: list[int], tags: list[int] | None = None) -> None:
        self.text = text
        self.weights = weights
        self.tags = tags
        # False once a formatter has rendered the lines (repeat counts are in the text).
        self.show_repeats = True

    def __len__(self) -> int:
        return len(self.text)

    def select(self, mask: list[bool]) -> int:
        """Keep lines where mask is true; return the raw lines dropped."""
        dropped = 0
        text: list[str] = []
        weights: list[int] = []
        tags: list[int] | None = [] if self.tags is not None else None
        for i, keep in enumerate(mask):
            if keep:
                text.append(self.text[i])
                weights.append(self.weights[i])
                if tags is not None:
                    tags.append(self.tags[i])  # type: ignore[index]
            else:
                dropped += self.weights[i]
        self.text, self.weights, self.tags = text, weights, tags
        return dropped


def prepare(text: str, transforms: dict[str, Any], tags: list[int] | None = None) -> Lines:
    """Normalise and split; trim edges and collapse blank runs.

    Every non-blank line weighs 1: `lines_total` and all omission counts are in
    non-blank raw lines, so whitespace changes never show up as omissions.
    """
    if transforms.get("prettyPrintJson"):
        pretty = nz.pretty_print_json(text)
        if pretty is not text:
            text, tags = pretty, None
    norm = nz.normalize(text, strip=transforms.get("stripAnsi", True) is not False)
    lines = nz.split_lines(norm)
    if tags is not None and len(tags) != len(lines):
        tags = None
    if transforms.get("trimEmptyEdges", True) is not False:
        start, end = nz.trim_edges(lines)
        if start or end != len(lines):
            lines = lines[start:end]
            if tags is not None:
                tags = tags[start:end]
    # Collapse runs of blank lines to one.
    if any(not ln for ln in lines):
        keep_idx = [i for i, ln in enumerate(lines) if ln or i == 0 or lines[i - 1]]
        if len(keep_idx) != len(lines):
            lines = [lines[i] for i in keep_idx]
            if tags is not None:
                tags = [tags[i] for i in keep_idx]
    # Blank lines weigh nothing: they are layout, never counted as kept or omitted.
    return Lines(lines, [1 if ln else 0 for ln in lines], tags)


def dedupe(lines: Lines) -> int:
    """Fold adjacent identical lines into one carrying their weight (shown as `(×N)`).

    Folding loses nothing, so it is not an omission; returns how many lines folded.
    """
    before = len(lines)
    if before < 2:
        return 0
    text, weights, tags = lines.text, lines.weights, lines.tags
    out: list[str] = []
    w: list[int] = []
    t: list[int] | None = [] if tags is not None else None
    prev: str | None = None
    for i, line in enumerate(text):
        if line == prev and line:
            w[-1] += weights[i]
        else:
            out.append(line)
            w.append(weights[i])
            if t is not None:
                t.append(tags[i])  # type: ignore[index]
            prev = line
    lines.text, lines.weights, lines.tags = out, w, t
    return before - len(out)


def _any_mask(matchers: list[Matcher], text: list[str]) -> list[bool]:
    if len(matchers) == 1:
        search = matchers[0].search
        return [search(line) is not None for line in text]
    return [any(m.search(line) is not None for m in matchers) for line in text]


def _count(matcher: Matcher, lines: Lines) -> int:
    search = matcher.search
    return sum(w for line, w in zip(lines.text, lines.weights, strict=True) if search(line) is not None)


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


def apply_rule(rule: Rule, ctx: Context) -> Outcome:
    """Reduce `ctx.text` with `rule` (not the generic fallback; see `apply_generic`)."""
    d = rule.data
    out = Outcome()
    lines = prepare(ctx.text, d.get("transforms") or {})
    out.lines_total = sum(lines.weights)
    pipe = rule.pipeline()
    pb = ctx.pattern_budget

    if (d.get("transforms") or {}).get("dedupeAdjacent", True) is not False:
        dedupe(lines)

    protect = compile_any(pipe.protect, pb)
    skip = compile_any(pipe.skip, pb)
    if skip:
        mask = _any_mask(skip, lines.text)
        if protect:
            mask = [m and not p for m, p in zip(mask, _any_mask(protect, lines.text), strict=True)]
        out.drop("noise", lines.select([not m for m in mask]))

    pre_keep: Lines | None = None
    keep = compile_any(pipe.keep, pb)
    if keep:
        mask = _any_mask(keep, lines.text)
        if protect:
            mask = [m or p for m, p in zip(mask, _any_mask(protect, lines.text), strict=True)]
        if any(mask):
            if ctx.failed:
                # A failing run keeps its diagnostics even where the keep filter would not.
                for i in signals.find(lines.text, [i for i, m in enumerate(mask) if not m]):
                    mask[i] = True
            if d.get("counterSource") == "preKeep":
                pre_keep = Lines(list(lines.text), list(lines.weights))
            out.drop("filtered", lines.select(mask))

    if pipe.match_output and not ctx.failed:
        joined = "\n".join(lines.text) if pre_keep is None else "\n".join(pre_keep.text)
        for spec, message in pipe.match_output:
            try:
                hit = spec.matcher(pb).search(joined) is not None
            except PatternError as exc:
                _log.warn(f"{exc}; matchOutput entry skipped")
                continue
            if hit:
                out.body = [message]
                out.drop("summarized", sum(lines.weights))
                out.lines_kept = 0
                out.mode = "summarized"
                return out

    source = pre_keep if pre_keep is not None else lines
    for name, matcher in pipe.counter_matchers(pb):
        if matcher is not None:
            out.facts[name] = _count(matcher, source)

    protected: list[bool] | None = None
    final = False
    essential = False
    headline_weight = 0
    if rule.formatter:
        fo = _run_formatter(rule, lines, ctx)
        if fo is not None:
            _account(rule, lines, fo, out)
            lines = Lines(fo.lines, fo.weights)
            lines.show_repeats = False
            protected = fo.protected
            final = fo.final
            essential = fo.essential
            if fo.facts:
                out.facts.update(fo.facts)
            out.headline = fo.headline
            headline_weight = fo.headline_weight

    if not lines.text:
        on_empty = d.get("onEmpty")
        out.body = [on_empty] if on_empty else []
        out.lines_kept = headline_weight
        return out

    if final:
        mask = [True] * len(lines)
    else:
        head, tail = _window_size(d, ctx.failed)
        mask = window.head_tail_mask(len(lines), head, tail)
    if protect:
        hits = _any_mask(protect, lines.text)
        protected = hits if protected is None else [a or b for a, b in zip(protected, hits, strict=True)]
    if ctx.failed:
        protected = _protect_signals(lines.text, mask, protected)
    _finish(lines, mask, protected, ctx, out, essential=essential)
    out.lines_kept += headline_weight
    return out


def _window_size(d: dict[str, Any], failed: bool) -> tuple[int, int]:
    summ = d.get("summarize") or {}
    fail = d.get("failure") or {}
    if failed and fail.get("preserveOnFailure", True):
        return (
            fail.get("head", summ.get("head", DEFAULT_FAILURE_HEAD)),
            fail.get("tail", max(summ.get("tail", DEFAULT_FAILURE_TAIL), DEFAULT_FAILURE_TAIL)),
        )
    return summ.get("head", DEFAULT_HEAD), summ.get("tail", DEFAULT_TAIL)


def _protect_signals(
    text: list[str], mask: list[bool], protected: list[bool] | None, *, locations: bool = True
) -> list[bool]:
    """Protect signal lines, inside the window too (the budget must not trim them there)."""
    prot = list(protected) if protected is not None else [False] * len(text)
    todo = [i for i in range(len(text)) if not prot[i]]
    for i in signals.find(text, todo, locations=locations):
        prot[i] = True
        mask[i] = True
    return prot


def _finish(
    lines: Lines,
    mask: list[bool],
    protected: list[bool] | None,
    ctx: Context,
    out: Outcome,
    *,
    essential: bool = False,
) -> None:
    if protected is not None:
        for i, p in enumerate(protected):
            if p:
                mask[i] = True
    budget = ctx.budget
    window.fit_budget(
        lines.text,
        mask,
        protected,
        budget.chars(ctx.chars_per_token),
        budget.max_line_chars,
        tail_bias=ctx.failed,
        protected_factor=window.ESSENTIAL_FACTOR if essential else window.PROTECTED_FACTOR,
    )
    body, omitted, shortened = window.render(
        lines.text, lines.weights, mask, budget.max_line_chars, show_repeats=lines.show_repeats
    )
    out.body = body
    out.drop("middle", omitted)
    out.shortened = shortened
    out.lines_kept = sum(w for w, k in zip(lines.weights, mask, strict=True) if k)


def _run_formatter(rule: Rule, lines: Lines, ctx: Context) -> FormatOutput | None:
    from tokenjuice.reduce import formatters

    name = rule.formatter or ""
    try:
        fn = formatters.get(name)
    except formatters.UnknownFormatter:
        _log.warn(
            f"{rule.path}: rule {rule.id!r}: unknown formatter {name!r}; rule applied without it",
            key=f"formatter:{rule.id}:{name}",
        )
        return None
    fi = formatters.FormatInput(
        list(lines.text), list(lines.weights), ctx.run, ctx.cmd, dict(rule.data.get("formatterOptions") or {})
    )
    try:
        result = fn(fi)
    except Exception as exc:  # noqa: BLE001 - a formatter bug must not cost the output
        _log.warn(f"formatter {name!r} failed ({type(exc).__name__}: {exc}); rule applied without it")
        return None
    if result is not None and len(result.weights) != len(result.lines):
        _log.warn(f"formatter {name!r} returned inconsistent weights; rule applied without it")
        return None
    return result


def _account(rule: Rule, before: Lines, fo: FormatOutput, out: Outcome) -> None:
    total_in = sum(before.weights)
    total_out = sum(fo.weights) + sum(fo.omitted.values()) + fo.headline_weight
    for reason, count in fo.omitted.items():
        out.drop(reason, count)
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


def apply_generic(rule: Rule, ctx: Context, threshold: float) -> Outcome:
    """No specific rule: reduce low-density output, pass dense output (capped)."""
    from tokenjuice.reduce.streams import line_streams

    d = rule.data
    transforms = d.get("transforms") or {}
    raw_lines = ctx.text.count("\n") + (0 if ctx.text.endswith("\n") or not ctx.text else 1)
    tags = line_streams(ctx.run, raw_lines)
    lines = prepare(ctx.text, transforms, tags)
    out = Outcome()
    out.lines_total = sum(lines.weights)
    rho = density(lines.text)
    out.facts = {}
    limit = ctx.budget.chars(ctx.chars_per_token)
    if rho >= threshold:
        size = sum(len(t) + 1 for t in lines.text)
        if size <= limit and not any(len(t) > ctx.budget.max_line_chars for t in lines.text):
            out.body = list(lines.text)
            out.lines_kept = out.lines_total
            out.mode = "passthrough"
            return out
        out.mode = "capped"
        head, tail = _fit_counts(lines.text, limit)
    else:
        out.mode = "generic"
        if transforms.get("dedupeAdjacent", True) is not False:
            dedupe(lines)
        skip = compile_any(rule.pipeline().skip, ctx.pattern_budget)
        if skip:
            mask = _any_mask(skip, lines.text)
            if ctx.failed:
                for i in signals.find(lines.text, [i for i, m in enumerate(mask) if m]):
                    mask[i] = False
            out.drop("noise", lines.select([not m for m in mask]))
        head, tail = _window_size(d, ctx.failed)

    n = len(lines)
    if lines.tags is not None and ctx.failed:
        # Failing run with separate streams: all of stderr, the tail of stdout.
        mask = [False] * n
        stdout_idx = [i for i, t in enumerate(lines.tags) if t == 0]
        for i in stdout_idx[-tail:] if tail else ():
            mask[i] = True
        protected = [t == 1 for t in lines.tags]
    else:
        mask = window.head_tail_mask(n, head, tail)
        protected = None
        if lines.tags is not None:
            # Successful run: stderr warnings and errors beat stdout noise.
            protected = [False] * n
            for i in signals.find(lines.text, [i for i, t in enumerate(lines.tags) if t == 1], locations=False):
                protected[i] = True
    # Failing run: every diagnostic survives. Successful run on the generic path:
    # errors and warnings are signal too.
    protected = _protect_signals(lines.text, mask, protected, locations=ctx.failed)
    _finish(lines, mask, protected, ctx, out)
    return out


def _fit_counts(text: list[str], limit: int) -> tuple[int, int]:
    """Head and tail line counts whose text fits about `limit` characters (tail-heavy)."""
    head_budget = limit // 3
    tail_budget = limit - head_budget
    head = 0
    used = 0
    for line in text:
        used += len(line) + 1
        if used > head_budget:
            break
        head += 1
    tail = 0
    used = 0
    for line in reversed(text):
        used += len(line) + 1
        if used > tail_budget:
            break
        tail += 1
    return max(head, 1), max(tail, 1)
