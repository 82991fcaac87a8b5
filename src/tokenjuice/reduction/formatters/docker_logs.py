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

# Applied to all lines at once (joined by newlines), so nothing may cross a newline:
# hex words holding a digit, numbers, quoted values.
_SHAPE_RE = re.compile(r"\b[0-9a-f]*\d[0-9a-f]*\b|\d+|\"[^\"\n]*\"|'[^'\n]*'")
# Blank runs within a line.
_SPACE_RE = re.compile(r"[^\S\n]+")
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
    shaped = _SHAPE_RE.sub("#", "\n".join(lines))
    return _SPACE_RE.sub(" ", shaped).split("\n")
