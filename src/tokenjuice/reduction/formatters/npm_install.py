"""npm install / ci / uninstall / update: the summary, every warning and error.

Kept: `added N packages, …` / `up to date` / `removed …` summaries, audit results and
their fix commands, every `npm warn` line (deprecations, peer overrides), every
`npm error` line except Node stack frames and the usage text npm appends to EUSAGE
errors. Dropped: `--verbose`/`--loglevel` chatter (`npm http`, `npm verbose`,
`npm timing`, `npm sill`, `npm info`), update notices and the funding note.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._install_common import errorish

LEVEL_RE = re.compile(r"^npm (http|verbose|timing|sill|silly|info|notice|warn|WARN|error|ERR!)(?: |$)")
CHATTER = frozenset({"http", "verbose", "timing", "sill", "silly", "info"})
STACK_RE = re.compile(r"^npm (?:error|ERR!)\s+at ")
OBJECT_END_RE = re.compile(r"^npm (?:error|ERR!) }$")
BLANK_RE = re.compile(r"^npm (?:error|ERR!|warn|WARN)\s*$")
USAGE_START_RE = re.compile(r"^npm (?:error|ERR!) Usage:$")
USAGE_END_RE = re.compile(r"^npm (?:error|ERR!) (?:Run \"npm help|A complete log)")
FUNDING_RE = re.compile(r"^\d+ packages? (?:is|are) looking for funding$|^\s+run `npm fund` for details$")
SUMMARY_RE = re.compile(
    r"^(?:added \d+|removed \d+|changed \d+|up to date|audited \d+|found \d+ vulnerabilit|"
    r"\d+ (?:\w+ severity )?vulnerabilit)"
)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    in_usage = False
    in_object = False
    saw_npm = False
    pending_blank: int | None = None
    for i, line in enumerate(lines):
        if in_usage:
            if USAGE_END_RE.match(line):
                in_usage = False
            else:
                b.drop(i, "usage text")
                continue
        if in_object:
            # The error object after a stack repeats the code/syscall/path lines above it.
            b.drop(i, "stack frames")
            if OBJECT_END_RE.match(line):
                in_object = False
            continue
        if not line.strip() or BLANK_RE.match(line):
            # A separator is kept only between two kept lines.
            if pending_blank is not None:
                b.drop(pending_blank, "blank")
            pending_blank = i
            continue
        m = LEVEL_RE.match(line)
        level = m.group(1) if m else None
        if level in CHATTER and not (level == "info" and errorish(line) and "code: 0" not in line):
            saw_npm = True
            b.drop(i, "verbose log")
            continue
        if level == "notice":
            b.drop(i, "notices")
            continue
        if FUNDING_RE.match(line):
            saw_npm = True
            b.drop(i, "funding")
            continue
        if STACK_RE.match(line):
            b.drop(i, "stack frames")
            in_object = line.endswith("{")
            continue
        if USAGE_START_RE.match(line):
            in_usage = True
            b.drop(i, "usage text")
            continue
        if pending_blank is not None:
            if b.lines and b.lines[-1].strip():
                b.keep(pending_blank, text="")
            else:
                b.drop(pending_blank, "blank")
            pending_blank = None
        if level is not None:
            saw_npm = True
            b.keep(i, protect=level in ("warn", "WARN", "error", "ERR!"))
            continue
        if SUMMARY_RE.match(line):
            saw_npm = True
            b.keep(i, protect=True)
            continue
        b.keep(i)
    if pending_blank is not None:
        b.drop(pending_blank, "blank")
    if not saw_npm:
        return None
    return b.build(final=False)
