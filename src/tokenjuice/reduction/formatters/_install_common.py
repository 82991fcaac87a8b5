"""Helpers shared by the package-manager formatters (pip, npm, apt, uv, …).

Not a formatter itself (no `format`). What they share: folding a long list of package
names into a few lines, and shortening a long inline version list to its newest entries.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters._common import Builder

LIST_LINE_CHARS = 600  # a folded package list is split into lines of about this size

# Words that make a line signal on any run (also inside tool output we otherwise drop).
# These two patterns define `errorish` and `warnish`, which answer the same faster.
ERRORISH_RE = re.compile(
    r"\b(?:[Ee]rror|ERROR|[Ff]atal|FATAL|[Ff]ailed|FAILED|[Ee]xception|Traceback|[Dd]enied|"
    r"[Cc]annot|[Cc]ould not|[Uu]nable to|[Nn]ot found|[Pp]anic)\b|\b\w+(?:Error|Exception):|E\d{3,}\b"
)
WARNISH_RE = re.compile(r"\b(?:[Ww]arn(?:ing)?s?|WARN(?:ING)?|[Dd]eprecat\w*|DEPRECAT\w*)\b")

# The same words with every alternative led by a literal: `re` then skips to the
# positions where one can start, where a leading `\b` made it try every position of
# every line of a verbose install. The word start the `\b` asked for is checked on the
# (rare) matches instead.
_ERROR_WORDS_RE = re.compile(
    r"(?:Error|error|ERROR|Fatal|fatal|FATAL|Failed|failed|FAILED|Exception|exception|Traceback|Denied|denied|"
    r"Cannot|cannot|Could not|could not|Unable to|unable to|Not found|not found|Panic|panic)\b"
)
# `\b\w+Error:` is `Error:` after a word character; `E\d{3,}\b` needs no word start.
_ERROR_NAMES_RE = re.compile(r"(?:Error|Exception):|E\d{3,}\b")
_WARN_WORDS_RE = re.compile(r"(?:Warn(?:ing)?s?|warn(?:ing)?s?|WARN(?:ING)?|Deprecat\w*|deprecat\w*|DEPRECAT\w*)\b")


def _word(c: str) -> bool:
    """Is `c` a word character (what `re` means by it: alphanumeric or `_`)."""
    return c.isalnum() or c == "_"


def _at_word_start(rx: re.Pattern[str], line: str) -> bool:
    """Does `rx` match somewhere that a word starts (the leftmost match that does not
    follow a word character; another alternative at the same place would follow it too)."""
    m = rx.search(line)
    while m is not None:
        at = m.start()
        if at == 0 or not _word(line[at - 1]):
            return True
        m = rx.search(line, at + 1)
    return False


def errorish(line: str) -> bool:
    """`ERRORISH_RE.search(line) is not None`, faster."""
    if _at_word_start(_ERROR_WORDS_RE, line):
        return True
    m = _ERROR_NAMES_RE.search(line)
    while m is not None:
        at = m.start()
        if line[at + 1] != "r" and line[at + 1] != "x":
            return True  # E123
        if at > 0 and _word(line[at - 1]):
            return True  # KeyError:
        m = _ERROR_NAMES_RE.search(line, at + 1)
    return False


def warnish(line: str) -> bool:
    """`WARNISH_RE.search(line) is not None`, faster."""
    return _at_word_start(_WARN_WORDS_RE, line)


def wrap_items(prefix: str, items: list[str], sep: str = " ", width: int = LIST_LINE_CHARS) -> list[str]:
    """`prefix` + items joined by `sep`, split into lines of about `width` characters."""
    out: list[str] = []
    cur = prefix
    for item in items:
        piece = item if cur == prefix else sep + item
        if len(cur) + len(piece) > width and cur != prefix:
            out.append(cur)
            cur = "  " + item
        else:
            cur += piece
    out.append(cur)
    return out


def keep_wrapped(b: Builder, i: int, prefix: str, items: list[str], *, protect: bool = True, sep: str = " ") -> None:
    """Input line i rendered as a wrapped list (its weight on the first output line)."""
    lines = wrap_items(prefix, items, sep)
    b.keep(i, protect=protect, text=lines[0])
    for extra in lines[1:]:
        b.add(extra, protect=protect)


def shorten_list(items: list[str], head: int, tail: int, what: str = "more") -> list[str]:
    """First `head` and last `tail` items with a count of those between."""
    if len(items) <= head + tail + 1:
        return items
    return [*items[:head], f"… {len(items) - head - tail} {what} …", *items[len(items) - tail :]]


class Seen:
    """Remembers texts already kept, so repeated warnings are shown once."""

    __slots__ = ("texts",)

    def __init__(self) -> None:
        self.texts: set[str] = set()

    def first(self, text: str) -> bool:
        key = text.strip()
        if key in self.texts:
            return False
        self.texts.add(key)
        return True
