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

from array import array

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatContext, FormatInput, FormatOutput, read_at_once
from tokenjuice.reduction.formatters._common import Builder, matches_by_line
from tokenjuice.reduction.formatters._compiler_diag import Collector, Diag, Plain, emit, is_error

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
_HEADER_FIRST = frozenset("ewnhf")  # error, warning, note, help, failure-note
# Drop counts of plain warning blocks, shared: (snippets, notes, notes first) -> counts.
_BLOCK_COUNTS: dict[tuple[int, int, bool], tuple[tuple[str, int], ...]] = {}
# A plain warning block in the batch's text (a newline before each line): the header
# (HEADER_RE), its location (ARROW_RE), then only lines that `_lines` drops as snippets
# or notes: gutters, further locations, source lines (CODE_RE, not looking like a
# `--message-format=short` line), `= note:`/`= help:` lines, `...` and blank lines. The
# match ends with its last line, so the next block's newline is still there.
_BLOCK_RE = re.compile(
    r"\nwarning(?:\[[\w:-]+\])?: [^\n]+"
    r"\n[^\S\n]*--> (\S[^\n]*:\d+:\d+)(?![^\n])"
    r"((?:\n[^\S\n]*(?:"
    r"\|[^\n]*"
    r"|--> \S[^\n]*:\d+:\d+"
    r"|(?!\S[^:\n]*:\d+:\d+: (?:error|warning))\d+[^\S\n]*(?:\||[-+~](?![^\s]))[^\n]*"
    r"|= (?:note|help): [^\n]+"
    r"|\.\.\."
    r")?(?![^\n]))*+)"  # possessive: nothing follows, no state kept per line
)


class BatchReader:
    """The parser, fed batch by batch; lines are numbered across batches."""

    def __init__(self, ctx: FormatContext) -> None:
        self.detail_warnings = bool(ctx.options.get("warningHelp"))
        # Every line's weight, held to the end: one byte each while they fit (a list
        # would take eight), wider once a line repeats more often (`_widen`).
        self.weights = array("B")
        # No lines by index: the parser passes the text of every line it keeps.
        self.col = Collector((), self.weights)
        self.cur: Diag | None = None  # the top-level diagnostic being read
        # The plain warning blocks of this batch (`_block`); the last of them is still
        # being read when `cur` is None and `pending`.
        self.plain: Plain | None = None
        self.pending = False
        self.sub: Diag | None = None  # a `note:`/`help:` sub-diagnostic of `cur`
        self.code_line: str | None = None  # the source line number the last snippet line showed
        self.note_open = False  # the previous line was a `= note:` whose text may continue

    def feed(self, lines: list[str], weights: list[int]) -> None:
        base = len(self.weights)
        try:
            self.weights.extend(weights)
        except OverflowError:
            del self.weights[base:]
            self._widen()
            self.weights.extend(weights)
        done = 0
        if not self.detail_warnings:
            # Plain warning blocks (most of a long build log) in one regex step each;
            # the lines between them, and every other diagnostic, line by line.
            for at, m in matches_by_line(_BLOCK_RE, lines):
                self._lines(lines, base, done, at)
                done = self._block(m, lines, weights, base, at)
        self._lines(lines, base, done, len(lines))
        if self.plain is not None:
            self.plain.seal()  # the batch's lines can go
            self.plain = None

    def _widen(self) -> None:
        """Weights of eight bytes from now on; everything holding them is re-pointed."""
        wide = array("q", self.weights)
        self.weights = self.col.weights = wide
        for d in (*self.col.items, self.cur, self.sub):
            if isinstance(d, (Diag, Plain)):
                d.weights = wide

    def _block(self, m: re.Match[str], lines: list[str], weights: list[int], base: int, h: int) -> int:
        """A plain warning (header line h): what `_lines` would make of it, without
        looking at the snippet lines one by one. Returns the line after the block."""
        loc, body = m.groups()
        first = h + 2
        end = first + body.count("\n")
        suffix = ""
        # Body lines are snippets (blank ones weigh nothing) but for `= note:`/`= help:`
        # lines and the lines continuing them.
        notes = 0
        first_note = -1
        last_note = False
        a = body.find("= note: ")
        b = body.find("= help: ")
        while a >= 0 or b >= 0:
            pos = a if b < 0 or 0 <= a < b else b
            nl = body.rfind("\n", 0, pos)
            nxt = body.find("\n", pos)
            if nxt < 0:
                nxt = len(body)
            if nl + 1 == pos or body[nl + 1 : pos].isspace():
                j = first + body.count("\n", 0, nl)
                if "rust-clippy/" in body[pos:nxt]:
                    url = CLIPPY_URL_RE.search(body, pos + 8, nxt)
                    if url:
                        suffix = f" [clippy::{url.group(1)}]"
                notes += weights[j]
                if first_note < 0:
                    first_note = j
                # Lines indented under the note that `_lines` reads as its continuation.
                while body.startswith(NOTE_INDENT, nxt + 1):
                    k = body.find("\n", nxt + 1)
                    if k < 0:
                        k = len(body)
                    if body[nxt + 1 : k].lstrip()[:1] not in ("=", "."):
                        break
                    j += 1
                    notes += weights[j]
                    nxt = k
                last_note = nxt == len(body)
            if 0 <= a < nxt:
                a = body.find("= note: ", nxt)
            if 0 <= b < nxt:
                b = body.find("= help: ", nxt)
        snippets = sum(weights[first:end]) - notes
        # In the order `_lines` would meet them: is the first line that weighs a note?
        notes_first = first_note >= 0 and bool(weights[first_note]) and not any(weights[first:first_note])
        key = (snippets, notes, notes_first)
        counts = _BLOCK_COUNTS.get(key)
        if counts is None:
            pairs = (("notes", notes), ("snippets", snippets))
            if not notes_first:
                pairs = pairs[::-1]
            counts = tuple(p for p in pairs if p[1])
            if len(_BLOCK_COUNTS) < 4096:
                _BLOCK_COUNTS[key] = counts
        col = self.col
        plain = self.plain
        if plain is None or col.items[-1] is not plain:
            plain = self.plain = Plain(self.weights)
            col.items.append(plain)
        # The header line is the message as `_lines` would print it.
        plain.add(base + h, lines[h], loc, suffix, weights[h + 1], counts)
        col.diags += 1
        self.cur, self.sub, self.code_line, self.note_open = None, None, None, last_note
        self.pending = True
        return end

    def _lines(self, lines: list[str], base: int, start: int, stop: int) -> None:
        """Lines start..stop, one Python step each; the common cases cost no regex: the
        first character after the indent tells the snippet parts apart, and a header can
        only start unindented."""
        if start >= stop:
            return
        col = self.col
        if self.pending:
            self._resume()
        detail_warnings = self.detail_warnings
        cur, sub, code_line, note_open = self.cur, self.sub, self.code_line, self.note_open
        details = cur is not None and (is_error(cur.severity) or detail_warnings)
        part = lines[start:stop]
        for k, (line, stripped) in enumerate(zip(part, map(str.lstrip, part), strict=True), start):
            i = base + k
            was_note, note_open = note_open, False
            first = stripped[:1]
            if stripped is line and first:
                # Only an unindented line can be a header (`error[E…]: …`, `file:1:2: warning: …`).
                m = HEADER_RE.match(line) if first in _HEADER_FIRST else None
                if m:
                    level, code, text = m.group(1), m.group(2) or "", m.group(3)
                    if level in ("note", "help") and cur is not None:
                        sub = col.new(i, level, f"{level}: {text}")
                        _attach_sub(cur, sub, detail_warnings)
                        continue
                    sub = None
                    code_line = None
                    cur = col.diag(col.new(i, level, f"{level}{code}: {text}"))
                    details = is_error(cur.severity) or detail_warnings
                    continue
                s = SHORT_RE.match(line) if (": error" in line or ": warning" in line) else None
                if s:
                    cur = sub = None
                    level, text = s.group(2), s.group(4)
                    if level == "warning" and not detail_warnings:
                        # Short format appends the help (`: help: if this is intentional, prefix …`).
                        text = text.split(": help: ", 1)[0]
                    col.diag(col.new(i, level, f"{level}{s.group(3) or ''}: {text}", s.group(1)))
                    continue
            if cur is None:
                if not first:
                    col.drop(i, "blank")
                elif HINT_RE.match(line):
                    col.drop(i, "hints")
                else:
                    col.keep(i, text=line)
                continue
            if first == "|":
                # GUTTER_RE: a label after the markers is kept under an error.
                if details:
                    label = line[line.index("|") + 1 :].lstrip(_LEAD).lstrip(_MARKS).strip()
                    if label and _wants_label(cur, label, detail_warnings):
                        where = f"line {code_line}: " if code_line else ""
                        cur.child(i, f"  {where}{label}")
                        continue
                cur.drop(i, "snippets")
                continue
            if first.isdecimal():
                c = CODE_RE.match(line)
                if c:
                    code_line = c.group(1)
                    if sub is not None and sub.severity == "help" and any(j == sub.idx for j, _ in cur.children):
                        d = SUGGESTED_RE.match(line)
                        if d:
                            # A kept `help:` shows its snippet with the fix applied: keep the new code.
                            cur.child(i, f"    {d.group(1)} {d.group(2)} {d.group(3)}")
                            continue
                    cur.drop(i, "snippets")
                    continue
            elif first == "-":
                a = ARROW_RE.match(line)
                if a:
                    target = sub if sub is not None else cur
                    if target.loc is None:
                        target.loc = a.group(1)
                        _fold(cur, sub, i)
                    else:
                        cur.drop(i, "snippets")
                    continue
            if was_note and line.startswith(NOTE_INDENT):
                # `= note: expected struct X` continues on lines aligned under its text.
                note_open = True
                last = cur.children[-1] if cur.children else None
                if last is not None and last[0] == i - 1 and details:
                    cur.child(i, "    " + line.strip())
                else:
                    cur.drop(i, "notes")
                continue
            n = SUBNOTE_RE.match(line) if first == "=" else None
            if n:
                note_open = True
                _subnote(cur, i, n.group(1), n.group(2), detail_warnings)
                continue
            if first == "." and ELLIPSIS_RE.match(line):
                cur.drop(i, "snippets")
                continue
            if not first:
                col.drop(i, "blank")
                sub = None
                code_line = None
                continue
            # Anything else ends the diagnostic (cargo's `Finished …`, program output).
            cur = sub = None
            details = False
            if HINT_RE.match(line):
                col.drop(i, "hints")
            else:
                col.keep(i, text=line)
        self.cur, self.sub, self.code_line, self.note_open = cur, sub, code_line, note_open

    def _resume(self) -> None:
        """The lines after a plain block may still belong to it: it becomes a `Diag`."""
        col = self.col
        self.pending = False
        plain = col.items[-1]
        assert isinstance(plain, Plain)
        self.cur = plain.pop()
        if not plain:
            col.items.pop()
            self.plain = None
        col.items.append(self.cur)

    @property
    def accepted(self) -> bool:
        """A diagnostic was seen: `finish` will give a result."""
        return self.col.diags > 0

    def finish(self) -> FormatOutput | None:
        if not self.col.diags:
            return None
        b = Builder((), self.weights)
        emit(b, self.col.items)
        return b.build(final=True)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    return read_at_once(BatchReader, fi)


def _attach_sub(cur: Diag, sub: Diag, detail_warnings: bool) -> None:
    """A `note:`/`help:` line under a diagnostic: kept for errors (clippy: helps too)."""
    if is_error(cur.severity) or (detail_warnings and sub.severity == "help"):
        cur.child(sub.idx, "  " + sub.message)
    else:
        cur.drop(sub.idx, "notes")


def _fold(cur: Diag, sub: Diag | None, i: int) -> None:
    """Line i (a `-->` location) now shows in a header: the top one or a kept sub-note."""
    if sub is None:
        cur.fold(i)
        return
    for k, (j, text) in enumerate(cur.children):
        if j == sub.idx:
            cur.set_child(k, f"  {sub.loc}: {text.strip()}")
            cur.merge(j, i)
            return
    cur.drop(i, "snippets")


def _wants_label(cur: Diag, label: str, detail_warnings: bool) -> bool:
    if is_error(cur.severity):
        return True
    return detail_warnings and label.startswith("help:")


def _subnote(cur: Diag, i: int, kind: str, text: str, detail_warnings: bool) -> None:
    """A `= note: …`/`= help: …` line: kept under an error (a warning's help only when
    warnings are detailed); a clippy lint's URL becomes its name."""
    url = CLIPPY_URL_RE.search(text) if "rust-clippy/" in text else None
    if url:
        cur.suffix = f" [clippy::{url.group(1)}]"
        cur.drop(i, "notes")
    elif LINT_LEVEL_RE.match(text):
        cur.drop(i, "notes")
    elif is_error(cur.severity) or (detail_warnings and kind == "help"):
        cur.child(i, f"  {kind}: {text}")
    else:
        cur.drop(i, "notes")
