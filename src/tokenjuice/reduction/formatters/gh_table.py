"""gh list tables (`pr list`, `issue list`, `run list` without a terminal): rows grouped
by state, each row re-rendered from a per-rule template, times cut to the date.

gh prints these tables tab-separated and header-less when stdout is not a TTY. The
rule says which columns form the group (`group`), how a row reads (`render`, a
template over column indices), which groups come first (`lead`, substrings of the
group key) and optionally a shorter template for routine groups (`compact`):

    OPEN (51):
    #612 Fix retry logic in the webhook sender [api/webhook-612] 2024-10-03
    completed failure (4):
    11820115522 Fix token refresh race · CI · main · push · 12m3s · 2024-10-04

Lines that are not table rows (errors such as "gh auth login") stay as they are.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

STAMP_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})$")
FIELD_RE = re.compile(r"\{(\d+)\}")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    opts = fi.options
    template = str(opts.get("render", ""))
    need = max((int(k) for k in FIELD_RE.findall(template)), default=0) + 1
    group_cols = [int(c) for c in opts.get("group", [])]
    if not template:
        return None
    rows: list[tuple[int, list[str]]] = []
    b = Builder(lines, fi.weights)
    others: list[int] = []
    for i, line in enumerate(lines):
        cells = line.split("\t")
        if len(cells) >= need and len(cells) > 1:
            rows.append((i, [_cell(c) for c in cells]))
        else:
            others.append(i)
    if not rows:
        return None
    for i in others:
        b.keep(i, protect=True)
    groups: dict[str, list[tuple[int, list[str]]]] = {}
    for i, cells in rows:
        key = " ".join(cells[c] for c in group_cols if c < len(cells) and cells[c]) or "rows"
        groups.setdefault(key, []).append((i, cells))
    lead = [str(x) for x in opts.get("lead", [])]
    order = sorted(groups, key=lambda k: (not any(x in k for x in lead), list(groups).index(k)))
    compact = opts.get("compact") or {}
    for key in order:
        items = groups[key]
        b.add(f"{key} ({len(items)}):")
        tmpl = template
        if compact and str(compact.get("when", "\0")) in key:
            tmpl = str(compact.get("render", template))
        for i, cells in items:
            b.keep(i, protect=True, text=_render(tmpl, cells))
        b.facts[key] = len(items)
    return b.build(final=True, essential=True)


def _cell(text: str) -> str:
    if text[4:5] != "-":
        return text  # not a timestamp (`2024-10-03T…`): no regex needed
    m = STAMP_RE.match(text)
    return m.group(1) if m else text


_SEPS_RE = re.compile(r"(?: ·)+ ·")
_SPACES_RE = re.compile(r"  +")
_templates: dict[str, list[str | int]] = {}


def _pieces(template: str) -> list[str | int]:
    """The template as literal text and column indices, parsed once."""
    got = _templates.get(template)
    if got is None:
        got = []
        pos = 0
        for m in FIELD_RE.finditer(template):
            got += [template[pos : m.start()], int(m.group(1))]
            pos = m.end()
        got.append(template[pos:])
        _templates[template] = got
    return got


def _render(template: str, cells: list[str]) -> str:
    n = len(cells)
    out = "".join(p if isinstance(p, str) else (cells[p] if p < n else "") for p in _pieces(template))
    # Empty cells leave separators behind ("a ·  · b", "[]"): tidy them.
    out = out.replace("[]", "")
    if " · ·" in out:
        out = _SEPS_RE.sub(" ·", out)
    out = out.strip(" ·")
    return _SPACES_RE.sub(" ", out) if "  " in out else out
