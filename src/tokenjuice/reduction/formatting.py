"""Running a rule's formatter: a formatter that fails or answers inconsistently is
dropped with a warning and the rule applies without it (fail open)."""

from __future__ import annotations

from tokenjuice import _log

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.reduction.formatters import BatchReader, FormatOutput
    from tokenjuice.reduction.pipeline import Context, Outcome
    from tokenjuice.rules.rule import Rule


def run(rule: Rule, lines: list[str], weights: list[int], ctx: Context) -> FormatOutput | None:
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
        failed(rule, exc)
        return None
    if result is not None and len(result.weights) != len(result.lines):
        _log.warn(f"formatter {name!r} returned inconsistent weights; rule applied without it")
        return None
    return result


def failed(rule: Rule, exc: Exception) -> None:
    _log.warn(f"formatter {rule.formatter!r} failed ({type(exc).__name__}: {exc}); rule applied without it")


def open_reader(rule: Rule, ctx: Context) -> BatchReader | None:
    """The rule's formatter as a batch reader, when it is one."""
    from tokenjuice.reduction import formatters

    cls = formatters.get_batch_reader(rule.formatter or "")
    if cls is None:
        return None
    fctx = formatters.FormatContext(ctx.run, ctx.cmd, dict(rule.data.get("formatterOptions") or {}))
    try:
        return cls(fctx)
    except Exception as exc:  # noqa: BLE001 - a formatter bug must not cost the output
        failed(rule, exc)
        return None


def feed(
    rule: Rule, reader: BatchReader | None, lines: list[str], weights: list[int], accepted: bool
) -> BatchReader | None:
    """Feed one batch; a formatter that fails is dropped (the plain result stands). Once
    it has accepted the output no plain result is gathered: its failure then fails the
    whole reduction open (the engine passes the original output)."""
    if reader is None:
        return None
    try:
        reader.feed(lines, weights)
    except Exception as exc:
        if accepted:
            raise
        failed(rule, exc)
        return None
    return reader


def finish_reader(rule: Rule, reader: BatchReader, accepted: bool) -> FormatOutput | None:
    try:
        result = reader.finish()
    except Exception as exc:
        if accepted:
            raise
        failed(rule, exc)
        return None
    if result is not None and len(result.weights) != len(result.lines):
        result = None
        _log.warn(f"formatter {rule.formatter!r} returned inconsistent weights; rule applied without it")
    if result is None and accepted:
        raise RuntimeError(f"formatter {rule.formatter!r} accepted the output but gave no result")
    return result


def account(total_in: int, fo: FormatOutput, out: Outcome) -> None:
    total_out = sum(fo.weights) + sum(fo.omitted.values()) + fo.headline_weight
    for reason, n in fo.omitted.items():
        out.drop(reason, n)
    if total_out < total_in:
        # Never silent: whatever the formatter did not account for is still counted.
        out.drop("formatted", total_in - total_out)


def collapse_lines(
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
