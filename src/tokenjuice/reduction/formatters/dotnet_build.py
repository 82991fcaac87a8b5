"""dotnet build / msbuild (console logger): diagnostics once, counts, outputs.

MSBuild prints every diagnostic as it happens and again in the summary after
`Build FAILED.` / `Build succeeded.`; the repeats go. Each diagnostic is one line,
`path(line,col): error CS0103: message [/repo/Project.csproj]`, the project's full
path kept (a solution may hold same-named projects); identical ones are listed once
with all their locations. Restore chatter (`Determining projects to restore...`,
`All projects are up-to-date`, `Restored …`),
the MSBuild banner and `Time Elapsed` go; `Project -> bin/…/Project.dll` outputs, the
`N Warning(s)` / `N Error(s)` counts and the outcome stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._compiler_diag import Collector, emit

DIAG_RE = re.compile(
    r"^\s*(?P<loc>\S[^(]*\(\d+(?:,\d+){0,3}\)|[^\s:][^:]*?) ?: (?P<sev>error|warning) (?P<code>[A-Z]{1,8}\d{1,6}): "
    r"(?P<msg>.*)$"
)
OUTCOME_RE = re.compile(r"^(?:Build (?:FAILED|succeeded)\.|Build (?:failed|succeeded) with \d+ error)")
COUNT_RE = re.compile(r"^\s+\d+ (?:Warning|Error)\(s\)$")
NOISE_RE = re.compile(
    r"^(?:MSBuild version \S+ for \.NET|Microsoft \(R\) Build Engine version|Copyright \(C\) Microsoft|"
    r"\s+Determining projects to restore\.\.\.|\s+All projects are up-to-date for restore\.|"
    r"\s+Restored \S.* \(in [\d.,]+ (?:ms|sec)\)\.|Time Elapsed \d|Workload updates are available)"
)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    col = Collector(lines, fi.weights)
    seen: set[str] = set()
    msbuild = False
    summary = False  # after `Build FAILED.`: MSBuild repeats every diagnostic
    for i, line in enumerate(lines):
        m = DIAG_RE.match(line)
        if m:
            msbuild = True
            key = line.strip()
            if summary or key in seen:
                col.drop(i, "repeated")
                continue
            seen.add(key)
            loc = m.group("loc")
            has_pos = loc.endswith(")")
            text, proj = m.group("msg"), None
            k = text.rfind(" [") if text.endswith("]") else -1
            if k >= 0:  # MSBuild appends ` [/path/Project.csproj]`
                text, proj = text[:k], text[k + 2 : -1]
            msg = f"{m.group('sev')} {m.group('code')}: {text}"
            d = col.new(i, m.group("sev"), msg if has_pos else f"{loc} : {msg}", loc if has_pos else None)
            if proj:
                d.suffix = f" [{proj}]"
            col.diag(d)
            continue
        if OUTCOME_RE.match(line):
            msbuild = True
            summary = True
            col.keep(i, protect=True)
        elif COUNT_RE.match(line):
            col.keep(i, protect=True, text=line.strip())
        elif NOISE_RE.match(line):
            msbuild = msbuild or line.startswith("MSBuild version")
            col.drop(i, "noise")
        elif not line.strip():
            col.drop(i, "blank")
        else:
            col.keep(i)
    if not msbuild:
        return None
    b = Builder(lines, fi.weights)
    emit(b, col.items)
    return b.build(final=True)
