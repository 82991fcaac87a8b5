"""helm template: one line per rendered object instead of the whole YAML stream.

Each `---` document becomes `Kind name [ns=…] [images: …]  (source template)`, so the
agent sees what the chart produces and which template to open; documents are only
listed when the stream is long (more than `minLines` lines), otherwise the YAML passes.
Lines outside documents (errors, warnings) stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

SOURCE_RE = re.compile(r"^# Source: (\S+)")
KIND_RE = re.compile(r"^kind: *(\S+)")
NAME_RE = re.compile(r"^  name: *[\"']?([^\"'\s]+)")
NS_RE = re.compile(r"^  namespace: *[\"']?([^\"'\s]+)")
IMAGE_RE = re.compile(r"^\s+(?:- )?image: *[\"']?([^\"'\s]+)")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if len(lines) < int(fi.options.get("minLines", 120)):
        return None
    starts = [i for i, ln in enumerate(lines) if ln == "---" or ln.startswith("--- ")]
    if len(starts) < 2:
        return None
    b = Builder(lines, fi.weights)
    for i in range(starts[0]):
        b.keep(i, protect=True)  # warnings/errors printed before the manifests
    bounds = [*starts, len(lines)]
    kinds: dict[str, int] = {}
    for d in range(len(starts)):
        lo, hi = bounds[d], bounds[d + 1]
        source = kind = name = ns = ""
        images: list[str] = []
        in_metadata = False
        for j in range(lo, hi):
            ln = lines[j]
            if m := SOURCE_RE.match(ln):
                source = m.group(1)
            elif m := KIND_RE.match(ln):
                kind = m.group(1)
            elif ln.startswith("metadata:"):
                in_metadata = True
                continue
            elif ln and not ln.startswith(" "):
                in_metadata = False
            if in_metadata and not name and (m := NAME_RE.match(ln)):
                name = m.group(1)
            elif in_metadata and (m := NS_RE.match(ln)):
                ns = m.group(1)
            elif "image:" in ln and (m := IMAGE_RE.match(ln)) and m.group(1) not in images:
                images.append(m.group(1))
        if not kind:
            for j in range(lo, hi):
                b.keep(j)  # not a manifest we understand: as printed
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        text = f"{kind} {name}"
        if ns:
            text += f" ns={ns}"
        if images:
            text += " images: " + ", ".join(images)
        if source:
            text += f"  ({source})"
        b.keep(lo, text=text, protect=True)
        for j in range(lo + 1, hi):
            b.drop(j, "manifest bodies")
    b.facts["manifest"] = sum(kinds.values())
    return b.build(final=True)
