"""gh run view --log / --log-failed: the step output without the Actions plumbing.

gh prefixes every line with `job<TAB>step<TAB>` and the runner adds an RFC 3339
timestamp; both are said once, as a `job › step` heading. The `##[group]` block that
echoes the step's script, shell and environment shrinks to its `Run …` title;
`##[error]` and `::error …::` annotations become `error: …` lines; progress-only lines
(`....F... [ 40%]`) go. What is left is the tool's own output, windowed head and tail
by the rule with every error, failure and file:line location kept.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction import signals
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

LINE_RE = re.compile(r"^([^\t]+)\t([^\t]*)\t\ufeff?(?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z ?)?(.*)$")
ANNOTATION_RE = re.compile(r"^::(error|warning|notice)(?: [^:]*)?::(.*)$")
PROGRESS_RE = re.compile(r"^[.FEsxXp]+\s*\[\s*\d+%\]$|^[.FEsxX]{20,}$")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    parsed = [LINE_RE.match(line) for line in lines]
    if sum(m is not None for m in parsed) < max(1, len(lines) // 2):
        return None
    b = Builder(lines, fi.weights)
    current: tuple[str, str] | None = None
    in_group = False
    texts: list[tuple[int, str]] = []
    for i, m in enumerate(parsed):
        if m is None:
            b.keep(i, protect=True)
            continue
        job, step, text = m.group(1), m.group(2), m.group(3).rstrip()
        if (job, step) != current:
            current = (job, step)
            in_group = False
            b.add(f"{job} › {step}", protect=True)
        if text.startswith("##[group]"):
            in_group = True
            b.keep(i, text="  " + text[9:])
            continue
        if text.startswith("##[endgroup]"):
            in_group = False
            b.drop(i, "step setup")
            continue
        if in_group:
            b.drop(i, "step setup")
            continue
        if text.startswith("##[error]"):
            b.keep(i, protect=True, text="  error: " + text[9:])
            continue
        a = ANNOTATION_RE.match(text)
        if a:
            b.keep(i, protect=True, text=f"  {a.group(1)}: {a.group(2)}")
            continue
        if PROGRESS_RE.match(text) or not text.strip():
            b.drop(i, "progress" if text.strip() else "blank")
            continue
        texts.append((len(b.lines), text))
        b.keep(i, text="  " + text)
    # The tool's own diagnostics (failures, tracebacks, file:line) survive the window.
    found = signals.find([t for _, t in texts])
    for k in found:
        b.protected[texts[k][0]] = True
    return b.build(final=False)
