"""A regex in Python syntax read into a small tree (characters, assertions,
alternations, repeats, backreferences), for the backtracking check. A construct the
parser does not know raises `Unreadable`."""

from __future__ import annotations

from tokenjuice.backtrack.charsets import ANYTHING, ENUMERATE, CharSet, cased

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

_I, _L, _M, _S, _U, _X, _A = 2, 4, 8, 16, 32, 64, 256
_FLAG_LETTERS = {"i": _I, "m": _M, "s": _S, "u": _U, "x": _X, "a": _A, "L": _L}


class Unreadable(Exception):
    pass


class Char:
    __slots__ = ("cs",)

    def __init__(self, cs: CharSet) -> None:
        self.cs = cs


class Assert:
    """Zero-width: an anchor (`kind` "^", "$", "A", "Z", "b", "B") or a lookaround (`body`)."""

    __slots__ = ("body", "kind")

    def __init__(self, kind: str, body: Alt | None = None) -> None:
        self.kind = kind
        self.body = body


class Alt:
    __slots__ = ("branches",)

    def __init__(self, branches: list[list[Node]]) -> None:
        self.branches = branches


class Repeat:
    __slots__ = ("body", "hi", "lo")

    def __init__(self, body: Node, lo: int, hi: int | None) -> None:
        self.body = body
        self.lo = lo
        self.hi = hi  # None: unbounded


class Backref:
    __slots__ = ()


Node = Char | Assert | Alt | Repeat | Backref


# ---------------------------------------------------------------------------- parser


class Parser:
    def __init__(self, pattern: str, flags: int) -> None:
        self.p = pattern
        self.i = 0
        self.flags = flags
        self.seen_flags = flags  # every flag in force anywhere, scoped ones included
        self._check_flags()

    def _check_flags(self) -> None:
        if self.flags & (_X | _A | _L):
            raise Unreadable  # verbose text, ASCII or locale classes: not modelled

    def peek(self) -> str | None:
        return self.p[self.i] if self.i < len(self.p) else None

    def take(self) -> str:
        if self.i >= len(self.p):
            raise Unreadable
        ch = self.p[self.i]
        self.i += 1
        return ch

    def parse(self) -> Alt:
        tree = self.alternation()
        if self.i != len(self.p):
            raise Unreadable  # an unbalanced ")"
        return tree

    def alternation(self) -> Alt:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence())
        return Alt(branches)

    def sequence(self) -> list[Node]:
        items: list[Node] = []
        while (ch := self.peek()) is not None and ch not in "|)":
            atom = self.atom()
            if atom is None:
                continue
            q = self.quantifier()
            if q is not None:
                atom = Repeat(atom, *q)
                if self.quantifier() is not None:
                    raise Unreadable  # "multiple repeat"
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

    def atom(self) -> Node | None:
        ch = self.take()
        if ch == "(":
            return self.group()
        if ch == "[":
            return Char(self.char_class())
        if ch == ".":
            return Char(ANYTHING if self.flags & _S else CharSet([(10, 10)], neg=True))
        if ch in "^$":
            return Assert(ch)
        if ch == "\\":
            return self.escape()
        if ch in "*+?":
            raise Unreadable  # "nothing to repeat"
        return Char(self.literal(ord(ch)))

    def literal(self, code: int, ranges: Sequence[tuple[int, int]] | None = None) -> CharSet:
        rs = list(ranges) if ranges is not None else [(code, code)]
        return CharSet(rs, "c" if self.flags & _I and any(self._has_cased(r) for r in rs) else "")

    @staticmethod
    def _has_cased(r: tuple[int, int]) -> bool:
        return r[1] - r[0] >= ENUMERATE or any(cased(chr(i)) for i in range(r[0], r[1] + 1))

    def escape(self) -> Node:
        ch = self.take()
        if ch in "dDwWsS":
            return Char(CharSet(cats=ch + ("c" if self.flags & _I and ch in "wWSD" else "")))
        if ch in "bBAZ":
            return Assert(ch)
        if ch in "123456789":
            return Backref()  # octal escapes like \101 too: rare, and refusing them is safe
        return Char(self.literal(self.escaped_code(ch, in_class=False)))

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
                raise Unreadable
            self.i += width
            code = int(digits, 16)
            if code > 0x10FFFF:
                raise Unreadable
            return code
        if ch == "0" or (in_class and ch in "1234567"):
            digits = ch
            while len(digits) < 3 and self.i < len(self.p) and self.p[self.i] in "01234567":
                digits += self.take()
            return int(digits, 8)
        if ch == "N":
            raise Unreadable  # a named character: rare enough to leave to the time limit
        if ch.isascii() and ch.isalnum():
            raise Unreadable  # "bad escape"
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
                    raise Unreadable
                ranges.append((lo, hi))
            else:
                ranges.append((lo, lo))
        if neg:
            # Under IGNORECASE a negated set matches fewer characters, never more.
            return CharSet(ranges, cats, neg=True)
        cs = self.literal(0, ranges) if ranges else CharSet()
        extra = "c" if self.flags & _I and any(c in "wWSD" for c in cats) else ""
        return CharSet(cs.ranges, "".join(sorted(set(cats) | cs.cats)) + extra)

    def group(self) -> Node | None:
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
                raise Unreadable
            self.skip_past(">" if kind == "<" else ")")  # the group's name
            return self.close(self.alternation()) if kind == "<" else Backref()
        if ch in "=!":
            return Assert("look", self.close(self.alternation()))
        if ch == "<" and self.peek() in ("=", "!"):
            self.i += 1
            return Assert("look", self.close(self.alternation()))
        if ch == "#":
            self.skip_past(")")
            return None
        if ch == "(":
            self.skip_past(")")
            self.close(self.alternation())
            return Backref()  # a conditional group tests a group's match
        return self.flag_group(ch)

    def skip_past(self, end: str) -> None:
        at = self.p.find(end, self.i)
        if at < 0:
            raise Unreadable
        self.i = at + 1

    def flag_group(self, ch: str) -> Node | None:
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
                raise Unreadable
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

    def close(self, node: Alt) -> Alt:
        if self.take() != ")":
            raise Unreadable
        return node
