"""cmake configure and `cmake --build`: CMake messages, compiler diagnostics, progress.

Configure: `CMake Error|Warning at file:line (command):` blocks stay, their wrapped
paragraphs joined to one line each (list items stay separate); the `-Wno-dev`
boilerplate goes. Build (Makefile or Ninja generator): gcc/clang diagnostics fold to
one line each (see `gcc_diagnostics`); `[ 42%] Building …` / `[3/9] Building …` progress
goes except the last step, so a successful build still says how far it got; echoed
compiler commands after Ninja's `FAILED:` go; `Built target X`, `FAILED:` and make's
`***` lines stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._compiler_diag import Collector, emit
from tokenjuice.reduction.formatters.gcc_diagnostics import COMMAND_RE, CONTEXT_RE, GccParser

MESSAGE_RE = re.compile(r"^CMake (?:Error|Warning|Deprecation Warning|Deprecation Error)(?: \(dev\))?(?: at | in |:)")
CALL_STACK = "Call Stack (most recent call first):"
DEV_BOILERPLATE_RE = re.compile(r"^This (?:warning|error) is for project developers\.\s+Use -Wno-(?:dev|error=dev)")
PROGRESS_RE = re.compile(
    r"^\[\s*\d+%\] (?:Building|Linking|Generating|Automatic|Running|Copying)\b|^\[\d+/\d+\] "
    r"|^(?:Scanning dependencies of target|Consolidate compiler generated dependencies of target) "
)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    col = Collector(lines, fi.weights)
    parser = GccParser(lines, col)
    progress: list[int] = []  # item positions of progress lines
    seen = False
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if MESSAGE_RE.match(line):
            seen = True
            i = _message_block(lines, i, col)
            continue
        if parser.feed(i, line):
            seen = True
            i += 1
            continue
        if PROGRESS_RE.match(line):
            seen = True
            progress.append(len(col.items))
            col.keep(i)
        elif CONTEXT_RE.match(line):
            col.drop(i, "context")
        elif COMMAND_RE.match(line) and i > 0 and lines[i - 1].startswith("FAILED: "):
            col.drop(i, "compiler commands")
        elif not line.strip():
            col.drop(i, "blank")
        else:
            col.keep(i)
        i += 1
    if not seen:
        return None
    # Progress lines go; the last one stays on success (how far the build got).
    last = progress[-1] if progress and not fi.failed else None
    for k in progress:
        if k != last:
            col.redrop(k, "progress")
    b = Builder(lines, fi.weights)
    emit(b, col.items)
    return b.build(final=True)


def _message_block(lines: list[str], start: int, col: Collector) -> int:
    """A `CMake Error at …:` block: header, indented paragraphs, optional call stack."""
    col.keep(start, protect=True)
    i = start + 1
    n = len(lines)
    para: list[int] = []

    def flush() -> None:
        if not para:
            return
        text = " ".join(lines[j].strip() for j in para)
        if DEV_BOILERPLATE_RE.match(text):
            for j in para:
                col.drop(j, "boilerplate")
        else:
            col.keep(para[0], protect=True, text="  " + text, merge=tuple(para[1:]))
        para.clear()

    while i < n:
        line = lines[i]
        if not line.strip():
            flush()
            col.drop(i, "blank")
        elif DEV_BOILERPLATE_RE.match(line):
            flush()
            col.drop(i, "boilerplate")
        elif line == CALL_STACK:
            flush()
            col.keep(i)
        elif line.startswith("    "):
            flush()  # a list item (file names, a source path): its own line
            col.keep(i, protect=True, text="    " + line.strip())
        elif line.startswith("  "):
            para.append(i)
        else:
            break
        i += 1
    flush()
    return i
