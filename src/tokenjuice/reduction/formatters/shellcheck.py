"""ShellCheck's default (tty) output: one `file:line:col: SCxxxx (level): message` per finding.

A tty block is `In x.sh line 5:`, the source line, one caret line per finding
(`     ^--^ SC2086 (info): Double quote …`), then `Did you mean:` with a rewritten line.
Each caret line becomes a finding with its column (the caret's drawn position, tabs
counted as 8, which is what `-f json` reports); source lines and suggestions go, and so
does the closing
`For more information:` list of wiki links. The gcc, checkstyle, json and diff formats
are left alone. The same message at many places is listed once with every location.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._lintkit import Findings

BLOCK_RE = re.compile(r"^In (?P<file>.+) line (?P<line>\d+):$")
CARET_RE = re.compile(r"^(?P<pad> *)\^[-^]*\^? (?P<rest>SC\d{4} \((?:error|warning|info|style)\): .*)$")
MORE_INFO = "For more information:"
WIKI_RE = re.compile(r"^ +https://www\.shellcheck\.net/wiki/SC\d+")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not any(BLOCK_RE.match(line) for line in lines):
        return None
    out = Findings(lines, fi.weights)
    where: str | None = None
    file = ""
    state = "none"  # block: after `In … line N:`; fix: after `Did you mean:`; info: wiki list
    for i, line in enumerate(lines):
        b = BLOCK_RE.match(line)
        if b:
            file, where = b.group("file"), b.group("line")
            state = "source"
            out.drop(i, "block headings")
            continue
        if state == "source":
            state = "block"
            out.drop(i, "source lines")
            continue
        if state == "block":
            c = CARET_RE.match(line)
            if c:
                # The caret's drawn position (tabs count 8), as `-f json` reports columns.
                loc = f"{file}:{where}:{len(c.group('pad')) + 1}"
                rest = c.group("rest")
                out.finding(i, f"{loc}: {rest}", loc=loc, key=rest)
                continue
        if line.rstrip() == "Did you mean:":
            state = "fix"
            out.drop(i, "suggested fixes")
            continue
        if state == "fix" and line.strip():
            out.drop(i, "suggested fixes")
            continue
        if line == MORE_INFO:
            state = "info"
            out.drop(i, "wiki links")
            continue
        if state == "info" and WIKI_RE.match(line):
            out.drop(i, "wiki links")
            continue
        if not line.strip():
            out.drop(i, "blank lines")
            if state in ("fix", "block"):
                state = "none"
            continue
        state = "none"
        out.keep(i, protect=True)
    return out.build()
