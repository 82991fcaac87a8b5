"""Which lines carry signal regardless of the tool: errors, failures, locations, warnings.

These patterns are the safety net of every reduction: on a failing run no line that
matches them is dropped by the head/tail window, and on the generic path errors and
warnings survive even on success.

Speed matters (they run over every omitted line of large outputs), so scanning is two
stages: cheap whole-text searches find candidate lines (lower-cased keyword stems in
one Aho-Corasick pass; location shapes in regexes with literal prefixes, which `re`
scans fast), then the precise per-line patterns (word boundaries, case rules) confirm
them.
Patterns are compiled on first use.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate, repeat
from operator import itemgetter

from tokenjuice import _re as re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

_ERROR_WORDS = (
    r"error|errors|err!|fatal|panic|panicked|exception|traceback|failed|failure|failures|fail|"
    r"abort|aborted|segmentation fault|core dumped|critical|undefined reference|cannot find|"
    r"could not|couldn't|unable to|no such file|permission denied|timed out|not found|refused|"
    r"denied|unresolved|unexpected|invalid|missing|crash|crashed|killed|oom|exit code|exit status"
)
# The case-sensitive branches of ERROR_PATTERN.
_CLASS_SUFFIXES = ("Error", "Exception", "Exit", "Interrupt", "Failure")
_CLASS_NAME = rf"\b[A-Z]\w*(?:{'|'.join(_CLASS_SUFFIXES)})\b"  # ValueError, SystemExit
_PYTEST_E = r"^E(?:\s|$)"  # pytest failure detail lines
_MARK_CHARS = "✗✘✖×"
_MARKS = rf"[{_MARK_CHARS}]\s"
_ASSERT = r"\bassert\w*\b"
_CASED_ERROR = f"{_CLASS_NAME}|{_PYTEST_E}|{_MARKS}|{_ASSERT}"
ERROR_PATTERN = rf"(?i:\b(?:{_ERROR_WORDS})\b)|{_CASED_ERROR}"
LOCATION_PATTERN = (
    r"\.[A-Za-z][\w+-]{0,7}:\d+(?::\d+)?\b"  # path/file.ext:line[:col]
    r"|\.[A-Za-z][\w+-]{0,7}\(\d+,\d+\)"  # tsc / msbuild: file.ts(line,col)
    r"|\.[A-Za-z][\w+-]{0,7}:\[\d+,\d+\]"  # javac via maven: File.java:[line,col]
    r"|\", line \d+"  # python: File "x.py", line 12
    r"|^\s*--> "  # rustc: --> src/main.rs:3:5
    r"|:\d+:\d+\)?$"  # js stack frames: at fn (file.js:10:5)
    r"|\bline \d+\b"
)
WARNING_PATTERN = r"(?i:\bwarn(?:ing|ings)?\b|\bdeprecat\w*)"
_WARNING_WORDS = ("warn", "warning", "warnings")

# Lower-case stems: a line can only match the patterns above if it contains one.
_ERROR_STEMS = (
    "err",
    "fail",
    "fatal",
    "panic",
    "exception",
    "traceback",
    "abort",
    "segmentation",
    "core dumped",
    "critical",
    "undefined",
    "cannot",
    "could not",
    "couldn't",
    "unable to",
    "no such file",
    "denied",
    "timed out",
    "not found",
    "refused",
    "unresolved",
    "unexpected",
    "invalid",
    "missing",
    "crash",
    "killed",
    "oom",
    "exit",
    "interrupt",
    "assert",
    "✗",
    "✘",
    "✖",
    "×",
)
_WARNING_STEMS = ("warn", "deprecat")
# Location shapes, each with a literal start so `re` can skip ahead quickly.
_LOCATION_PROBES = (
    r"\.[A-Za-z][\w+-]{0,7}(?::\d|\(\d|:\[\d)",
    r"\", line \d",
    r"--> ",
    r":\d+:\d+\)?$",
    r"line \d",
)

SCAN_HEAD = 4096
SCAN_TAIL = 1024
# Up to this many lines are checked with the precise pattern directly.
_DIRECT_LINES = 32

_cache: dict[str, re.Pattern[str]] = {}


def _rx(name: str) -> re.Pattern[str]:
    rx = _cache.get(name)
    if rx is None:
        if name == "diagnostic":
            rx = re.compile(f"{ERROR_PATTERN}|{LOCATION_PATTERN}|{WARNING_PATTERN}", re.MULTILINE)
        elif name == "error_warning":
            rx = re.compile(f"{ERROR_PATTERN}|{WARNING_PATTERN}", re.MULTILINE)
        elif name == "error":
            rx = re.compile(ERROR_PATTERN, re.MULTILINE)
        elif name == "stems_ew":
            # (Without ahocorasick_rs only: see `_stem_lines`.) Every branch starts with
            # a literal, so `re` skips non-candidate positions with a first-character
            # set; an anchored branch here would lose that.
            rx = re.compile(_trie((*_ERROR_STEMS, *_WARNING_STEMS)))
        elif name == "lower_error":
            # The case-insensitive part of ERROR_PATTERN, for lower-cased ASCII text: as
            # a case-sensitive trie `re` tests one literal per branch, not every fold.
            rx = re.compile(rf"\b(?:{_trie(_ERROR_WORDS.split('|'))})\b")
        elif name == "lower_error_warning":
            rx = re.compile(rf"\b(?:{_trie([*_ERROR_WORDS.split('|'), *_WARNING_WORDS])})\b|\bdeprecat")
        elif name == "class_name":
            rx = re.compile(_CLASS_NAME)
        elif name == "pytest_e":
            rx = re.compile(_PYTEST_E, re.MULTILINE)
        elif name == "marks":
            rx = re.compile(_MARKS)
        elif name == "assert":
            rx = re.compile(_ASSERT)
        elif name == "location":
            rx = re.compile(LOCATION_PATTERN, re.MULTILINE)
        elif name == "locations":
            rx = re.compile("|".join(f"(?:{p})" for p in _LOCATION_PROBES), re.MULTILINE)
        else:  # pragma: no cover - internal names only
            raise KeyError(name)
        _cache[name] = rx
    return rx


def _trie(words: Iterable[str]) -> str:
    """An alternation factored by first character (fewer branch tries per position)."""
    by: dict[str, list[str]] = {}
    for w in words:
        by.setdefault(w[0], []).append(w[1:])
    parts = []
    for ch, rests in sorted(by.items()):
        # Longest first; ties by text so the pattern (a key of the pattern-facts cache)
        # is the same string in every process, whatever the hash seed.
        alts = sorted(set(rests), key=lambda a: (-len(a), a))
        inner = "|".join(re.escape(a) for a in alts if a)
        opt = "?" if "" in alts else ""
        parts.append(f"{re.escape(ch)}(?:{inner}){opt}" if inner else re.escape(ch))
    return "|".join(parts)


def scan_window(line: str) -> str:
    """A very long line is judged by its head and tail only (bounded work per line)."""
    if len(line) <= SCAN_HEAD + SCAN_TAIL:
        return line
    return line[:SCAN_HEAD] + "\n" + line[-SCAN_TAIL:]


# The letters `re` matches case-insensitively with an ASCII letter whose `str.lower`
# is not that letter (found by trying every code point): `ſ` is an `s` to `re`.
_FOLDS = ("\u0130", "\u0131", "\u017f")


def _has_fold(text: str) -> bool:
    return any(c in text for c in _FOLDS)


def _matches(text: str, *, warnings: bool, locations: bool) -> bool:
    """Does the precise pattern (errors, plus warnings and/or locations) match `text`?

    The patterns' case-insensitive alternations with word boundaries are slow in `re`:
    it tries every branch at every position of a line. They are
    matched in two parts instead, with the same answer: the keywords case-sensitively
    on the lower-cased text, the case-sensitive branches on the text itself. That holds
    for every character but `İ`, `ı` and `ſ` (`re` folds them to ASCII letters,
    `str.lower` does not; found by trying every code point, as was that lower-casing
    keeps what `\\w` matches): text with one of those takes the full pattern.
    """
    ascii_text = text.isascii()
    if ascii_text or not _has_fold(text):
        lower = _rx("lower_error_warning" if warnings else "lower_error")
        return lower.search(text.lower()) is not None or _cased(text, locations, ascii_text)
    name = "diagnostic" if locations else ("error_warning" if warnings else "error")
    return _rx(name).search(text) is not None


def _cased(text: str, locations: bool, ascii_text: bool) -> bool:
    """The case-sensitive branches (and locations), each tried only when the text holds
    what a match of it must contain."""
    if _has_class_suffix(text) and _rx("class_name").search(text) is not None:
        return True
    if (text[:1] == "E" or "\nE" in text) and _rx("pytest_e").search(text) is not None:
        return True
    if "assert" in text and _rx("assert").search(text) is not None:
        return True
    if not ascii_text and any(c in text for c in _MARK_CHARS) and _rx("marks").search(text) is not None:
        return True
    return locations and _rx("locations").search(text) is not None and _rx("location").search(text) is not None


def _has_class_suffix(text: str) -> bool:
    # _CLASS_SUFFIXES spelt out: a chain of `in` costs a third of `any()` over them.
    return "Error" in text or "Exception" in text or "Exit" in text or "Interrupt" in text or "Failure" in text


def is_diagnostic(line: str) -> bool:
    return _matches(scan_window(line), warnings=True, locations=True)


def is_error_or_warning(line: str) -> bool:
    return _matches(scan_window(line), warnings=True, locations=False)


def is_error(line: str) -> bool:
    return _matches(scan_window(line), warnings=False, locations=False)


def find(
    lines: list[str], indices: list[int] | None = None, *, locations: bool = True, warnings: bool = True
) -> set[int]:
    """Indices (into `lines`) of signal lines among `indices` (default: all).

    With `locations`, `file:line` shapes count too (failing runs); without, only errors
    and warnings (successful runs on the generic path). Without `warnings` (and without
    `locations`), the lines `is_error` accepts.
    """
    warnings = warnings or locations
    idx = list(range(len(lines))) if indices is None else indices
    if not idx:
        return set()
    parts = lines if indices is None else [lines[i] for i in idx]
    if len(parts) <= _DIRECT_LINES:
        # A few lines (a formatter's output): the precise patterns alone.
        return {
            i
            for i, p in zip(idx, parts, strict=True)
            if _matches(scan_window(p), warnings=warnings, locations=locations)
        }
    if max(map(len, parts)) > SCAN_HEAD + SCAN_TAIL:
        parts = [scan_window(p) for p in parts]
    offsets = _offsets(parts)
    text = "\n".join(parts)
    candidates = _worded(parts, text, offsets)
    # pytest detail lines ("E   +  where …") may carry no keyword at all.
    if text[:1] == "E":
        candidates.add(0)
    j = text.find("\nE")
    while j >= 0:
        candidates.add(bisect_right(offsets, j + 1) - 1)
        j = text.find("\nE", j + 1)
    located: set[int] = set()
    if locations:
        # A line with a location shape is a signal if the precise location pattern
        # matches it, whatever else it holds: that one search settles most of them.
        _lines_with(_rx("locations"), text, offsets, located)
        location = _rx("location").search
        located = {k for k in located if location(parts[k]) is not None}
        candidates.difference_update(located)
    found = located | {k for k in candidates if _matches(parts[k], warnings=warnings, locations=locations)}
    return {idx[k] for k in found}


def worded(lines: list[str]) -> set[int]:
    """Indices of the lines that hold an error or warning word stem, or a letter `re`
    folds to one: every line (and every part of a line) that `is_error_or_warning`
    accepts is among them, but for a pytest `E` line, which needs no word."""
    return _worded(lines, "\n".join(lines), _offsets(lines)) if lines else set()


def _worded(parts: list[str], text: str, offsets: list[int]) -> set[int]:
    """`worded`, given the parts joined and where each starts."""
    out: set[int] = set()
    lowered = text.lower()
    low_offsets = offsets
    if len(lowered) != len(text):
        # Some letters lower-case to two (`İ`): positions then differ, count them apart.
        low_parts = [p.lower() for p in parts]
        low_offsets = _offsets(low_parts)
        lowered = "\n".join(low_parts)
    _stem_lines(lowered, low_offsets, out)
    if not text.isascii() and _has_fold(text):
        out.update(k for k, p in enumerate(parts) if _has_fold(p))
    return out


def _offsets(parts: list[str]) -> list[int]:
    """Where each part starts in the parts joined by newlines."""
    ends = list(accumulate(map((1).__add__, map(len, parts)), initial=0))
    ends.pop()
    return ends


def _stem_lines(lowered: str, offsets: list[int], out: set[int]) -> None:
    """Add to `out` the lines of `lowered` that hold an error or warning stem.

    One Aho-Corasick pass over all the stems (`ahocorasick_rs`, a dependency): the
    `stems_ew` regex tries a branch at nearly every position of English text; the
    automaton reads each character once. Every line holding a stem is reported:
    matches never span a newline, and leftmost-first matching finds each line's first
    stem. Without the automaton, the regex."""
    from tokenjuice.reduction.linematch import automaton

    ac = automaton((*_ERROR_STEMS, *_WARNING_STEMS))
    if ac is None:  # pragma: no cover - ahocorasick_rs is a declared dependency
        _lines_with(_rx("stems_ew"), lowered, offsets, out)
        return
    if lowered.isascii():
        found = ac[0].find_matches_as_indexes(lowered.encode("ascii"))
    else:
        found = ac[1]().find_matches_as_indexes(lowered)
    if found:
        out.update(map((-1).__add__, map(bisect_right, repeat(offsets), map(itemgetter(1), found))))


def _lines_with(rx: re.Pattern[str], text: str, offsets: list[int], out: set[int]) -> None:
    """Add to `out` the lines of `text` (starting at `offsets`) where `rx` matches: one
    search per such line, resumed at the next line (a line with many hits costs one)."""
    search = rx.search
    n = len(offsets)
    m = search(text)
    while m is not None:
        k = bisect_right(offsets, m.start()) - 1
        out.add(k)
        if k + 1 >= n:
            return
        m = search(text, offsets[k + 1])
