"""The promises every reduction keeps, checked from the outside (shared by the fixture,
property and real-command tests).

Independent of the engine's own audit: the raw output is split the way `tokenjuice cat`
numbers it, the text is read as an agent reads it (its lines, and the line ranges it
states), and each promise is checked against that:

- the exit code is stated first when it is not 0;
- a text that is not the raw output itself pays for itself (100 estimated tokens and a
  quarter of them saved), else it is the raw output byte for byte after `exit N`;
- every non-blank raw line is in the text or inside a raw line range the text states
  (no silent drop), and a marker's count is the size of the ranges it lists;
- the body stays within the budget times the stated factor;
- `linesTotal` is the raw line count, and kept + omitted add up to it;
- with a store, a lossy text names its handle and the handle returns the raw bytes.
"""

from __future__ import annotations

import re
from typing import Any

from tokenjuice.reduction.normalize import normalize
from tokenjuice.tokens import estimate

BUDGET_CHARS = 12_000
FACTOR = 4
FILE_READ_FACTOR = 8
# Header, footer and markers on top of the body.
SLACK = 3_000

_LIST = r"(\d+(?:-\d+)?(?:, \d+(?:-\d+)?)*)"
STATED = re.compile(rf"\blines? {_LIST}")
MARKER = re.compile(r"^\s*… ([\d,]+) [^()]*?omitted \((lines [^()]*)\) …$")
REPEAT = re.compile(r" \(×[\d,]+\)$")
HANDLE = re.compile(r"tokenjuice cat ([0-9a-f]{12})")


def raw_lines(raw: str) -> list[str]:
    lines = raw.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def stated_ranges(text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for m in STATED.finditer(text):
        for part in m.group(1).split(", "):
            a, _, b = part.partition("-")
            out.append((int(a), int(b or a)))
    return out


def check(raw: str, red: Any, *, exit_code: int | None, store: Any = None, factor: int = FACTOR) -> None:
    """Assert every promise for reduction `red` of `raw` (see the module docstring)."""
    text = red.text
    head = f"exit {exit_code}" if exit_code else None
    if head:
        assert text.startswith(head), "exit code not stated first"
    else:
        assert not text.startswith("exit "), "exit line on a successful run"
    body = text[len(head) + 1 :] if head and text.startswith(head + "\n") else text
    if head and text == head:
        body = ""
    lines = raw_lines(raw)
    assert red.lines_total == len(lines), (red.lines_total, len(lines))
    assert red.lines_kept + red.lines_omitted == red.lines_total
    if body == raw:
        return  # the raw output itself: every promise holds trivially
    raw_tokens = estimate(raw) + (estimate(head) + 1 if head else 0)
    saved = raw_tokens - estimate(text)
    assert saved >= 100 and saved >= raw_tokens * 0.25, f"a text saving {saved} of {raw_tokens} tokens"
    assert len(body) <= BUDGET_CHARS * factor + SLACK, f"body of {len(body)} chars"
    shown = {REPEAT.sub("", ln.rstrip()) for ln in text.split("\n")}
    ranges = stated_ranges(text)
    starts = sorted(ranges)
    missing = []
    for i, line in enumerate(lines, start=1):
        key = normalize(line).rstrip()
        if not key.strip() or key in shown:
            continue
        if not any(a <= i <= b for a, b in starts):
            missing.append(i)
    assert not missing, f"raw lines neither shown nor in a stated range: {missing[:10]} of {len(missing)}"
    for ln in text.split("\n"):
        m = MARKER.match(ln)
        if m:
            n = int(m.group(1).replace(",", ""))
            if " in " in m.group(2):
                continue  # a span of many ranges: the count is of the lines in them
            size = sum(b - a + 1 for a, b in stated_ranges(m.group(2)))
            assert n == size, f"marker counts {n} lines, its ranges hold {size}: {ln}"
    if store is not None and red.lossy:
        handles = HANDLE.findall(text)  # the footer's is the last (the output may quote others)
        assert handles, "a lossy text names no handle"
        assert handles[-1] == red.artifact
        assert store.read(red.artifact) == raw.encode("utf-8", "surrogateescape"), (
            "the handle does not give the raw output"
        )
