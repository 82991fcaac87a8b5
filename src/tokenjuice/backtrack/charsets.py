"""Character sets of a regex, compared exactly where that is cheap: can one character
match both sets (`overlaps`)? Unsure means yes."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

# Ranges larger than this are not enumerated: they count as meeting every other set.
ENUMERATE = 4096


def cased(ch: str) -> bool:
    return ch.lower() != ch or ch.upper() != ch


CATEGORY: dict[str, Callable[[str], bool]] = {
    "d": str.isdecimal,
    "D": lambda ch: not ch.isdecimal(),
    "s": str.isspace,
    "S": lambda ch: not ch.isspace(),
    "w": lambda ch: ch.isalnum() or ch == "_",
    "W": lambda ch: not (ch.isalnum() or ch == "_"),
    "c": cased,  # not a regex class: what a letter stands for under IGNORECASE
}
# Pairs of classes no character belongs to both of (checked against every code point
# by the tests), and which class lies inside which.
DISJOINT = frozenset({("d", "D"), ("s", "S"), ("w", "W"), ("d", "s"), ("d", "W"), ("s", "w"), ("s", "c"), ("d", "c")})
INSIDE = {"d": "dwS", "s": "sWD", "w": "wS", "c": "cSD", "D": "D", "S": "S", "W": "W"}


class CharSet:
    """What one character position can match: ranges and classes, maybe negated."""

    __slots__ = ("cats", "neg", "ranges")

    def __init__(self, ranges: Sequence[tuple[int, int]] = (), cats: str = "", neg: bool = False) -> None:
        self.ranges = tuple(ranges)
        self.cats = frozenset(cats)
        self.neg = neg

    def __repr__(self) -> str:
        return f"CharSet({self.ranges!r}, {''.join(sorted(self.cats))!r}, neg={self.neg})"


ANYTHING = CharSet(neg=True)


def _range_meets(r: tuple[int, int], cat: str) -> bool:
    if r[1] - r[0] >= ENUMERATE:
        return True
    test = CATEGORY[cat]
    return any(test(chr(i)) for i in range(r[0], r[1] + 1))


def _cats_meet(a: str, b: str) -> bool:
    return a == b or ((a, b) not in DISJOINT and (b, a) not in DISJOINT)


def _covered(a: CharSet, b: CharSet) -> bool:
    """Is every character of the plain set `a` among `b`'s items (ignoring `b.neg`)?"""
    for lo, hi in a.ranges:
        if hi - lo >= ENUMERATE:
            return False
        for i in range(lo, hi + 1):
            ch = chr(i)
            if not any(q[0] <= i <= q[1] for q in b.ranges) and not any(CATEGORY[c](ch) for c in b.cats):
                return False
    return all(any(c2 in INSIDE[c] for c2 in b.cats) for c in a.cats)


def overlaps(a: CharSet, b: CharSet) -> bool:
    """Could one character match both? True when unsure."""
    if a.neg and b.neg:
        return True
    if a.neg:
        a, b = b, a
    if b.neg:
        return not _covered(a, b)
    for r in a.ranges:
        if any(r[0] <= q[1] and q[0] <= r[1] for q in b.ranges) or any(_range_meets(r, c) for c in b.cats):
            return True
    return any(any(_range_meets(q, c) for q in b.ranges) or any(_cats_meet(c, d) for d in b.cats) for c in a.cats)


def any_overlap(xs: Sequence[CharSet], ys: Sequence[CharSet]) -> bool:
    return any(overlaps(x, y) for x in xs for y in ys)
