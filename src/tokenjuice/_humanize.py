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


def counted(n: int, label: str) -> str:
    """`3 compiler commands`, `1 compiler command`: a plural label agreed with its count.
    The last word before any parenthesis is made singular for 1 (`bodies` -> `body`,
    `lines` -> `line`; `passed`, `header`, `class` stay)."""
    if n != 1:
        return f"{n:,} {label}"
    head, paren, rest = label.partition(" (")
    words = head.split(" ")
    words[-1] = _singular(words[-1])
    return f"1 {' '.join(words)}{paren}{rest}"


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "as")):
        return word[:-1]
    return word
