"""The shell's vocabulary: token kinds, the `Token` the lexer makes, the character
classes of names and parameters, and quoting a word back."""

from __future__ import annotations

WORD = "word"
OP = "op"
REDIR = "redir"
PATTERN = "pattern"  # a `case` pattern, `(a|b)` included
ARITH = "arith"  # an arithmetic command `(( … ))` or `for (( … ))` header

META = " \t\n|&;()<>"
NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
NAME_CHARS = NAME_START | frozenset("0123456789")
SPECIAL_PARAMS = frozenset("@*#?-$!0123456789")
ANSI_C_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a", "e": "\x1b"}

# After these words (in command position) the next word is in command position too.
LEADING_KEYWORDS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "time"})


class ShellSyntaxError(ValueError):
    pass


class Token:
    """A word, operator, redirection, `case` pattern or arithmetic command.

    `start`/`end` index the token in the text it was read from. `value` is a word with
    its quotes removed (substitutions kept as written). `cmd` marks a word in command
    position. `refs` names the parameters it expands (`!` for an indirect one), `sets`
    those it assigns, `subs`
    holds the tokens of each command or process substitution in it, `arith` the text of
    each arithmetic expansion, `glob` an unquoted `*`, `?` or `[`. A `<<` redirection
    carries its here-document in `heredoc` (`heredoc_quoted`: no expansion in it).
    """

    __slots__ = (
        "arith",
        "cmd",
        "end",
        "glob",
        "heredoc",
        "heredoc_quoted",
        "kind",
        "quoted",
        "refs",
        "sets",
        "start",
        "subs",
        "value",
    )

    def __init__(self, kind: str, value: str, quoted: bool = False, start: int = 0, end: int = 0) -> None:
        self.kind = kind
        self.value = value
        self.quoted = quoted
        self.start = start
        self.end = end
        self.cmd = False
        self.refs: list[str] = []
        self.sets: list[str] = []  # parameters it assigns (`${x:=v}`, `$((x=1))`, `(( i++ ))`)
        self.subs: list[list[Token]] = []
        self.arith: list[str] = []
        self.glob = False
        self.heredoc: str | None = None
        self.heredoc_quoted = False

    def __repr__(self) -> str:
        return f"{self.kind}:{self.value!r}"


def is_assignment(word: str) -> bool:
    """`NAME=…`, `NAME+=…` or `NAME[…]=…` (the name only: a word's text before `=`)."""
    name, eq, _ = word.partition("=")
    if not eq:
        return False
    if name.endswith("+"):
        name = name[:-1]
    if name.endswith("]") and "[" in name:
        name = name[: name.index("[")]
    return bool(name) and name[0] in NAME_START and all(c in NAME_CHARS for c in name)


# What `shlex.quote` leaves unquoted (its `[\w@%+=:,./-]` with `re.ASCII`).
_SHELL_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def shell_quote(s: str) -> str:
    """`shlex.quote`: the word as the shell reads it back."""
    if not s:
        return "''"
    if _SHELL_SAFE.issuperset(s):
        return s
    return "'" + s.replace("'", "'\"'\"'") + "'"
