"""Text clean-up steps: terminal escapes, progress redraws, blank edges, repeats."""

from __future__ import annotations

from tokenjuice import _re as re

# Patterns are compiled on first use (`re` keeps them): most outputs need none of them.
# CSI, OSC (hyperlinks, titles; BEL or ST terminated), DCS/SOS/PM/APC strings, and
# two-byte escapes. An unterminated OSC loses only its introducer. Led by the escape
# character, so `re` skips straight to each one.
_ANSI_7BIT = (
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]"
    r"|\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|[PX^_][^\x1b]*\x1b\\"
    r"|[@-Z\\-_]"
    r"|[()*+][0-~]"
    r"|[=>78c])"
)
# With the 8-bit CSI, for text that holds one (`re` then scans for either character).
_ANSI = _ANSI_7BIT + r"|\x9b[0-?]*[ -/]*[@-~]"
_OVERSTRIKE = r"[^\x08\n]\x08"
# Cursor movement that redraws earlier lines (docker/npm/cargo progress displays).
_CURSOR = r"\x1b\[(\d*)([ABFEGHKJ])|\r|\n"
_OTHER_CONTROL = r"[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]"
# The same characters one by one: a `str` membership test of one character is a memchr,
# far faster than `re` stepping through a character class at every position.
_OTHER_CONTROLS = tuple(chr(c) for c in (*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F))


def strip_ansi(text: str) -> str:
    if "\x1b" not in text and "\x9b" not in text:
        return text
    if "\x1b[" in text and has_redraw(text):
        text = _replay_cursor(text)
    return re.sub(_ANSI if "\x9b" in text else _ANSI_7BIT, "", text)


_REDRAW = r"\x1b\[\d*[AF]"


def has_redraw(text: str) -> bool:
    return re.search(_REDRAW, text) is not None


def _replay_cursor(text: str) -> str:
    """Replay cursor-up redraws so each redrawn line keeps only its final state.

    A tiny line-level terminal: `ESC[nA`/`ESC[nF` move up, `\\r` returns to column 0,
    `ESC[K`/`ESC[2K` clear the line, `ESC[J` clears to the end of the screen. Column
    positioning is approximated by rewriting whole lines, which is what progress
    displays do in practice.
    """
    screen: list[str] = [""]
    row = 0
    overwrite = False  # the next text replaces the row (after \\r or a move)
    pos = 0
    for m in re.finditer(_CURSOR, text):
        chunk = text[pos : m.start()]
        pos = m.end()
        if chunk:
            screen[row] = chunk if overwrite else screen[row] + chunk
            overwrite = False
        tok = m.group(0)
        if tok == "\n":
            row += 1
            overwrite = False
            if row == len(screen):
                screen.append("")
            continue
        if tok == "\r":
            overwrite = True
            continue
        n = int(m.group(1) or 1)
        op = m.group(2)
        if op in "AF":
            row = max(0, row - n)
            overwrite = op == "F"
        elif op in "BE":
            row += n
            while row >= len(screen):
                screen.append("")
            overwrite = op == "E"
        elif op == "K":
            if m.group(1) in ("1", "2") or overwrite:
                screen[row] = ""
                overwrite = False
        elif op == "J":
            del screen[row + 1 :]
            screen[row] = ""
        else:  # G, H: absolute column/position; treat as a rewrite of the row
            overwrite = True
    rest = text[pos:]
    if rest:
        screen[row] = rest if overwrite else screen[row] + rest
    return "\n".join(screen)


def collapse_carriage_returns(text: str) -> str:
    """`50%\\r100%\\n` → `100%\\n`: a carriage-return redraw keeps its final state."""
    if "\r" not in text:
        return text
    text = text.replace("\r\n", "\n")
    if "\r" not in text:
        return text
    out = []
    for line in text.split("\n"):
        if "\r" in line:
            parts = [p for p in line.split("\r") if p.strip()]
            line = parts[-1] if parts else ""
        out.append(line)
    return "\n".join(out)


def clean_controls(text: str) -> str:
    """Backspace overstrikes (man pages) resolved; other control bytes made visible."""
    if "\x08" in text:
        prev = None
        while prev != text and "\x08" in text:
            prev = text
            text = re.sub(_OVERSTRIKE, "", text)
        text = text.replace("\x08", "")
    if any(c in text for c in _OTHER_CONTROLS):
        text = re.sub(_OTHER_CONTROL, _control_repr, text)
    return text


def _control_repr(m: re.Match[str]) -> str:
    ch = m.group(0)
    return "" if ch == "\x07" else f"\\x{ord(ch):02x}"


def normalize(text: str, *, strip: bool = True) -> str:
    """Escapes stripped, redraws collapsed, control bytes resolved."""
    if strip:
        text = strip_ansi(text)
    text = collapse_carriage_returns(text)
    return clean_controls(text)


def split_lines(text: str) -> list[str]:
    """Lines without their endings, trailing whitespace removed.

    Splits on `\\n` only (not on form feeds or U+2028) so line numbers match the raw
    output that `tokenjuice cat --lines` shows.
    """
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [ln.rstrip() for ln in lines]


def trim_edges(lines: list[str]) -> tuple[int, int]:
    """Bounds (start, end) of `lines` without blank lines at either edge."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end


def dedupe_adjacent(lines: list[str], weights: list[int]) -> tuple[list[str], list[int]]:
    """Fold runs of identical lines into one line carrying the run's total weight."""
    out: list[str] = []
    w: list[int] = []
    prev: str | None = None
    for line, weight in zip(lines, weights, strict=True):
        if line == prev:
            w[-1] += weight
        else:
            out.append(line)
            w.append(weight)
            prev = line
    return out, w


def pretty_print_json(text: str) -> str:
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{":
        return text
    import json

    try:
        value = json.loads(stripped)
    except ValueError:
        return text
    if not isinstance(value, (dict, list)):
        return text
    return json.dumps(value, indent=2, ensure_ascii=False)
