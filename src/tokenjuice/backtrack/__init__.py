"""Can a regex backtrack catastrophically? A conservative proof, read from the pattern text.

Python's `re` cannot be interrupted, so only a pattern proven safe here may run in it;
any other runs in the `regex` module under a time limit (`tokenjuice.patterns`). The
proof reads the pattern itself (Python syntax) and fails closed: a construct it does
not know (verbose mode, ASCII or locale classes, a syntax error) makes the pattern
"not understood", which callers treat as risky.

A pattern is safe when:

* it has no backreference or conditional group;
* every repeat of a group (any count above one, bounded or not: `(a{1,9}){1,9}` is as
  bad as `(a+)+`) splits its text into rounds one way only: nothing inside it can be
  empty, and at every choice inside it (repeat once more or stop, take this branch or
  that one) the characters each choice can start with are disjoint, the next round's
  first character included. `(?:-[a-z]+)*` and `(\\d{1,3}\\.){3}` pass; `(a|aa)+`,
  `(x+x+)+` and `(?:a\\w*)+` do not;
* it has few ambiguous repeats: a repeat of a group or character whose characters the
  text after it can also start with (`.*` before `foo`) can give back any number of
  them, and each such repeat multiplies the work by the length of the line. With the
  scan of every start position, three of them (two when the pattern is not anchored
  at the start) make the work cubic, which a long line turns into minutes.

Character sets are compared exactly for ranges up to `charsets.ENUMERATE` characters and the
`\\d \\s \\w` classes; anything larger counts as overlapping. Under IGNORECASE a set holding
a letter stands for every character that has a case mapping.
"""

from __future__ import annotations

from tokenjuice.backtrack.charsets import ANYTHING, CharSet, any_overlap
from tokenjuice.backtrack.tree import Alt, Assert, Backref, Char, Node, Parser, Repeat, Unreadable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

NOT_UNDERSTOOD = "not understood by the backtracking check"
# Ambiguous repeats (plus one when every start position is tried) that make a pattern risky.
_MAX_DEGREE = 3
# An ambiguous repeat of at most this many rounds offers a few choices, not one per
# character; their product counts as one more ambiguous repeat per `_SMALL_CHOICES`.
_SMALL_REPEAT = 64
_SMALL_CHOICES = 64


def _first(node: Node) -> tuple[list[CharSet], bool]:
    """The sets a match of `node` can start with, and whether it can be empty."""
    if isinstance(node, Char):
        return [node.cs], False
    if isinstance(node, Assert):
        return [], True
    if isinstance(node, Repeat):
        sets, empty = _first(node.body)
        return sets, empty or node.lo == 0
    if isinstance(node, Alt):
        out: list[CharSet] = []
        empty = False
        for branch in node.branches:
            sets, e = _seq_first(branch)
            out += sets
            empty = empty or e
        return out, empty
    return [ANYTHING], True  # a backreference


def _seq_first(items: Sequence[Node]) -> tuple[list[CharSet], bool]:
    out: list[CharSet] = []
    for item in items:
        sets, empty = _first(item)
        out += sets
        if not empty:
            return out, False
    return out, True


def _follows(items: Sequence[Node], follow: list[CharSet]) -> list[list[CharSet]]:
    """For each item, the sets the text after it can start with."""
    out: list[list[CharSet]] = [[] for _ in items]
    after = follow
    for k in range(len(items) - 1, -1, -1):
        out[k] = after
        sets, empty = _first(items[k])
        after = sets + after if empty else sets
    return out


def _unique(node: Node, follow: list[CharSet]) -> bool:
    """Does `node`, followed by text starting with `follow`, match any text one way only?"""
    if isinstance(node, (Char, Assert)):
        return True
    if isinstance(node, Backref):
        return False
    if isinstance(node, Repeat):
        if node.hi == 0:
            return True
        sets, empty = _first(node.body)
        if empty:
            return False
        if (node.hi is None or node.lo < node.hi) and any_overlap(sets, follow):
            return False
        return _unique(node.body, sets + follow if node.hi != 1 else follow)
    starts = []
    for branch in node.branches:
        sets, empty = _seq_first(branch)
        starts.append(sets + follow if empty else sets)
        if not all(_unique(item, f) for item, f in zip(branch, _follows(branch, follow), strict=True)):
            return False
    return not any(any_overlap(a, b) for k, a in enumerate(starts) for b in starts[k + 1 :])


def _contains(node: Node, want: Callable[[Node], bool]) -> bool:
    if want(node):
        return True
    if isinstance(node, Repeat):
        return _contains(node.body, want)
    if isinstance(node, Alt):
        return any(_contains(item, want) for branch in node.branches for item in branch)
    if isinstance(node, Assert) and node.body is not None:
        return _contains(node.body, want)
    return False


def _alphabet(node: Node) -> list[CharSet]:
    """Every set a character matched by `node` can come from (lookarounds match none)."""
    if isinstance(node, Char):
        return [node.cs]
    if isinstance(node, Repeat):
        return _alphabet(node.body)
    if isinstance(node, Alt):
        return [cs for branch in node.branches for item in branch for cs in _alphabet(item)]
    return [] if isinstance(node, Assert) else [ANYTHING]


def _barrier(alphabet: list[CharSet], rest: Sequence[Node]) -> bool:
    """Is there, a bounded width after a repeat, a character the repeat cannot match?

    Then only the last few of the repeat's lengths can lead past that character, so
    the lengths it gives back cost a bounded amount each and multiply nothing."""
    for item in rest:
        if isinstance(item, Assert):
            continue
        if isinstance(item, Char):
            if not any_overlap(alphabet, [item.cs]):
                return True
        elif isinstance(item, Repeat) and isinstance(item.body, Char) and item.hi is not None:
            if item.lo >= 1 and not any_overlap(alphabet, [item.body.cs]):
                return True
        else:
            return False
    return False


class _Risky(Exception):
    pass


class _Cost:
    """How ambiguous a part of the pattern is: the ambiguous repeats that can give
    back any number of characters, and the product of the counts small ones can
    choose from. A sequence adds its parts' costs; an alternation costs its worst
    branch."""

    __slots__ = ("ambiguous", "choices")

    def __init__(self, ambiguous: int = 0, choices: int = 1) -> None:
        self.ambiguous = ambiguous
        self.choices = choices

    def add(self, other: _Cost) -> None:
        self.ambiguous += other.ambiguous
        self.choices *= other.choices

    def degree(self) -> int:
        """Long ambiguous repeats, and one more for every `_SMALL_CHOICES` choices."""
        degree, choices = self.ambiguous, self.choices
        while choices >= _SMALL_CHOICES:
            choices //= _SMALL_CHOICES
            degree += 1
        return degree


def _walk(node: Node, follow: list[CharSet], rest: Sequence[Node] = ()) -> _Cost:
    """How ambiguous `node` is; raises `_Risky` when it can backtrack exponentially.
    `follow`: the sets the text after it can start with; `rest`: what follows it in
    its sequence."""
    if isinstance(node, Backref):
        raise _Risky("backreference")
    if isinstance(node, Assert):
        return _walk(node.body, []) if node.body is not None else _Cost()  # a lookaround ends with its body
    if isinstance(node, Alt):
        worst = _Cost()
        for branch in node.branches:
            cost = _Cost()
            for k, (item, f) in enumerate(zip(branch, _follows(branch, follow), strict=True)):
                cost.add(_walk(item, f, branch[k + 1 :]))
            if (cost.degree(), cost.choices) > (worst.degree(), worst.choices):
                worst = cost
        return worst
    if isinstance(node, Repeat):
        sets, empty = _first(node.body)
        if node.hi is not None and node.hi <= 1:
            return _walk(node.body, follow)
        if not isinstance(node.body, Char) and (empty or not _unique(node.body, sets)):
            raise _Risky(_nesting_reason(node.body))
        cost = _walk(node.body, sets + follow)
        variable = node.hi is None or node.lo < node.hi
        if variable and any_overlap(sets, follow) and not _barrier(_alphabet(node.body), rest):
            if node.hi is None or node.hi > _SMALL_REPEAT:
                cost.ambiguous += 1
            else:
                cost.choices *= node.hi + 1
        return cost
    return _Cost()


def _nesting_reason(body: Node) -> str:
    if _contains(body, lambda n: isinstance(n, Repeat) and (n.hi is None or n.hi > 1)):
        return "nested quantifiers"
    if _contains(body, lambda n: isinstance(n, Alt) and len(n.branches) > 1):
        return "quantified alternation"
    return "ambiguous repeated group"


def _anchored(tree: Alt) -> bool:
    return all(
        bool(branch) and isinstance(branch[0], Assert) and branch[0].kind in ("^", "A") for branch in tree.branches
    )


class Syntax:
    """A pattern read by the same parser, for other analyses of its text (`prefilter`):
    `tree`, the flags in force at its end (`flags`) and anywhere in it (`seen_flags`)."""

    Char, Assert, Alt, Repeat = Char, Assert, Alt, Repeat

    def __init__(self, pattern: str, flags: int = 0) -> None:
        """Raises ValueError for a pattern the parser does not understand."""
        try:
            parser = Parser(pattern, int(flags))
            self.tree = parser.parse()
        except (Unreadable, IndexError, RecursionError) as exc:
            raise ValueError(NOT_UNDERSTOOD) from exc
        self.flags = parser.flags
        self.seen_flags = parser.seen_flags


def risk(pattern: str, flags: int = 0) -> str | None:
    """Why `pattern` (Python syntax) could backtrack catastrophically, or None when it
    provably cannot. A pattern this check cannot read is risky (`NOT_UNDERSTOOD`)."""
    try:
        tree = Parser(pattern, int(flags)).parse()
        cost = _walk(tree, [])
    except _Risky as exc:
        return str(exc)
    except (Unreadable, ValueError, IndexError, RecursionError):
        return NOT_UNDERSTOOD  # fail closed, a nesting too deep to follow included
    if cost.degree() + (0 if _anchored(tree) else 1) >= _MAX_DEGREE:
        return "several overlapping repeats"
    return None
