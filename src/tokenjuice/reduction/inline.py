"""The text the model sees: `exit N`, a facts line, the body, one accounting footer."""

from __future__ import annotations

from tokenjuice._humanize import counted
from tokenjuice.reduction.audit import describe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def exit_line(exit_code: int | None, note: str | None = None) -> str | None:
    if exit_code is None or exit_code == 0:
        return None
    return f"exit {exit_code} ({note})" if note else f"exit {exit_code}"


def footer(
    omitted: int,
    total: int,
    reasons: Mapping[str, int],
    blank: int = 0,
    unmarked: list[tuple[int, int]] | None = None,
    shortened: int = 0,
    pointer: str | None = None,
) -> str | None:
    """`[… 4,210 of 5,000 lines omitted (3,900 noise, 310 middle): lines 2-3900 · full output: tokenjuice cat ID]`.

    `omitted` and `total` are raw lines (blank ones included, as `tokenjuice cat`
    numbers them); `reasons` counts the non-blank ones by why they went, shown with
    their numbers when those add up to `omitted` (with `blank`), by name otherwise.
    `unmarked`: the omitted ranges no marker in the body states.
    """
    parts: list[str] = []
    if omitted:
        head = f"… {omitted:,} of {total:,} line{'s' if total != 1 else ''} omitted"
        named = [(r, n) for r, n in reasons.items() if n]
        if named:
            if sum(n for _, n in named) + blank == omitted:
                items = [counted(n, r) for r, n in named] + ([f"{blank:,} blank"] if blank else [])
            else:
                items = [r for r, _ in named]
            head += f" ({', '.join(items)})"
        if unmarked:
            head += f": {describe(unmarked)}"
        parts.append(head)
    if shortened:
        parts.append(f"{shortened:,} long line{'s' if shortened != 1 else ''} shortened")
    if pointer:
        parts.append(pointer)
    if not parts:
        return None
    return "[" + " · ".join(parts) + "]"


def compose(
    exit_code: int | None,
    facts: str | None,
    body: list[str],
    foot: str | None = None,
    exit_note: str | None = None,
) -> str:
    parts: list[str] = []
    head = exit_line(exit_code, exit_note)
    if head:
        parts.append(head)
    if facts:
        parts.append(facts)
    parts.extend(body)
    if foot:
        parts.append(foot)
    return "\n".join(parts)
