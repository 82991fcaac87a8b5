"""rustc / cargo / clippy diagnostics: one line per diagnostic, snippets gone.

    error[E0308]: mismatched types          src/main.rs:5:5: error[E0308]: mismatched types
     --> src/main.rs:5:5                →     line 3: expected `String` because of return type
      |                                       line 5: expected `String`, found `i64`
    3 | fn summarize(..) -> String {          help: try using a conversion method
      |                     ------ expected `String` because of return type
    ...

Errors keep their span labels (`line N: label`), `= note`/`= help` lines,
sub-diagnostics (`note: function defined here` with its location) and the added lines
of a `help:` suggestion (`14 + format_cents(x)`, the fix applied); other source snippets
and removed lines go. Warnings keep only their folded header; with the `warningHelp`
option (clippy) they also keep their `help:` suggestions, and a clippy lint name from
the help URL is appended (`[clippy::needless_return]`). Identical warnings are listed
once with all their locations. `--message-format=short` lines are grouped the same way
(warnings without their appended `: help: …`).
"""

from __future__ import annotations

import re

from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._compiler_diag import Collector, Diag, emit, is_error

HEADER_RE = re.compile(r"^(error|warning|note|help|failure-note)(\[[\w:-]+\])?: (.+)$")
SHORT_RE = re.compile(r"^([^\s:][^:]*:\d+:\d+): (error|warning)(\[[\w:-]+\])?: (.+)$")
ARROW_RE = re.compile(r"^\s*--> (\S.*:\d+:\d+)$")
CODE_RE = re.compile(r"^\s*(\d+)\s*(?:\||[-+~](?:\s|$))")
SUGGESTED_RE = re.compile(r"^\s*(\d+) ([|+~])\s+(\S.*)$")
GUTTER_RE = re.compile(r"^\s*\|(.*)$")
SUBNOTE_RE = re.compile(r"^\s*= (note|help): (.+)$")
NOTE_INDENT = " " * 8
ELLIPSIS_RE = re.compile(r"^\s*\.\.\.$")
CLIPPY_URL_RE = re.compile(r"rust-clippy/\S*#([a-z0-9_]+)\s*$")
# Lint-level boilerplate: which flag turned the lint on, how to allow it.
LINT_LEVEL_RE = re.compile(
    r"^`#\[(?:warn|deny|forbid)\(|^requested on the command line|"
    r"^`-[DW] [\w:-]+` implied by `-[DW] |^to override `-[DW] "
)
HINT_RE = re.compile(r"^(?:Some errors have detailed explanations|For more information about (?:this|an) error)")
# Label text after the gutter's markers: `^^^^ label`, `--- label`, `|_____^ label`.
_LEAD = " |_/\\"
_MARKS = "^-~+ "


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    detail_warnings = bool(fi.options.get("warningHelp"))
    col = Collector()
    cur: Diag | None = None  # the top-level diagnostic being read
    sub: Diag | None = None  # a `note:`/`help:` sub-diagnostic of `cur`
    code_line: str | None = None  # the source line number the last snippet line showed
    note_open = False  # the previous line was a `= note:` whose text may continue
    for i, line in enumerate(lines):
        was_note, note_open = note_open, False
        m = HEADER_RE.match(line)
        if m:
            level, code, text = m.group(1), m.group(2) or "", m.group(3)
            if level in ("note", "help") and cur is not None:
                sub = Diag(i, level, f"{level}: {text}")
                _attach_sub(cur, sub, detail_warnings)
                continue
            sub = None
            code_line = None
            cur = col.diag(Diag(i, level, f"{level}{code}: {text}"))
            continue
        s = SHORT_RE.match(line)
        if s:
            cur = sub = None
            level, text = s.group(2), s.group(4)
            if level == "warning" and not detail_warnings:
                # Short format appends the help (`: help: if this is intentional, prefix …`).
                text = text.split(": help: ", 1)[0]
            col.diag(Diag(i, level, f"{level}{s.group(3) or ''}: {text}", s.group(1)))
            continue
        if cur is None:
            if not line.strip():
                col.drop(i, "blank")
            elif HINT_RE.match(line):
                col.drop(i, "hints")
            else:
                col.keep(i)
            continue
        a = ARROW_RE.match(line)
        if a:
            target = sub if sub is not None else cur
            if target.loc is None:
                target.loc = a.group(1)
                _fold(cur, sub, i)
            else:
                cur.drop(i, "snippets")
            continue
        c = CODE_RE.match(line)
        if c:
            code_line = c.group(1)
            d = SUGGESTED_RE.match(line)
            if d and sub is not None and sub.severity == "help" and sub.idx in {j for j, _ in cur.children}:
                # A kept `help:` shows its snippet with the fix applied: keep the new code.
                cur.child(i, f"    {d.group(1)} {d.group(2)} {d.group(3)}")
            else:
                cur.drop(i, "snippets")
            continue
        g = GUTTER_RE.match(line)
        if g:
            label = g.group(1).lstrip(_LEAD).lstrip(_MARKS).strip()
            if label and _wants_label(cur, label, detail_warnings):
                where = f"line {code_line}: " if code_line else ""
                cur.child(i, f"  {where}{label}")
            else:
                cur.drop(i, "snippets")
            continue
        if was_note and line.startswith(NOTE_INDENT) and cur is not None:
            # `= note: expected struct X` continues on lines aligned under its text.
            note_open = True
            last = cur.children[-1] if cur.children else None
            if last is not None and last[0] == i - 1 and (is_error(cur.severity) or detail_warnings):
                cur.child(i, "    " + line.strip())
            else:
                cur.drop(i, "notes")
            continue
        n = SUBNOTE_RE.match(line)
        if n:
            note_open = True
            kind, text = n.group(1), n.group(2)
            url = CLIPPY_URL_RE.search(text)
            if url:
                cur.suffix = f" [clippy::{url.group(1)}]"
                cur.drop(i, "notes")
            elif LINT_LEVEL_RE.match(text):
                cur.drop(i, "notes")
            elif is_error(cur.severity) or (detail_warnings and kind == "help"):
                cur.child(i, f"  {kind}: {text}")
            else:
                cur.drop(i, "notes")
            continue
        if ELLIPSIS_RE.match(line):
            cur.drop(i, "snippets")
            continue
        if not line.strip():
            col.drop(i, "blank")
            sub = None
            code_line = None
            continue
        # Anything else ends the diagnostic (cargo's `Finished …`, program output).
        cur = sub = None
        if HINT_RE.match(line):
            col.drop(i, "hints")
        else:
            col.keep(i)
    if not col.diags:
        return None
    b = Builder(lines, fi.weights)
    emit(b, col.items)
    return b.build(final=True)


def _attach_sub(cur: Diag, sub: Diag, detail_warnings: bool) -> None:
    """A `note:`/`help:` line under a diagnostic: kept for errors (clippy: helps too)."""
    if is_error(cur.severity) or (detail_warnings and sub.severity == "help"):
        cur.child(sub.idx, "  " + sub.message)
    else:
        cur.drop(sub.idx, "notes")


def _fold(cur: Diag, sub: Diag | None, i: int) -> None:
    """Line i (a `-->` location) now shows in a header: the top one or a kept sub-note."""
    if sub is None:
        cur.folded.append(i)
        return
    for k, (j, text) in enumerate(cur.children):
        if j == sub.idx:
            cur.children[k] = (j, f"  {sub.loc}: {text.strip()}")
            cur.merged.append((j, i))
            return
    cur.drop(i, "snippets")


def _wants_label(cur: Diag, label: str, detail_warnings: bool) -> bool:
    if is_error(cur.severity):
        return True
    return detail_warnings and label.startswith("help:")
