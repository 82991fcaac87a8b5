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

Character sets are compared exactly for ranges up to `_ENUMERATE` characters and the
`\\d \\s \\w` classes; anything larger counts as overlapping. Under IGNORECASE a set holding
a letter stands for every character that has a case mapping.
"""

from __future__ import annotations

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
# Ranges larger than this are not enumerated: they count as meeting every other set.
_ENUMERATE = 4096

_I, _L, _M, _S, _U, _X, _A = 2, 4, 8, 16, 32, 64, 256
_FLAG_LETTERS = {"i": _I, "m": _M, "s": _S, "u": _U, "x": _X, "a": _A, "L": _L}


class _Unreadable(Exception):
    pass


# ------------------------------------------------------------------ character sets


def _cased(ch: str) -> bool:
    return ch.lower() != ch or ch.upper() != ch


_CATEGORY: dict[str, Callable[[str], bool]] = {
    "d": str.isdecimal,
    "D": lambda ch: not ch.isdecimal(),
    "s": str.isspace,
    "S": lambda ch: not ch.isspace(),
    "w": lambda ch: ch.isalnum() or ch == "_",
    "W": lambda ch: not (ch.isalnum() or ch == "_"),
    "c": _cased,  # not a regex class: what a letter stands for under IGNORECASE
}
# Pairs of classes no character belongs to both of (checked against every code point
# by the tests), and which class lies inside which.
_DISJOINT = frozenset({("d", "D"), ("s", "S"), ("w", "W"), ("d", "s"), ("d", "W"), ("s", "w"), ("s", "c"), ("d", "c")})
_INSIDE = {"d": "dwS", "s": "sWD", "w": "wS", "c": "cSD", "D": "D", "S": "S", "W": "W"}


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
    if r[1] - r[0] >= _ENUMERATE:
        return True
    test = _CATEGORY[cat]
    return any(test(chr(i)) for i in range(r[0], r[1] + 1))


def _cats_meet(a: str, b: str) -> bool:
    return a == b or ((a, b) not in _DISJOINT and (b, a) not in _DISJOINT)


def _covered(a: CharSet, b: CharSet) -> bool:
    """Is every character of the plain set `a` among `b`'s items (ignoring `b.neg`)?"""
    for lo, hi in a.ranges:
        if hi - lo >= _ENUMERATE:
            return False
        for i in range(lo, hi + 1):
            ch = chr(i)
            if not any(q[0] <= i <= q[1] for q in b.ranges) and not any(_CATEGORY[c](ch) for c in b.cats):
                return False
    return all(any(c2 in _INSIDE[c] for c2 in b.cats) for c in a.cats)


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


def _any_overlap(xs: Sequence[CharSet], ys: Sequence[CharSet]) -> bool:
    return any(overlaps(x, y) for x in xs for y in ys)


# ------------------------------------------------------------------------- the tree


class _Char:
    __slots__ = ("cs",)

    def __init__(self, cs: CharSet) -> None:
        self.cs = cs


class _Assert:
    """Zero-width: an anchor (`kind` "^", "$", "A", "Z", "b", "B") or a lookaround (`body`)."""

    __slots__ = ("body", "kind")

    def __init__(self, kind: str, body: _Alt | None = None) -> None:
        self.kind = kind
        self.body = body


class _Alt:
    __slots__ = ("branches",)

    def __init__(self, branches: list[list[_Node]]) -> None:
        self.branches = branches


class _Repeat:
    __slots__ = ("body", "hi", "lo")

    def __init__(self, body: _Node, lo: int, hi: int | None) -> None:
        self.body = body
        self.lo = lo
        self.hi = hi  # None: unbounded


class _Backref:
    __slots__ = ()


_Node = _Char | _Assert | _Alt | _Repeat | _Backref


# ---------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, pattern: str, flags: int) -> None:
        self.p = pattern
        self.i = 0
        self.flags = flags
        self.seen_flags = flags  # every flag in force anywhere, scoped ones included
        self._check_flags()

    def _check_flags(self) -> None:
        if self.flags & (_X | _A | _L):
            raise _Unreadable  # verbose text, ASCII or locale classes: not modelled

    def peek(self) -> str | None:
        return self.p[self.i] if self.i < len(self.p) else None

    def take(self) -> str:
        if self.i >= len(self.p):
            raise _Unreadable
        ch = self.p[self.i]
        self.i += 1
        return ch

    def parse(self) -> _Alt:
        tree = self.alternation()
        if self.i != len(self.p):
            raise _Unreadable  # an unbalanced ")"
        return tree

    def alternation(self) -> _Alt:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence())
        return _Alt(branches)

    def sequence(self) -> list[_Node]:
        items: list[_Node] = []
        while (ch := self.peek()) is not None and ch not in "|)":
            atom = self.atom()
            if atom is None:
                continue
            q = self.quantifier()
            if q is not None:
                atom = _Repeat(atom, *q)
                if self.quantifier() is not None:
                    raise _Unreadable  # "multiple repeat"
            items.append(atom)
        return items

    def quantifier(self) -> tuple[int, int | None] | None:
        ch = self.peek()
        if ch is None or ch not in "*+?{":
            return None
        if ch == "{":
            j = self.p.find("}", self.i)
            body = self.p[self.i + 1 : j] if j > 0 else ""
            lo_s, comma, hi_s = body.partition(",")
            if j < 0 or not (lo_s.isdigit() or (comma and (lo_s == "" or lo_s.isdigit()))):
                return None  # a literal "{"
            if hi_s and not hi_s.isdigit():
                return None
            if not (lo_s.isascii() and hi_s.isascii()):
                return None
            lo = int(lo_s) if lo_s else 0
            hi = (int(hi_s) if hi_s else None) if comma else lo
            self.i = j + 1
        else:
            self.i += 1
            lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[ch]
        if self.peek() in ("?", "+"):
            self.i += 1  # lazy or possessive: the same choices, tried in another order
        return lo, hi

    def atom(self) -> _Node | None:
        ch = self.take()
        if ch == "(":
            return self.group()
        if ch == "[":
            return _Char(self.char_class())
        if ch == ".":
            return _Char(ANYTHING if self.flags & _S else CharSet([(10, 10)], neg=True))
        if ch in "^$":
            return _Assert(ch)
        if ch == "\\":
            return self.escape()
        if ch in "*+?":
            raise _Unreadable  # "nothing to repeat"
        return _Char(self.literal(ord(ch)))

    def literal(self, code: int, ranges: Sequence[tuple[int, int]] | None = None) -> CharSet:
        rs = list(ranges) if ranges is not None else [(code, code)]
        return CharSet(rs, "c" if self.flags & _I and any(self._has_cased(r) for r in rs) else "")

    @staticmethod
    def _has_cased(r: tuple[int, int]) -> bool:
        return r[1] - r[0] >= _ENUMERATE or any(_cased(chr(i)) for i in range(r[0], r[1] + 1))

    def escape(self) -> _Node:
        ch = self.take()
        if ch in "dDwWsS":
            return _Char(CharSet(cats=ch + ("c" if self.flags & _I and ch in "wWSD" else "")))
        if ch in "bBAZ":
            return _Assert(ch)
        if ch in "123456789":
            return _Backref()  # octal escapes like \101 too: rare, and refusing them is safe
        return _Char(self.literal(self.escaped_code(ch, in_class=False)))

    def escaped_code(self, ch: str, *, in_class: bool) -> int:
        """The character an escape stands for (after the backslash and `ch`)."""
        simple = {"n": 10, "t": 9, "r": 13, "f": 12, "v": 11, "a": 7}
        if ch in simple:
            return simple[ch]
        if in_class and ch == "b":
            return 8
        if ch in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[ch]
            digits = self.p[self.i : self.i + width]
            if len(digits) != width or any(c not in "0123456789abcdefABCDEF" for c in digits):
                raise _Unreadable
            self.i += width
            code = int(digits, 16)
            if code > 0x10FFFF:
                raise _Unreadable
            return code
        if ch == "0" or (in_class and ch in "1234567"):
            digits = ch
            while len(digits) < 3 and self.i < len(self.p) and self.p[self.i] in "01234567":
                digits += self.take()
            return int(digits, 8)
        if ch == "N":
            raise _Unreadable  # a named character: rare enough to leave to the time limit
        if ch.isascii() and ch.isalnum():
            raise _Unreadable  # "bad escape"
        return ord(ch)

    def char_class(self) -> CharSet:
        neg = False
        if self.peek() == "^":
            neg = True
            self.i += 1
        ranges: list[tuple[int, int]] = []
        cats = ""
        first = True
        while True:
            ch = self.take()
            if ch == "]" and not first:
                break
            first = False
            if ch == "\\":
                esc = self.take()
                if esc in "dDwWsS":
                    cats += esc
                    continue
                lo = self.escaped_code(esc, in_class=True)
            else:
                lo = ord(ch)
            if self.peek() == "-" and self.p[self.i + 1 : self.i + 2] not in ("]", ""):
                self.i += 1
                end = self.take()
                hi = self.escaped_code(self.take(), in_class=True) if end == "\\" else ord(end)
                if hi < lo:
                    raise _Unreadable
                ranges.append((lo, hi))
            else:
                ranges.append((lo, lo))
        if neg:
            # Under IGNORECASE a negated set matches fewer characters, never more.
            return CharSet(ranges, cats, neg=True)
        cs = self.literal(0, ranges) if ranges else CharSet()
        extra = "c" if self.flags & _I and any(c in "wWSD" for c in cats) else ""
        return CharSet(cs.ranges, "".join(sorted(set(cats) | cs.cats)) + extra)

    def group(self) -> _Node | None:
        if self.peek() != "?":
            return self.close(self.alternation())
        self.i += 1
        ch = self.take()
        if ch == ":":
            return self.close(self.alternation())
        if ch == ">":
            return self.close(self.alternation())  # atomic: fewer choices, never more
        if ch == "P":
            kind = self.take()
            if kind not in "<=":
                raise _Unreadable
            self.skip_past(">" if kind == "<" else ")")  # the group's name
            return self.close(self.alternation()) if kind == "<" else _Backref()
        if ch in "=!":
            return _Assert("look", self.close(self.alternation()))
        if ch == "<" and self.peek() in ("=", "!"):
            self.i += 1
            return _Assert("look", self.close(self.alternation()))
        if ch == "#":
            self.skip_past(")")
            return None
        if ch == "(":
            self.skip_past(")")
            self.close(self.alternation())
            return _Backref()  # a conditional group tests a group's match
        return self.flag_group(ch)

    def skip_past(self, end: str) -> None:
        at = self.p.find(end, self.i)
        if at < 0:
            raise _Unreadable
        self.i = at + 1

    def flag_group(self, ch: str) -> _Node | None:
        on = off = 0
        sign = 1
        while ch not in ":)":
            if ch == "-":
                sign = -1
            elif ch in _FLAG_LETTERS:
                if sign > 0:
                    on |= _FLAG_LETTERS[ch]
                else:
                    off |= _FLAG_LETTERS[ch]
            else:
                raise _Unreadable
            ch = self.take()
        saved = self.flags
        self.flags = (self.flags | on) & ~off
        self.seen_flags |= self.flags
        self._check_flags()
        if ch == ")":
            return None  # global flags (only allowed at the start): they stay set
        node = self.close(self.alternation())
        self.flags = saved
        return node

    def close(self, node: _Alt) -> _Alt:
        if self.take() != ")":
            raise _Unreadable
        return node


# -------------------------------------------------------------------------- analysis


def _first(node: _Node) -> tuple[list[CharSet], bool]:
    """The sets a match of `node` can start with, and whether it can be empty."""
    if isinstance(node, _Char):
        return [node.cs], False
    if isinstance(node, _Assert):
        return [], True
    if isinstance(node, _Repeat):
        sets, empty = _first(node.body)
        return sets, empty or node.lo == 0
    if isinstance(node, _Alt):
        out: list[CharSet] = []
        empty = False
        for branch in node.branches:
            sets, e = _seq_first(branch)
            out += sets
            empty = empty or e
        return out, empty
    return [ANYTHING], True  # a backreference


def _seq_first(items: Sequence[_Node]) -> tuple[list[CharSet], bool]:
    out: list[CharSet] = []
    for item in items:
        sets, empty = _first(item)
        out += sets
        if not empty:
            return out, False
    return out, True


def _follows(items: Sequence[_Node], follow: list[CharSet]) -> list[list[CharSet]]:
    """For each item, the sets the text after it can start with."""
    out: list[list[CharSet]] = [[] for _ in items]
    after = follow
    for k in range(len(items) - 1, -1, -1):
        out[k] = after
        sets, empty = _first(items[k])
        after = sets + after if empty else sets
    return out


def _unique(node: _Node, follow: list[CharSet]) -> bool:
    """Does `node`, followed by text starting with `follow`, match any text one way only?"""
    if isinstance(node, (_Char, _Assert)):
        return True
    if isinstance(node, _Backref):
        return False
    if isinstance(node, _Repeat):
        if node.hi == 0:
            return True
        sets, empty = _first(node.body)
        if empty:
            return False
        if (node.hi is None or node.lo < node.hi) and _any_overlap(sets, follow):
            return False
        return _unique(node.body, sets + follow if node.hi != 1 else follow)
    starts = []
    for branch in node.branches:
        sets, empty = _seq_first(branch)
        starts.append(sets + follow if empty else sets)
        if not all(_unique(item, f) for item, f in zip(branch, _follows(branch, follow), strict=True)):
            return False
    return not any(_any_overlap(a, b) for k, a in enumerate(starts) for b in starts[k + 1 :])


def _contains(node: _Node, want: Callable[[_Node], bool]) -> bool:
    if want(node):
        return True
    if isinstance(node, _Repeat):
        return _contains(node.body, want)
    if isinstance(node, _Alt):
        return any(_contains(item, want) for branch in node.branches for item in branch)
    if isinstance(node, _Assert) and node.body is not None:
        return _contains(node.body, want)
    return False


def _alphabet(node: _Node) -> list[CharSet]:
    """Every set a character matched by `node` can come from (lookarounds match none)."""
    if isinstance(node, _Char):
        return [node.cs]
    if isinstance(node, _Repeat):
        return _alphabet(node.body)
    if isinstance(node, _Alt):
        return [cs for branch in node.branches for item in branch for cs in _alphabet(item)]
    return [] if isinstance(node, _Assert) else [ANYTHING]


def _barrier(alphabet: list[CharSet], rest: Sequence[_Node]) -> bool:
    """Is there, a bounded width after a repeat, a character the repeat cannot match?

    Then only the last few of the repeat's lengths can lead past that character, so
    the lengths it gives back cost a bounded amount each and multiply nothing."""
    for item in rest:
        if isinstance(item, _Assert):
            continue
        if isinstance(item, _Char):
            if not _any_overlap(alphabet, [item.cs]):
                return True
        elif isinstance(item, _Repeat) and isinstance(item.body, _Char) and item.hi is not None:
            if item.lo >= 1 and not _any_overlap(alphabet, [item.body.cs]):
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


def _walk(node: _Node, follow: list[CharSet], rest: Sequence[_Node] = ()) -> _Cost:
    """How ambiguous `node` is; raises `_Risky` when it can backtrack exponentially.
    `follow`: the sets the text after it can start with; `rest`: what follows it in
    its sequence."""
    if isinstance(node, _Backref):
        raise _Risky("backreference")
    if isinstance(node, _Assert):
        return _walk(node.body, []) if node.body is not None else _Cost()  # a lookaround ends with its body
    if isinstance(node, _Alt):
        worst = _Cost()
        for branch in node.branches:
            cost = _Cost()
            for k, (item, f) in enumerate(zip(branch, _follows(branch, follow), strict=True)):
                cost.add(_walk(item, f, branch[k + 1 :]))
            if (cost.degree(), cost.choices) > (worst.degree(), worst.choices):
                worst = cost
        return worst
    if isinstance(node, _Repeat):
        sets, empty = _first(node.body)
        if node.hi is not None and node.hi <= 1:
            return _walk(node.body, follow)
        if not isinstance(node.body, _Char) and (empty or not _unique(node.body, sets)):
            raise _Risky(_nesting_reason(node.body))
        cost = _walk(node.body, sets + follow)
        variable = node.hi is None or node.lo < node.hi
        if variable and _any_overlap(sets, follow) and not _barrier(_alphabet(node.body), rest):
            if node.hi is None or node.hi > _SMALL_REPEAT:
                cost.ambiguous += 1
            else:
                cost.choices *= node.hi + 1
        return cost
    return _Cost()


def _nesting_reason(body: _Node) -> str:
    if _contains(body, lambda n: isinstance(n, _Repeat) and (n.hi is None or n.hi > 1)):
        return "nested quantifiers"
    if _contains(body, lambda n: isinstance(n, _Alt) and len(n.branches) > 1):
        return "quantified alternation"
    return "ambiguous repeated group"


def _anchored(tree: _Alt) -> bool:
    return all(
        bool(branch) and isinstance(branch[0], _Assert) and branch[0].kind in ("^", "A") for branch in tree.branches
    )


class Syntax:
    """A pattern read by the same parser, for other analyses of its text (`prefilter`):
    `tree`, the flags in force at its end (`flags`) and anywhere in it (`seen_flags`)."""

    Char, Assert, Alt, Repeat = _Char, _Assert, _Alt, _Repeat

    def __init__(self, pattern: str, flags: int = 0) -> None:
        """Raises ValueError for a pattern the parser does not understand."""
        try:
            parser = _Parser(pattern, int(flags))
            self.tree = parser.parse()
        except (_Unreadable, IndexError, RecursionError) as exc:
            raise ValueError(NOT_UNDERSTOOD) from exc
        self.flags = parser.flags
        self.seen_flags = parser.seen_flags


def risk(pattern: str, flags: int = 0) -> str | None:
    """Why `pattern` (Python syntax) could backtrack catastrophically, or None when it
    provably cannot. A pattern this check cannot read is risky (`NOT_UNDERSTOOD`)."""
    try:
        tree = _Parser(pattern, int(flags)).parse()
        cost = _walk(tree, [])
    except _Risky as exc:
        return str(exc)
    except (_Unreadable, ValueError, IndexError, RecursionError):
        return NOT_UNDERSTOOD  # fail closed, a nesting too deep to follow included
    if cost.degree() + (0 if _anchored(tree) else 1) >= _MAX_DEGREE:
        return "several overlapping repeats"
    return None
