"""`--help` / `-h` / `help` texts: usage, section headers and every option, trimmed.

The usage synopsis stays whole (continuation lines too: `[-p port]` lists are the
options of terse tools). Section headers stay. Every option line stays with its flag
spec and the first words of its description; wrapped description lines go. Command
lists keep each command name with a trimmed description. Prose paragraphs keep their
first line; examples and epilogues shrink to their first lines.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

USAGE_RE = re.compile(r"^\s*usage:", re.IGNORECASE)
OPTION_RE = re.compile(r"^\s{0,12}-{1,2}[\w?@]")
GAP_RE = re.compile(r"\s{2,}")
SECTION_RE = re.compile(
    r"^(?:[A-Z][\w /()'-]{0,60}:|[A-Z][A-Z /-]{2,40}|\w[\w /()'-]{0,40} (?:options|commands|arguments):)\s*$"
)
ENTRY_RE = re.compile(r"^(\s{1,12})([\w@][\w.:@/<>\[\]{}|-]*(?: [\w<>\[\]{}|.-]+)?)\s{2,}(\S.*)$")
DESC_MAX = 60
MIN_LINES = 25


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if len(lines) < MIN_LINES:
        return None
    b = Builder(lines, fi.weights)
    in_usage = False
    last_kind = ""
    option_indent = -1
    seen_usage = False
    for i, ln in enumerate(lines):
        if not ln.strip():
            in_usage = False
            b.drop(i, "blank")
            last_kind = "blank"
            continue
        indent = len(ln) - len(ln.lstrip())
        if USAGE_RE.match(ln):
            in_usage = True
            seen_usage = True
            b.keep(i, protect=True)
            last_kind = "usage"
            continue
        if in_usage and (indent > 0 or ln.lstrip().startswith(("[", "-"))):
            b.keep(i, protect=True)
            continue
        in_usage = False
        if OPTION_RE.match(ln):
            parts = GAP_RE.split(ln.strip(), maxsplit=1)
            spec, desc = parts[0], (parts[1] if len(parts) > 1 else "")
            option_indent = indent
            b.keep(i, protect=True, text=f"{ln[:indent]}{spec}{'  ' + _trim(desc) if desc else ''}")
            last_kind = "option"
            continue
        if SECTION_RE.match(ln.strip()) and indent <= 2:
            b.keep(i, protect=True)
            last_kind = "section"
            continue
        e = ENTRY_RE.match(ln)
        if e and (last_kind in ("section", "entry", "blank") or indent <= max(option_indent, 2)):
            b.keep(i, text=f"{e.group(1)}{e.group(2)}  {_trim(e.group(3))}")
            last_kind = "entry"
            continue
        if last_kind in ("option", "entry", "continuation") and indent > 0:
            b.drop(i, "descriptions")
            last_kind = "continuation"
            continue
        if last_kind in ("prose",):
            b.drop(i, "prose")
            continue
        b.keep(i, text=_trim(ln, 100))
        last_kind = "prose"
    if not seen_usage:
        return None
    return b.build(final=True)


def _trim(desc: str, limit: int = DESC_MAX) -> str:
    desc = desc.strip()
    if len(desc) <= limit:
        return desc
    cut = desc.find(". ", 0, limit)
    if cut > 20:
        return desc[: cut + 1]
    space = desc.rfind(" ", 0, limit)
    return desc[: space if space > 20 else limit] + "…"
