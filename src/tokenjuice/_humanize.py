"""Numbers for people: sizes in binary units and counted nouns, said one way everywhere."""

from __future__ import annotations


def size(n: float) -> str:
    """`512 B`, `13.3 MB`: 1024-based units, one decimal above bytes."""
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if abs(value) < 1024:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TB"


def plural(n: int, noun: str, many: str | None = None) -> str:
    """`1 file`, `3 files`; `many` for irregular plurals (`subdirectory`/`subdirectories`)."""
    return f"{n:,} {noun if n == 1 else (many or noun + 's')}"
