"""curl and wget: the response an agent asked for, without the transport noise.

* HTML bodies become readable text: `title:`, headings as `#`/`##`/`###`, paragraphs,
  list items, code and table rows; scripts, styles, navigation, sidebars and footers
  go. Long pages are condensed (first sentences of the first paragraphs of each
  section, the head of each code block); every heading stays.
* Large JSON bodies become their structure (keys, types, array lengths, a sample
  element) with error fields verbatim; small JSON and plain text pass unchanged.
* With `-i`/`-I` the status line and a few headers that matter (type, length,
  location, auth challenge, retry) stay; with `-v` the request line, response status,
  those headers and failing trace lines stay; the progress meter becomes one line.
* curl's own errors (`curl: (7) …`) and wget's errors always stay; wget's per-request
  chatter becomes one line per URL, its dot progress goes.
"""

from __future__ import annotations

import json

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

TRACE_RE = re.compile(r"^(?:[*<>](?: |$)|[{}] \[\d+ bytes data\])")
PROGRESS_HEAD_RE = re.compile(r"^\s*% Total\s+% Received|^\s+Dload\s+Upload\s+Total")
PROGRESS_ROW_RE = re.compile(
    r"^\s*(\d{1,3})\s+(\S+)\s+(\d{1,3})\s+(\S+)\s+(\d{1,3})\s+(\S+)\s+(\S+)\s+(\S+)\s+"
    r"([\d:-]{7,9})\s+([\d:-]{7,9})\s+([\d:-]{7,9})\s+(\d[\d.]*[kMGTP]?)(.*)$"
)
CURL_ERROR_RE = re.compile(r"^curl: ")
STATUS_RE = re.compile(r"^(?:< )?HTTP/\d(?:\.\d)? (\d{3})\b")
HEADER_RE = re.compile(r"^(?:< )?([A-Za-z0-9-]+):\s?(.*)$")
KEY_HEADERS = frozenset(
    {"content-type", "content-length", "location", "www-authenticate", "retry-after", "allow", "content-encoding"}
)
TRACE_KEEP_RE = re.compile(
    r"^> [A-Z]+ \S+ HTTP/|^< HTTP/|"
    r"(?i:\b(?:error|fail(?:ed|ure)?|refused|timed? ?out|could not|couldn't|unable|denied|reset|"
    r"problem|not found|mismatch|expired|abort(?:ed)?)\b)"
)
# wget's log (stderr): one block per request.
WGET_URL_RE = re.compile(r"^--\d{4}-\d\d-\d\d \d\d:\d\d:\d\d--  (?:\(try: ?\d+\) +)?(\S+)")
WGET_STATUS_RE = re.compile(r"^(?:HTTP|Proxy) request sent, awaiting response\.\.\. (.*)$")
WGET_LENGTH_RE = re.compile(r"^Length: (.*)$")
WGET_SAVED_RE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(([^)]*)\) - (.*) saved \[")
WGET_LOG_RE = re.compile(
    r"^(?:Resolving |Connecting to |Reusing existing connection|Saving to: |Location: |Length: |"
    r"(?:HTTP|Proxy) request sent|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d |FINISHED --|Total wall clock time: |"
    r"Downloaded: |Converted links in|Converting links in|Loading robots\.txt|Removing |"
    r"Spider mode enabled|Found \d+ broken links?|Remote file exists|Will not apply|"
    r"\S+ has sprung into existence|Server replied|--\d{4}-\d\d-\d\d \d\d:\d\d:\d\d--  |"
    r"Warning: wildcards not supported|Cannot write to|Unable to establish|Disabling SSL|"
    r"wget: |ERROR |\s+\d+K[ .,]|\s*$)"
)
WGET_QUIET_RE = re.compile(
    r"^(?:Resolving |Connecting to \S+\.\.\. connected|Reusing existing connection|Saving to: |"
    r"Loading robots\.txt|Removing |\s+\d+K[ .,]|FINISHED --|Total wall clock time: |"
    r"Will not apply|Converted links in|Converting links in)"
)
WGET_ERROR_RE = re.compile(
    r"(?i:\berror\b|failed|unable|cannot|refused|broken|not found|denied|timed out|no such|unsupported)"
)
HTML_SNIFF_RE = re.compile(r"^\s*(?:<!--.*?-->\s*)?<(?:!doctype html|html|head|body)\b", re.IGNORECASE | re.DOTALL)
# Rendered HTML aims at this share of the page, at least HTML_FULL_CHARS (a short page
# is shown whole) and at most HTML_MAX_CHARS; headings are never cut.
HTML_FULL_CHARS = 2500
HTML_RATIO = 0.12
HTML_MAX_CHARS = 6000
JSON_PASS_CHARS = 2000
JSON_PASS_LINES = 80


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    verbose = _verbose(fi.cmd.argv)
    kinds = _classify(lines, verbose, wget=fi.cmd.program.lower() == "wget")
    b = Builder(lines, fi.weights)
    body_idx = [i for i, k in enumerate(kinds) if k == "body"]
    body = "\n".join(lines[i] for i in body_idx)
    ctype = _content_type(lines, kinds)
    rendered, final = _render_body(body, ctype, fi)
    last_progress = max((i for i, k in enumerate(kinds) if k == "progress"), default=-1)
    wget_blocks = _wget_blocks(lines, kinds)
    body_done = False
    n_headers = sum(1 for k in kinds if k == "header")
    has_body = bool(body.strip())
    for i, line in enumerate(lines):
        kind = kinds[i]
        if kind == "body":
            if rendered is None:
                b.keep(i)
            elif not body_done:
                body_done = True
                _emit(b, rendered, body_idx, "markup" if final == "html" else "json body")
            continue
        if kind == "status":
            b.keep(i, protect=True)
        elif kind == "header":
            m = HEADER_RE.match(line)
            name = m.group(1).lower() if m else ""
            if name in KEY_HEADERS or not has_body or n_headers <= 3:
                b.keep(i)
            else:
                b.drop(i, "headers")
        elif kind == "trace":
            if TRACE_KEEP_RE.search(line) or _key_trace_header(line):
                b.keep(i, protect=line.startswith(("*", "< HTTP")))
            else:
                b.drop(i, "verbose trace")
        elif kind == "progress-head":
            b.drop(i, "progress")
        elif kind == "progress":
            m = PROGRESS_ROW_RE.match(line)
            rest = m.group(13).strip() if m else ""
            if i == last_progress and m:
                b.keep(i, text=_progress_summary(m))
            elif rest and TRACE_RE.match(rest) and (TRACE_KEEP_RE.search(rest) or _key_trace_header(rest)):
                b.keep(i, text=rest)
            else:
                b.drop(i, "progress")
        elif kind == "error":
            b.keep(i, protect=True)
        elif kind == "wget":
            _wget_line(b, i, line, wget_blocks)
        elif kind == "blank" and wget_blocks:
            b.drop(i, "request log")
        else:
            b.keep(i)
    return b.build(final=rendered is not None or not has_body)


def _emit(b: Builder, rendered: list[tuple[str, bool]], body_idx: list[int], reason: str) -> None:
    """The rendered body stands for the body lines: one input line per output line,
    the rest counted as omitted under `reason`."""
    left = sum(b.src_weights[i] for i in body_idx)
    for text, protect in rendered:
        b.add(text, protect=protect)
        if left:
            b.weights[-1] = 1
            left -= 1
    if left:
        b.omitted[reason] = b.omitted.get(reason, 0) + left


# ------------------------------------------------------------------ classify


def _verbose(argv: tuple[str, ...]) -> bool:
    for a in argv[1:]:
        if a in ("--verbose", "--trace-ascii", "--trace"):
            return True
        if a.startswith("-") and not a.startswith("--") and "v" in a[1:] and a[1:].isalpha():
            return True
    return False


def _classify(lines: list[str], verbose: bool, *, wget: bool) -> list[str]:
    kinds: list[str] = []
    in_headers = False
    body_started = False
    for line in lines:
        if wget and line.strip() and WGET_LOG_RE.match(line):
            kinds.append("wget")
            continue
        if verbose and TRACE_RE.match(line):
            kinds.append("status" if STATUS_RE.match(line) else "trace")
            continue
        if PROGRESS_HEAD_RE.match(line):
            kinds.append("progress-head")
            continue
        if PROGRESS_ROW_RE.match(line):
            kinds.append("progress")
            continue
        if CURL_ERROR_RE.match(line):
            kinds.append("error")
            continue
        if in_headers:
            if not line.strip():
                in_headers = False
                kinds.append("blank")
                continue
            if HEADER_RE.match(line) or line.startswith((" ", "\t")):
                kinds.append("header")
                continue
            in_headers = False
        if not body_started and STATUS_RE.match(line):
            kinds.append("status")
            in_headers = True
            continue
        if not body_started and not line.strip():
            kinds.append("blank")
            continue
        body_started = True
        kinds.append("body")
    return kinds


def _content_type(lines: list[str], kinds: list[str]) -> str:
    ctype = ""
    for line, kind in zip(lines, kinds, strict=True):
        if kind in ("header", "trace"):
            m = HEADER_RE.match(line)
            if m and m.group(1).lower() == "content-type":
                ctype = m.group(2).lower()  # the last one wins (after redirects)
        elif kind == "wget":
            m = WGET_LENGTH_RE.match(line)
            if m and "[" in m.group(1):
                ctype = m.group(1).rsplit("[", 1)[1].rstrip("]").lower()
    return ctype


def _key_trace_header(line: str) -> bool:
    if not line.startswith("< "):
        return False
    m = HEADER_RE.match(line)
    return bool(m and m.group(1).lower() in KEY_HEADERS)


# --------------------------------------------------------------------- body


def _render_body(body: str, ctype: str, fi: FormatInput) -> tuple[list[tuple[str, bool]] | None, str]:
    """Rendered body lines (None: keep the body lines as they are) and its kind."""
    if not body.strip():
        return None, ""
    opts = fi.options
    head = body.lstrip()[:1]
    if "json" in ctype or (head in ("{", "[") and "html" not in ctype):
        n_lines = body.count("\n") + 1
        if len(body) <= opts.get("jsonPassChars", JSON_PASS_CHARS) and n_lines <= JSON_PASS_LINES:
            return None, "json"
        try:
            doc = json.loads(body)
        except ValueError:
            return None, "text"
        from tokenjuice.reduction.formatters import _jsonshape

        return _jsonshape.summarize(doc, len(body)), "json"
    if "html" in ctype or HTML_SNIFF_RE.match(body[:4096]):
        from tokenjuice.reduction.formatters import _htmltext

        use_library = opts.get("htmlLibrary")
        blocks = _htmltext.blocks(body, use_library=None if use_library is None else bool(use_library))
        rendered = _htmltext.render(blocks)
        target = max(opts.get("htmlFullChars", HTML_FULL_CHARS), int(len(body) * opts.get("htmlRatio", HTML_RATIO)))
        target = min(target, opts.get("htmlMaxChars", HTML_MAX_CHARS))
        for level in _htmltext.LEVELS:
            if _size(rendered) <= target:
                break
            rendered = _htmltext.render(blocks, level)
        if not rendered:
            rendered = [("(html page with no visible text)", False)]
        return rendered, "html"
    return None, "text"


def _size(rendered: list[tuple[str, bool]]) -> int:
    return sum(len(text) + 1 for text, _ in rendered)


def _progress_summary(m: re.Match[str]) -> str:
    pct, total, received, avg, spent = m.group(1), m.group(2), m.group(4), m.group(7), m.group(10)
    what = f"{received} of {total}" if received != total else total
    took = f", {spent} elapsed" if any(c.isdigit() for c in spent) else ""
    return f"transfer: {what} bytes received ({pct}%), average {avg}B/s{took}"


# --------------------------------------------------------------------- wget


class _WgetBlock:
    __slots__ = ("error", "first", "idx", "length", "saved", "status", "url")

    def __init__(self, first: int, url: str) -> None:
        self.first = first
        self.url = url
        self.idx: list[int] = []
        self.status = ""
        self.length = ""
        self.saved = ""
        self.error = False


def _wget_blocks(lines: list[str], kinds: list[str]) -> dict[int, _WgetBlock]:
    """The request each wget line belongs to, by line index (URL lines included)."""
    blocks: dict[int, _WgetBlock] = {}
    cur: _WgetBlock | None = None
    for i, (line, kind) in enumerate(zip(lines, kinds, strict=True)):
        if kind != "wget":
            continue
        m = WGET_URL_RE.match(line)
        if m:
            cur = _WgetBlock(i, m.group(1))
            blocks[i] = cur
            continue
        if cur is None:
            continue
        cur.idx.append(i)
        blocks[i] = cur
        s = WGET_STATUS_RE.match(line)
        if s:
            cur.status = s.group(1)
            if s.group(1)[:1] not in ("2", "3"):
                cur.error = True
            continue
        ln = WGET_LENGTH_RE.match(line)
        if ln:
            cur.length = ln.group(1)
            continue
        sv = WGET_SAVED_RE.match(line)
        if sv:
            cur.saved = sv.group(2)
            continue
        if WGET_ERROR_RE.search(line):
            cur.error = True
    return blocks


def _wget_line(b: Builder, i: int, line: str, blocks: dict[int, _WgetBlock]) -> None:
    blk = blocks.get(i)
    if blk is not None and blk.first == i:
        # Each request becomes one line: URL → status; size type; file (when not implied).
        parts = [blk.status] if blk.status else []
        if not blk.error:
            if blk.length:
                parts.append(blk.length)
            saved = blk.saved.strip("‘’'\"`")
            if saved and not blk.url.endswith(saved.split("/", 1)[-1]):
                parts.append(f"saved {saved}")
        b.keep(i, text=f"{blk.url} → " + "; ".join(parts) if parts else line, protect=blk.error)
        return
    if blk is not None and (
        WGET_STATUS_RE.match(line) or WGET_SAVED_RE.match(line) or (WGET_LENGTH_RE.match(line) and not blk.error)
    ):
        b.drop(i, "request log")
        return
    if WGET_QUIET_RE.match(line) or not line.strip():
        b.drop(i, "request log")
        return
    b.keep(i, protect=WGET_ERROR_RE.search(line) is not None)
