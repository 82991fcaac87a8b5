"""An output too large to hold, reduced from a sample (see `tokenjuice.spooling`): the
rule's counts taken over the whole spooled file, and the note that says what was read."""

from __future__ import annotations

from tokenjuice import _log

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from tokenjuice.patterns import Budget as PatternBudget
    from tokenjuice.rules.rule import Rule


def recount(rule: Rule, path: str, budget: PatternBudget) -> dict[str, int]:
    """The rule's counters over a whole spooled output, read a batch at a time (a count
    taken from the sample would not be true); counts of 0 are not stated."""
    from tokenjuice.reduction.linematch import Hints, weighted

    counters = [(name, m) for name, m in rule.pipeline().counter_matchers(budget) if m is not None]
    counts = dict.fromkeys((name for name, _ in counters), 0)
    if not counters:
        return {}
    hints = Hints()
    rest = b""
    try:
        with open(path, "rb") as f:
            while True:
                chunk = f.read(1 << 20)
                data = rest + chunk
                cut = data.rfind(b"\n") + 1 if chunk else len(data)
                rest = data[cut:]
                lines = data[:cut].decode("utf-8", "replace").split("\n")
                if lines and lines[-1] == "":
                    lines.pop()
                if lines:
                    for name, m in counters:
                        counts[name] += weighted(m, lines, [1] * len(lines), hints)
                if not chunk:
                    break
    except OSError as exc:
        _log.warn(f"counting the spooled output failed: {exc}", key="recount")
        return {}
    return {name: n for name, n in counts.items() if n}


def told_by_tool(headline: str, sample: str) -> bool:
    """Whether a formatter's headline is a tool's own line (a summary the tool printed,
    true of the whole run), not a count the formatter took of the sample."""
    return any(part.strip() and part.strip() in sample for part in headline.split(";"))


def note(st: Any) -> str:
    size = st.total_bytes
    human = f"{size / (1 << 30):.1f} GB" if size >= 1 << 30 else f"{size / (1 << 20):.0f} MB"
    diag = f"{st.diag_kept:,} diagnostic line{'' if st.diag_kept == 1 else 's'}"
    if st.diag_seen > st.diag_kept:
        diag += f" (the first of {st.diag_seen:,})"
    lines = f"{st.total_lines:,} line{'' if st.total_lines == 1 else 's'}"
    return f"[{human}, {lines}: too large to hold, reduced from its head, its tail and {diag} in between]"
