"""Helpers for tests that hold a faster form of a formatter's pattern to the form it
replaced: lines generated from the pieces the pattern cares about."""

from __future__ import annotations

import re

from hypothesis import strategies as st


def lines_of(*parts: str, max_size: int = 10) -> st.SearchStrategy[str]:
    """Lines made of up to `max_size` of `parts`, in any order."""
    return st.lists(st.sampled_from(parts), max_size=max_size).map("".join)


def reading(m: re.Match[str] | None) -> tuple[tuple[int, int], tuple[str | None, ...]] | None:
    """What a match tells a formatter: where it ends and what its groups hold."""
    return None if m is None else (m.span(), m.groups())
