"""Container logs (docker logs, docker compose up/logs, kubectl logs): repetition folded.

A service log is mostly the same few line shapes over and over (access lines, pool
stats, heartbeats). Lines are compared by shape: digits, hex ids and quoted values
removed, so `GET /items/12 200 4ms` and `GET /items/97 200 11ms` are one shape. The
first line of each shape stays, marked `(+N similar)` when more follow; later lines of
that shape go. Error and warning lines, tracebacks and stack frames, and `exited with
code N` lines always stay, in order. The first `head` and last `tail` lines stay as
printed: how the process started and where it is now.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction import signals
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

# Applied to all lines at once (joined by newlines), so nothing may cross a newline.
# The lookahead is every character a match can start with: at other positions `re` fails
# there without trying the branches (twice as fast as without it, though still an
# attempt at every position; the ASCII form below scans for its first character).
_SHAPE_RE = re.compile(r"(?=[\d\"'a-f])(?:\b[0-9a-f]*\d[0-9a-f]*\b|\d+|\"[^\"\n]*\"|'[^'\n]*')")
# The same matches in ASCII text, where `\d` is `[0-9]`: a hex word with a digit is hex
# letters up to its first digit, then hex; nothing to backtrack into (twice as fast).
# Led by a character class, which `re` scans for in C (a leading lookahead still costs a
# match attempt at every position); each alternative then tells by the character it
# follows whether it applies.
_ASCII_SHAPE_RE = re.compile(
    r"[0-9a-f\"'](?:(?<=\b[0-9])[0-9a-f]*+\b|(?<=\b[a-f])[a-f]*+[0-9][0-9a-f]*+\b|(?<=[0-9])[0-9]*+"
    r"|(?<=\")[^\"\n]*+\"|(?<=')[^'\n]*+')"
)
# Blank runs, their first character spelled out: a pattern that starts with a repeat
# gives `re` nothing to scan for, so it tries every position (four times the work).
_SPACE_RE = re.compile(r"[^\S\n][^\S\n]*")
_SPACE_RUN_RE = re.compile("  +")
# The ASCII characters `\s` matches besides the space and the newline.
_OTHER_SPACE = ("\t", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")
_TRACE_START_RE = re.compile(r"Traceback \(most recent call last\)|^\s*goroutine \d+ \[|panic: ")
_FRAME_RE = re.compile(r"^\s+(?:File \"|at \S|\.\.\. \d+ more)|^Caused by: |^\s{4,}\S")
_EXIT_RE = re.compile(r"exited with code [1-9]\d*|exit (?:code|status) [1-9]\d*")
_COMPOSE_CHATTER_RE = re.compile(r"^(?:Attaching to |(?:Creating|Starting|Recreating|Stopping|Removing) \S+ \.\.\.)")
_PREFIX_RE = re.compile(r"^(\S+\s*\| ?)")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    min_lines = int(fi.options.get("minLines", 40))
    if len(lines) < min_lines:
        return None
    head = int(fi.options.get("head", 5))
    tail = int(fi.options.get("tail", 12))
    n = len(lines)
    shapes: list[str | None] = [None] * n
    signal: list[bool] = [False] * n
    cands = signals.find(lines, locations=False)
    all_shapes = line_shapes(lines)
    in_trace = False
    for i, line in enumerate(lines):
        body = _PREFIX_RE.sub("", line, count=1) if "|" in line[:40] else line
        # Literals first: a regex search per line would cost most of the formatter.
        if ("Traceback" in body or "goroutine" in body or "panic: " in body) and _TRACE_START_RE.search(body):
            in_trace = True
            signal[i] = True
            continue
        if in_trace and (_FRAME_RE.match(body) or body.startswith("  ")):
            signal[i] = True
            continue
        in_trace = False
        if i in cands or ("exit" in body and _EXIT_RE.search(body)):
            signal[i] = True
            continue
        shapes[i] = all_shapes[i]
    counts: dict[str, int] = {}
    for s in shapes:
        if s is not None:
            counts[s] = counts.get(s, 0) + 1
    b = Builder(lines, fi.weights)
    seen: set[str] = set()
    folded = 0
    for i, line in enumerate(lines):
        s = shapes[i]
        if signal[i]:
            b.keep(i, protect=True)
        elif i < head or i >= n - tail:
            b.keep(i)
        elif _COMPOSE_CHATTER_RE.match(line):
            b.drop(i, "compose status")
        elif s is None or not line.strip():
            b.drop(i, "blank")
        elif s in seen:
            b.drop(i, "similar lines")
            folded += fi.weights[i]
        else:
            seen.add(s)
            more = counts[s] - 1
            b.keep(i, text=f"{line}  (+{more} similar)" if more else None)
    if not folded:
        return None  # nothing repeats: the plain window is the better view
    b.facts["line shape"] = len(counts)
    return b.build(final=True)


def line_shapes(lines: list[str]) -> list[str]:
    """Each line's shape: numbers, hex ids and quoted values as `#`, blank runs as one
    space. Two regex passes over the whole text, not two per line."""
    text = "\n".join(lines)
    shaped = (_ASCII_SHAPE_RE if text.isascii() else _SHAPE_RE).sub("#", text)
    if shaped.isascii() and not any(c in shaped for c in _OTHER_SPACE):
        return _SPACE_RUN_RE.sub(" ", shaped).split("\n")  # only spaces: a literal scan
    return _SPACE_RE.sub(" ", shaped).split("\n")
