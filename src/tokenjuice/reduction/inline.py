"""The text the model sees: `exit N`, a facts line, the body, one accounting footer."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def exit_line(exit_code: int | None, note: str | None = None) -> str | None:
    if exit_code is None or exit_code == 0:
        return None
    return f"exit {exit_code} ({note})" if note else f"exit {exit_code}"


def footer(omitted: Mapping[str, int], shortened: int = 0, pointer: str | None = None) -> str | None:
    """`[… 4,210 lines omitted (3,900 noise, 310 middle) · full output: tokenjuice cat ID]`."""
    total = sum(omitted.values())
    parts: list[str] = []
    if total:
        reasons = ", ".join(f"{n:,} {reason}" for reason, n in omitted.items() if n)
        parts.append(f"… {total:,} line{'s' if total != 1 else ''} omitted ({reasons})")
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
    omitted: Mapping[str, int],
    shortened: int = 0,
    pointer: str | None = None,
    exit_note: str | None = None,
) -> str:
    parts: list[str] = []
    head = exit_line(exit_code, exit_note)
    if head:
        parts.append(head)
    if facts:
        parts.append(facts)
    parts.extend(body)
    foot = footer(omitted, shortened, pointer)
    if foot:
        parts.append(foot)
    return "\n".join(parts)
