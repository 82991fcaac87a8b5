"""The text of a reduction: its body audited and cut to the cap, the footer stating
what was left out, and whether the text pays for itself against the raw output."""

from __future__ import annotations

from tokenjuice.reduction import audit, inline, window

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from tokenjuice.model import ToolRun

# A text that changes the output must save at least this many tokens and this share of
# them; anything less is not worth reading a reduction instead of the output itself.
MIN_SAVED_TOKENS = 100
MIN_SAVED_SHARE = 0.25
# As long as the pointer `Reducer._keep_raw` writes (12-character ids).
POINTER_PROBE = "full output: tokenjuice cat 000000000000"


def exit_note(run: ToolRun) -> str | None:
    note = run.metadata.get("exit_note")
    return note if isinstance(note, str) else None


def cap(text: str, limit: int) -> tuple[str, tuple[int, int] | None]:
    """Head and tail of `text` within `limit` characters, cut at line boundaries, with
    the raw line range left out (None when no line boundary allows a cut)."""
    head_end = text.rfind("\n", 0, limit // 3)
    tail_start = text.find("\n", len(text) - (limit - limit // 3))
    if head_end < 0 or tail_start < 0 or tail_start <= head_end:
        return text[: limit // 3] + "\n…\n" + text[-(limit - limit // 3) :], None
    first = text.count("\n", 0, head_end + 1) + 1
    last = first + text.count("\n", head_end + 1, tail_start + 1) - 1
    n = last - first + 1
    mark = f"… {n:,} line{'s' if n != 1 else ''} omitted ({audit.describe([(first, last)])}) …"
    return text[: head_end + 1] + mark + "\n" + text[tail_start + 1 :], (first, last)


def worth_it(
    raw: str,
    text: str,
    run: ToolRun,
    min_tokens: int = MIN_SAVED_TOKENS,
    min_share: float = MIN_SAVED_SHARE,
) -> bool:
    """Whether `text` pays for itself against the raw output with its `exit N` line
    (with both minimums 0: whether it is shorter in characters; always with a negative one).
    Judged with the token estimate, so the choice is the same on every machine."""
    if text == raw:
        return True
    if min_tokens < 0:
        return True  # the check is off: what the rule made of the output, whatever it is
    head = inline.exit_line(run.exit_code, exit_note(run))
    if min_tokens == 0 and min_share <= 0:
        return len(text) < len(raw) + (len(head) + 1 if head else 0)
    from tokenjuice.tokens import estimate

    raw_tokens = estimate(raw) + (estimate(head) + 1 if head else 0)
    saved = raw_tokens - estimate(text)
    return saved > 0 and saved >= min_tokens and saved >= raw_tokens * min_share


def audited(raw: str, body: list[str], cap: int, max_line: int, failed: bool, spool: Any) -> audit.Audit:
    """The audit of `body` cut to `cap` characters as the model will read it: the ranges
    the audit writes into markers count too, so a body over the cap is cut again."""
    target = cap
    for _ in range(4):
        cut = within(body, target, max_line, failed)
        if spool is None:
            au = audit.audit(raw, cut, max_line)
        else:
            au = audit.audit(raw, cut, max_line, numbers=spool.numbers, total=spool.total_lines)
        size = sum(len(t) + 1 for t in au.body)
        if size <= cap or target <= cap // 4:
            break
        target -= size - cap + 256
    return au


def within(body: list[str], cap: int, max_line: int, failed: bool) -> list[str]:
    """The body cut to `cap` characters, whatever made it: the lines furthest from both
    ends go first, signal lines last (the audit then states what each marker stands for)."""
    cost = sum(min(len(t), max_line) + 1 for t in body)
    if cost <= cap:
        return body
    from tokenjuice.reduction import signals

    sig = signals.find(body, locations=failed)
    protected = [i in sig for i in range(len(body))]
    fitted, _, _, _ = window.finish_all(
        body, [1] * len(body), protected, cap, max_line, tail_bias=failed, protected_factor=1, show_repeats=False
    )
    return fitted


class Footer:
    """The body and the footer of a reduction, composed with or without a pointer."""

    __slots__ = ("au", "reasons", "shortened")

    def __init__(self, au: audit.Audit, reasons: dict[str, int], shortened: int) -> None:
        self.au = au
        self.reasons = reasons
        self.shortened = shortened

    def compose(self, run: ToolRun, facts: str | None, pointer: str | None) -> str:
        au = self.au
        foot = inline.footer(
            au.omitted, au.total, self.reasons, au.blank, au.uncovered, self.shortened, pointer if au.lossy else None
        )
        if pointer and not au.lossy:
            foot = f"[{pointer}]"
        return inline.compose(run.exit_code, facts, au.body, foot, exit_note(run))
