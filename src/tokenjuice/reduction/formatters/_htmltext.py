"""HTML → readable blocks (title, headings, paragraphs, list items, code, table rows).

Two parsers feed one block collector: selectolax (the `tokenjuice[html]` extra: a
spec-compliant HTML5 parser in C, so broken markup is repaired the way browsers do it
and large pages stay fast) and, without it, the standard library's `html.parser`.
Both emit the same start/end/text events, so well-formed pages give the same blocks.

Boilerplate is dropped while walking: scripts, styles, navigation, footers, sidebars,
forms, hidden elements and Sphinx-style permalink anchors never reach the text.
"""

from __future__ import annotations

from tokenjuice import _re as re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Subtrees that are never content.
SKIP_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "svg",
        "math",
        "nav",
        "footer",
        "aside",
        "iframe",
        "object",
        "embed",
        "canvas",
        "button",
        "select",
        "textarea",
        "form",
        "map",
        "audio",
        "video",
        "picture",
        "dialog",
        "meta",
        "link",
        "base",
    }
)
SKIP_ROLES = frozenset({"navigation", "search", "contentinfo", "complementary", "menu", "menubar", "banner", "dialog"})
# class/id tokens of navigation and chrome in common site generators (Sphinx, MkDocs,
# Docusaurus, Bootstrap themes, pydoc).
SKIP_CLASSES = frozenset(
    {
        "sphinxsidebar",
        "sphinxsidebarwrapper",
        "related",
        "sidebar",
        "side-bar",
        "navbar",
        "nav",
        "navigation",
        "breadcrumb",
        "breadcrumbs",
        "footer",
        "site-footer",
        "menu",
        "skip-link",
        "skip-to-content",
        "mobile-nav",
        "headerlink",
        "cookie-banner",
        "cookie-consent",
        "visually-hidden",
        "sr-only",
        "toc",
        "md-sidebar",
        "md-header",
        "md-footer",
        "md-nav",
        "theme-doc-sidebar-container",
        "pagination-nav",
        "copybutton",
    }
)
VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "param"}
)
HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
BLOCK_TAGS = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "main",
        "header",
        "body",
        "html",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "li",
        "pre",
        "blockquote",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "caption",
        "figure",
        "figcaption",
        "details",
        "summary",
        "address",
        "fieldset",
        "legend",
        "center",
        "hgroup",
        "title",
        *HEADINGS,
    }
)
LAYOUT_TAGS = frozenset({"dl", "ul", "ol", "table", "blockquote", *HEADINGS})
_WS_RE = re.compile(r"\s+")


class Block:
    """One unit of text: `kind` is title, h1…h6, p, li, dt, dd, pre, row or quote."""

    __slots__ = ("depth", "kind", "text")

    def __init__(self, kind: str, text: str, depth: int = 0) -> None:
        self.kind = kind
        self.text = text
        self.depth = depth

    def __repr__(self) -> str:
        return f"Block({self.kind!r}, {self.text[:40]!r})"


def _skip(tag: str, attrs: dict[str, str | None]) -> bool:
    if tag in SKIP_TAGS:
        return True
    if not attrs:
        return False
    if "hidden" in attrs or (attrs.get("aria-hidden") or "").lower() == "true":
        return True
    role = (attrs.get("role") or "").lower()
    if role in SKIP_ROLES:
        return True
    classes = attrs.get("class")
    if classes and not SKIP_CLASSES.isdisjoint(classes.lower().split()):
        return True
    ident = attrs.get("id")
    return bool(ident and ident.lower() in SKIP_CLASSES)


class Collector:
    """Turns start/end/text events into blocks; `skip` tells a parser to skip a subtree."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.buf: list[str] = []
        # Open block contexts: (tag, kind). Kind decides what flushed text becomes.
        self.stack: list[tuple[str, str]] = [("#root", "p")]
        self.pre_depth = 0
        self.list_depth = 0
        self.in_head = False
        self.title_seen = False
        # Block elements opened inside a table row, rendered inline: tag → open count.
        self.inline_blocks: dict[str, int] = {}

    # ------------------------------------------------------------------ events

    def start(self, tag: str, attrs: dict[str, str | None]) -> bool:
        """Returns False when the element's subtree must be skipped."""
        if tag == "head":
            self.in_head = True
            return True
        if tag == "body":
            self.in_head = False  # a missing </head> is implied by <body>
        if self.in_head and tag != "title":
            return False
        if _skip(tag, attrs):
            return False
        if tag == "br":
            self.buf.append("\n" if self.pre_depth else " ")
            return True
        if tag in ("td", "th"):
            if self.buf and self.stack[-1][1] == "row":
                self.buf.append(" | ")
            return True
        if tag == "hr":
            self._flush()
            return True
        if tag not in BLOCK_TAGS:
            return True
        if self.stack[-1][1] == "row" and tag != "tr":
            if tag in LAYOUT_TAGS:
                # Lists, definitions or tables in a cell: a layout table (pydoc), not data.
                self._flush()
                self.stack[-1] = (self.stack[-1][0], "p")
            else:
                # Paragraphs and code inside a data cell stay on the row's line.
                self.inline_blocks[tag] = self.inline_blocks.get(tag, 0) + 1
                self.buf.append(" ")
                return True
        self._flush()
        kind = self.stack[-1][1]
        if tag in HEADINGS:
            kind = tag
        elif tag == "title":
            kind = "title" if not self.title_seen else "skip"
        elif tag == "pre":
            self.pre_depth += 1
            kind = "pre"
        elif tag in ("ul", "ol"):
            self.list_depth += 1
        elif tag == "li":
            kind = "li"
        elif tag in ("dt", "dd", "caption", "figcaption", "summary"):
            kind = "dt" if tag in ("dt", "summary", "caption", "figcaption") else "dd"
        elif tag == "tr":
            kind = "row"
        elif tag == "blockquote":
            kind = "quote"
        elif kind not in ("quote", "dd", "li"):
            kind = "p"
        self.stack.append((tag, kind))
        return True

    def end(self, tag: str) -> None:
        if tag == "head":
            self.in_head = False
            return
        if tag not in BLOCK_TAGS:
            return
        if self.inline_blocks.get(tag):
            self.inline_blocks[tag] -= 1
            return
        # Close up to the matching open element (tolerates unclosed children).
        for j in range(len(self.stack) - 1, 0, -1):
            if self.stack[j][0] == tag:
                break
        else:
            return
        self._flush()
        while len(self.stack) > j:
            open_tag, _ = self.stack.pop()
            if open_tag == "pre":
                self.pre_depth -= 1
            elif open_tag in ("ul", "ol"):
                self.list_depth -= 1
            elif open_tag == "title":
                self.title_seen = True
            elif open_tag == "tr":
                self.inline_blocks.clear()

    def text(self, data: str) -> None:
        if self.in_head and self.stack[-1][0] != "title":
            return
        self.buf.append(data)

    # ----------------------------------------------------------------- blocks

    def _flush(self) -> None:
        if not self.buf:
            return
        raw = "".join(self.buf)
        self.buf.clear()
        kind = self.stack[-1][1]
        if kind == "skip":
            return
        if kind == "pre":
            text = raw.strip("\n").rstrip()
            if text.strip():
                self.blocks.append(Block("pre", text))
            return
        text = _WS_RE.sub(" ", raw).strip()
        if kind == "row":
            text = text.strip("| ").strip()
        if not text:
            return
        depth = max(self.list_depth - 1, 0) if kind == "li" else 0
        if kind == "li" and self.blocks and self.blocks[-1].kind == "li" and self.stack[-1][0] != "li":
            # Text after a nested list inside the same item continues it.
            kind = "p"
        self.blocks.append(Block(kind, text, depth))

    def finish(self) -> list[Block]:
        self._flush()
        return self.blocks


# ----------------------------------------------------------------- backends


def have_library() -> bool:
    try:
        import selectolax.lexbor  # noqa: F401
    except ImportError:
        return False
    return True


def blocks(html: str, *, use_library: bool | None = None) -> list[Block]:
    """The page's readable blocks; `use_library=False` forces the stdlib parser."""
    if use_library is None:
        use_library = have_library()
    if use_library:
        return _blocks_selectolax(html)
    return _blocks_stdlib(html)


def _blocks_selectolax(html: str) -> list[Block]:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    col = Collector()
    root: Any = tree.root
    if root is None:
        return []
    # Iterative walk with explicit exit markers: deep pages must not hit the recursion limit.
    stack: list[tuple[Any, bool]] = [(root, True)]
    while stack:
        node, entering = stack.pop()
        tag = node.tag
        if not entering:
            col.end(tag)
            continue
        if tag == "-text":
            col.text(node.text_content or "")
            continue
        if tag.startswith("-") or tag == "#document":
            if tag == "#document":
                _push_children(stack, node)
            continue
        attrs = node.attributes if node.attributes else {}
        if not col.start(tag, attrs):
            continue
        if tag in VOID_TAGS:
            continue
        stack.append((node, False))
        _push_children(stack, node)
    return col.finish()


def _push_children(stack: list[tuple[Any, bool]], node: Any) -> None:
    kids = []
    child = node.child
    while child is not None:
        kids.append(child)
        child = child.next
    for kid in reversed(kids):
        stack.append((kid, True))


def _blocks_stdlib(html: str) -> list[Block]:
    from html.parser import HTMLParser

    col = Collector()

    class _Parser(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.skip_tag: str | None = None
            self.skip_depth = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if self.skip_tag is not None:
                if tag == self.skip_tag:
                    self.skip_depth += 1
                return
            if not col.start(tag, dict(attrs)) and tag not in VOID_TAGS:
                self.skip_tag, self.skip_depth = tag, 1

        def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if self.skip_tag is None:
                col.start(tag, dict(attrs))
                if tag not in VOID_TAGS:
                    col.end(tag)

        def handle_endtag(self, tag: str) -> None:
            if self.skip_tag is not None:
                if tag == self.skip_tag:
                    self.skip_depth -= 1
                    if self.skip_depth == 0:
                        self.skip_tag = None
                return
            col.end(tag)

        def handle_data(self, data: str) -> None:
            if self.skip_tag is None:
                col.text(data)

    p = _Parser()
    p.feed(html)
    p.close()
    return col.finish()


# ---------------------------------------------------------------- rendering


class Level:
    """How much of each section a condensed rendering keeps."""

    __slots__ = ("deep_paras", "items", "para_chars", "paras", "pre_lines", "rows")

    def __init__(self, paras: int, para_chars: int, items: int, pre_lines: int, rows: int, deep_paras: int) -> None:
        self.paras = paras  # paragraphs (and code blocks) per h1/h2 section
        self.deep_paras = deep_paras  # the same under h3 and deeper
        self.para_chars = para_chars
        self.items = items  # list items per list
        self.pre_lines = pre_lines  # lines per code block
        self.rows = rows  # rows per table


# From mild to severe; the formatter takes the first that fits its size target.
LEVELS = (
    Level(paras=2, para_chars=220, items=5, pre_lines=4, rows=5, deep_paras=2),
    Level(paras=2, para_chars=200, items=4, pre_lines=3, rows=4, deep_paras=1),
    Level(paras=1, para_chars=160, items=3, pre_lines=2, rows=3, deep_paras=1),
    Level(paras=1, para_chars=120, items=2, pre_lines=1, rows=2, deep_paras=1),
    Level(paras=1, para_chars=100, items=0, pre_lines=0, rows=0, deep_paras=0),
    Level(paras=0, para_chars=100, items=0, pre_lines=0, rows=0, deep_paras=0),
)
PARA_CHARS = 220
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s)")
_EXCEPTION_RE = re.compile(r"^\s*(?:Traceback \(most recent call last\)|[\w.]*(?:Error|Exception|Exit)\b:?)")


def condense(text: str, limit: int = PARA_CHARS) -> str:
    """Whole sentences up to `limit` characters, else cut at a word boundary."""
    if len(text) <= limit:
        return text
    cut = -1
    for m in _SENTENCE_END_RE.finditer(text, 0, limit):
        cut = m.end()
    if cut >= limit // 2:
        return text[:cut] + " …"
    space = text.rfind(" ", limit // 2, limit)
    return text[: space if space > 0 else limit] + " …"


def unclosed_lt(line: str) -> str:
    """Escape each `<` with no `>` after it on its line.

    Readers that treat the text as HTML (markdown renderers, tag strippers) would
    otherwise take everything up to the next `>` lines later (a `>>>` prompt, say) for
    a tag and hide it, headings included.
    """
    lt = line.rfind("<")
    if lt < 0 or line.rfind(">") > lt:
        return line
    gt = line.rfind(">")
    return line[: gt + 1] + line[gt + 1 :].replace("<", "&lt;")


def render(blocks: list[Block], level: Level | None = None) -> list[tuple[str, bool]]:
    """Lines of text, each with whether it is a signal (title, headings, exception lines).

    Without a level every block is rendered in full.
    """
    out: list[tuple[str, bool]] = []
    paras = items = rows = defs = 0
    limit = 0
    hidden: dict[str, int] = {}

    def hide(what: str, n: int = 1) -> None:
        hidden[what] = hidden.get(what, 0) + n

    def note_hidden() -> None:
        if hidden:
            parts = [f"{n:,} {what if n != 1 else what[:-1]}" for what, n in hidden.items()]
            out.append(("  [… " + ", ".join(parts) + " omitted]", False))
            hidden.clear()

    prev_kind = ""
    for blk in blocks:
        kind = blk.kind
        if kind != prev_kind:
            if prev_kind == "li":
                items = 0
            elif prev_kind == "row":
                rows = 0
        prev_kind = kind
        if kind == "title":
            out.append((f"title: {blk.text}", True))
            continue
        depth = HEADINGS.get(kind)
        if depth is not None:
            if depth <= 2:
                note_hidden()  # one note per major section, not one per small heading
            out.append(("#" * depth + " " + blk.text, True))
            paras = defs = 0
            if level is not None:
                limit = level.paras if depth <= 2 else level.deep_paras
            continue
        if level is None:
            out.extend((line, False) for line in _plain(blk))
            continue
        chars = level.para_chars
        if kind == "pre":
            code = blk.text.split("\n")
            errors = [ln for ln in code if _EXCEPTION_RE.match(ln)]
            if paras >= limit + 1 or not level.pre_lines:
                if errors:
                    out.extend(("    " + ln, True) for ln in errors)
                hide("code lines", len(code) - len(errors))
                continue
            paras += 1
            shown = code[: level.pre_lines]
            out.extend(("    " + ln, False) for ln in shown)
            rest = code[level.pre_lines :]
            if rest:
                tail_errors = [ln for ln in rest if _EXCEPTION_RE.match(ln)]
                out.append((f"    … +{len(rest) - len(tail_errors)} code lines", False))
                out.extend(("    " + ln, True) for ln in tail_errors)
            continue
        if kind == "li":
            items += 1
            if items > level.items:
                hide("list items")
                continue
            out.append(("  " * blk.depth + "- " + condense(blk.text, chars // 2), False))
            continue
        if kind == "row":
            rows += 1
            if rows > level.rows:
                hide("table rows")
                continue
            out.append(("| " + condense(blk.text, chars // 2), False))
            continue
        if kind == "dt":
            defs += 1
            if defs > level.items * 6:
                hide("definitions")
                continue
            out.append((condense(blk.text, chars // 2), False))
            continue
        paras += 1
        if paras > limit:
            hide("paragraphs")
            continue
        prefix = "> " if kind == "quote" else ("  " if kind == "dd" else "")
        out.append((prefix + condense(blk.text, chars), False))
    note_hidden()
    return [(unclosed_lt(text), protect) for text, protect in out]


def _plain(blk: Block) -> list[str]:
    if blk.kind == "pre":
        return ["    " + line for line in blk.text.split("\n")]
    if blk.kind == "li":
        return ["  " * blk.depth + "- " + blk.text]
    if blk.kind == "row":
        return ["| " + blk.text]
    if blk.kind == "quote":
        return ["> " + blk.text]
    if blk.kind == "dd":
        return ["  " + blk.text]
    return [blk.text]
