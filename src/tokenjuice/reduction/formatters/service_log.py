"""Long service logs (app logs, journalctl): problems in full, routine lines counted.

A record starts with a timestamp (ISO `2026-01-01 12:00:00`, `[2026-01-01T…]`, or the
syslog/journal `Jan 01 12:00:00 host unit[pid]:`); lines without one continue the
previous record (tracebacks, stack traces). Records at WARN level or worse — or,
without a level, records whose text reads as an error or warning — stay with their
continuation lines (caret markers go). INFO/DEBUG records are counted per level and
component (`[name]`, or the syslog identifier) in a summary; the first and last few
records stay for context.
"""

from __future__ import annotations

import re

from tokenjuice.reduction import signals
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

ISO_RE = re.compile(r"^\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d")
SYSLOG_RE = re.compile(
    r"^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}) (\S+) ([^\s:\[]+)(?:\[\d+\])?: "
)
LEVEL_RE = re.compile(
    r"\b(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|SEVERE|CRITICAL|CRIT|FATAL|PANIC|ALERT|EMERG)\b"
    r"|\blevel=(trace|debug|info|notice|warn|warning|error|fatal|panic)\b",
    re.IGNORECASE,
)
COMPONENT_RE = re.compile(r"\[([A-Za-z][\w.\-/]*)\]")
MARK_RE = re.compile(r"^\s*[\^~]+\s*$")
SEVERE = {"WARN", "WARNING", "ERROR", "ERR", "SEVERE", "CRITICAL", "CRIT", "FATAL", "PANIC", "ALERT", "EMERG"}
ERRORS = SEVERE - {"WARN", "WARNING"}
CONTEXT = 3
MIN_RECORDS = 40
SUMMARY_GROUPS = 12


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    syslog = fi.options.get("style") == "syslog"
    starts: list[int] = []
    for i, ln in enumerate(lines):
        if (SYSLOG_RE.match(ln) if syslog else ISO_RE.match(ln)) or (syslog and ISO_RE.match(ln)):
            starts.append(i)
    if len(starts) < MIN_RECORDS:
        return None
    bounds = [*starts, len(lines)]
    # level and component per record
    severe: list[bool] = []
    labels: list[tuple[str, str]] = []
    errors = warnings = 0
    for k, s in enumerate(starts):
        ln = lines[s]
        head = ln[:160]
        level = ""
        if syslog:
            m = SYSLOG_RE.match(ln)
            comp = m.group(2) if m else "?"
            body = ln[m.end() :] if m else ln
            lm = LEVEL_RE.search(body[:80])
            level = (lm.group(1) or lm.group(2)).upper() if lm else ""
        else:
            lm = LEVEL_RE.search(head)
            level = (lm.group(1) or lm.group(2)).upper() if lm else ""
            cm = COMPONENT_RE.search(head, lm.end() if lm else 0)
            comp = cm.group(1) if cm else "-"
            body = ln
        if level:
            bad = level in SEVERE
        else:
            bad = signals.is_error_or_warning(body)
            level = "ERROR" if bad and signals.is_error(body) else ("WARN" if bad else "INFO")
        has_more = bounds[k + 1] - s > 1
        bad = bad or (has_more and any(lines[j].strip().startswith("Traceback") for j in range(s + 1, bounds[k + 1])))
        severe.append(bad)
        labels.append((level, comp))
        if bad:
            if level in ERRORS:
                errors += 1
            else:
                warnings += 1

    b = Builder(lines, fi.weights)
    counts: dict[tuple[str, str], int] = {}
    for i in range(starts[0]):
        b.keep(i)
    context = set(range(CONTEXT)) | set(range(len(starts) - CONTEXT, len(starts)))
    summary_done = False
    for k, s in enumerate(starts):
        end = bounds[k + 1]
        if severe[k] or k in context:
            if k >= CONTEXT and not summary_done:
                summary_done = True
            b.keep(s, protect=severe[k])
            for j in range(s + 1, end):
                if MARK_RE.match(lines[j]):
                    b.drop(j, "markers")
                else:
                    b.keep(j, protect=severe[k])
            continue
        counts[labels[k]] = counts.get(labels[k], 0) + sum(fi.weights[j] for j in range(s, s + 1))
        for j in range(s, end):
            b.drop(j, "routine records (counted)")
    if counts:
        ranked = sorted(counts.items(), key=lambda kv: -kv[1])
        parts = [f"{lvl} {comp} ×{n:,}" for (lvl, comp), n in ranked[:SUMMARY_GROUPS]]
        rest = sum(n for _, n in ranked[SUMMARY_GROUPS:])
        if rest:
            parts.append(f"other ×{rest:,}")
        b.add(f"routine records not shown: {'; '.join(parts)}")
    b.facts["record"] = len(starts)
    if errors:
        b.facts["error"] = errors
    if warnings:
        b.facts["warning"] = warnings
    return b.build(final=True)
