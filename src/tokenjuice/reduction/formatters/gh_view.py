"""gh pr view / issue view (no terminal): metadata folded, template comments dropped.

gh prints `field:<TAB>value` lines, `--`, then the raw markdown body. Empty fields go;
the rest are joined a few per line. In the body, HTML comments (the PR/issue template's
instructions to the author) and blank lines go; text, checklists and code stay.
`--comments` output (per comment: author/association/edited/status lines, `--`, the
body, `--`) becomes one header line per comment followed by its body.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

# `name:<TAB>value`; an empty value lost its tab with the trailing whitespace.
FIELD_RE = re.compile(r"^([a-z][a-z-]*):(?:\t(.*))?$")
COMMENT_FIELDS = ("author", "association", "edited", "status")
WIDTH = 160


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines or not FIELD_RE.match(lines[0]):
        return None
    b = Builder(lines, fi.weights)
    i = 0
    n = len(lines)
    comments = 0
    while i < n:
        # A block of field lines, then `--`, then a body up to the next block.
        start = i
        fields: list[tuple[int, str, str]] = []
        while i < n and (m := FIELD_RE.match(lines[i])):
            fields.append((i, m.group(1), (m.group(2) or "").strip()))
            i += 1
        if not fields:
            b.keep(i, protect=True)  # stray line (an error message)
            i += 1
            continue
        names = {f for _, f, _ in fields}
        is_comment = set(COMMENT_FIELDS) <= names and "title" not in names
        if is_comment:
            comments += 1
            _comment_header(b, fields)
        else:
            _fields(b, fields)
        if i < n and lines[i] == "--":
            b.drop(i, "separators")
            i += 1
        i = _body(b, lines, i, comment=is_comment)
        if i == start:
            i += 1
    if comments:
        b.facts["comment"] = comments
    return b.build(final=True, essential=False)


def _fields(b: Builder, fields: list[tuple[int, str, str]]) -> None:
    line_at = -1
    for i, name, value in fields:
        if not value:
            b.drop(i, "empty fields")
            continue
        text = f"{name}: {value}"
        if name == "title" or line_at < 0 or len(b.lines[line_at]) + len(text) + 3 > WIDTH:
            b.keep(i, protect=True, text=text)
            line_at = -1 if name == "title" else len(b.lines) - 1
        else:
            b.lines[line_at] += " · " + text
            b.weights[line_at] += b.src_weights[i]


def _comment_header(b: Builder, fields: list[tuple[int, str, str]]) -> None:
    values = {name: value for _, name, value in fields}
    extra = [v for v in (values.get("association"), values.get("status")) if v and v != "none"]
    if values.get("edited") == "true":
        extra.append("edited")
    first = fields[0][0]
    b.keep(
        first, protect=True, text=f"— {values.get('author', '?')}" + (f" ({', '.join(extra)})" if extra else "") + ":"
    )
    for i, _, _ in fields[1:]:
        b.merge_into_last(i)


def _body(b: Builder, lines: list[str], i: int, *, comment: bool) -> int:
    """Body lines from i up to the end (or, for comments, the closing `--`)."""
    n = len(lines)
    in_html_comment = False
    while i < n:
        line = lines[i]
        if comment and line == "--":
            b.drop(i, "separators")
            return i + 1
        if not comment and FIELD_RE.match(line) and i + 1 < n and FIELD_RE.match(lines[i + 1]):
            return i  # the next record (a comment list after the view)
        stripped = line.strip()
        if in_html_comment or stripped.startswith("<!--"):
            b.drop(i, "template comments")
            in_html_comment = "-->" not in stripped
        elif not stripped:
            b.drop(i, "blank")
        else:
            b.keep(i, protect=comment)
        i += 1
    return i
