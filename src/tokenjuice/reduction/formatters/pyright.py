"""pyright / basedpyright: findings grouped under their file, without the repeated path.

pyright prints a file line and then every finding with the same absolute path again
(`  /home/u/proj/app.py:15:12 - error: msg`); under its file line a finding keeps
`  15:12 - error: msg`. Continuation lines of a message (the type mismatch explanation)
stay, long ones keep their first and last lines. Update nags go; the summary stays.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

FINDING_RE = re.compile(r"^ {2}(?P<path>\S.*?):(?P<pos>\d+:\d+) - (?P<rest>(?:error|warning|information): .*)$")
SUMMARY_RE = re.compile(r"^\d+ errors?, \d+ warnings?, \d+ informations?\s*$|^0 errors\b")
NAG_RE = re.compile(
    r"^(?:WARNING: there is a new pyright version|Please install the new version or set PYRIGHT_PYTHON"
    r"|npm (?:WARN|notice)|No configuration file found\.|Searching for source files|Assuming Python"
    r"|No pyproject\.toml file found|Loading configuration file|Found \d+ source files?$|pyproject\.toml file found)"
)
CONT_KEEP_HEAD = 3
CONT_KEEP_TAIL = 2


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not any(FINDING_RE.match(line) or SUMMARY_RE.match(line) for line in lines):
        return None
    b = Builder(lines, fi.weights)
    current: str | None = None  # the file line in force
    cont: list[int] = []

    def flush() -> None:
        if len(cont) <= CONT_KEEP_HEAD + CONT_KEEP_TAIL + 1:
            for j in cont:
                b.keep(j, protect=True)
        else:
            for j in cont[:CONT_KEEP_HEAD]:
                b.keep(j, protect=True)
            mid = cont[CONT_KEEP_HEAD:-CONT_KEEP_TAIL]
            b.add(f"      … {len(mid)} more lines of type details …")
            for j in mid:
                b.drop(j, "type details")
            for j in cont[-CONT_KEEP_TAIL:]:
                b.keep(j, protect=True)
        cont.clear()

    in_finding = False
    for i, line in enumerate(lines):
        m = FINDING_RE.match(line)
        if m:
            flush()
            in_finding = True
            if m.group("path") == current:
                b.keep(i, protect=True, text=f"  {m.group('pos')} - {m.group('rest')}")
            else:
                b.keep(i, protect=True)
            continue
        if in_finding and line.startswith("  "):  # continuation: two spaces, then NBSPs
            cont.append(i)
            continue
        flush()
        in_finding = False
        if NAG_RE.match(line):
            b.drop(i, "notices")
        elif SUMMARY_RE.match(line):
            b.keep(i, protect=True)
        elif line and not line.startswith(" "):
            current = line.strip()
            b.keep(i, protect=True)
        else:
            b.keep(i)
    flush()
    return b.build(final=True, essential=True)  # every finding is the point of the run
