"""curl and wget against a local HTTP server: HTML pages, JSON APIs, errors, downloads.

The server (python's http.server in a thread on 127.0.0.1, an ephemeral port) serves a
Sphinx site built here from the docstrings of a few stdlib modules, pydoc pages, a
framework-style 500 page with a real traceback, JSON documents generated with a fixed
seed, redirects and a 5 MB binary. Signals come from the served data: <title>, <h1>
and <h2> texts of the page's main content (html.parser, match=html), the JSON keys and
lengths generated, the error messages the handlers produce, and the files wget wrote.
"""

from __future__ import annotations

import inspect
import json
import random
import re
import shutil
import threading
import traceback
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from capture._lib import Result, Skip, Workspace, sig

FAMILY = "http"
CURL = "network/curl"
WGET = "network/wget"
HTML_SIGNALS = "html.parser over the served page: <title>, and <h1>/<h2> texts inside role=main (match=html)"

# ----------------------------------------------------------------- content


def _rst_escape(text: str) -> str:
    text = text.replace("\\", "\\\\")
    for ch in "*`|":
        text = text.replace(ch, "\\" + ch)
    return re.sub(r"(\w)_(\W|$)", r"\1\\_\2", text)


def _doc_paragraphs(obj: Any) -> list[str]:
    doc = inspect.getdoc(obj) or ""
    out = []
    for para in re.split(r"\n\s*\n", doc):
        para = para.strip("\n")
        if not para.strip():
            continue
        if para.lstrip().startswith(">>>"):
            body = "\n".join("    " + ln for ln in para.splitlines())
            out.append("::\n\n" + body)
        else:
            out.append(_rst_escape(" ".join(para.split())))
    return out


def _module_page(modname: str) -> str:
    """An rst page documenting a stdlib module from its own docstrings."""
    import importlib

    mod = importlib.import_module(modname)
    first = (inspect.getdoc(mod) or modname).splitlines()[0].rstrip(".")
    title = f"{modname} — {_rst_escape(first)}"
    parts = [title, "=" * (len(title) + 4), ""]
    parts += [p + "\n" for p in _doc_paragraphs(mod)[1:4]]
    names = [n for n in getattr(mod, "__all__", dir(mod)) if not n.startswith("_")]
    classes = [n for n in names if inspect.isclass(getattr(mod, n, None))]
    funcs = [n for n in names if inspect.isfunction(getattr(mod, n, None))]
    if funcs:
        head = "Functions"
        parts += [head, "-" * len(head), ""]
        parts += ["This module provides the following functions:", ""]
        parts += [f"* ``{n}()``" for n in funcs] + [""]
        for n in funcs:
            fn = getattr(mod, n)
            parts += [f"``{n}``", "^" * (len(n) + 6), ""]
            try:
                signature = f"{n}{inspect.signature(fn)}"
            except (TypeError, ValueError):
                signature = f"{n}(...)"
            parts += [".. code-block:: python", "", f"   {signature}", ""]
            parts += [p + "\n" for p in _doc_paragraphs(fn)]
    for cname in classes:
        cls = getattr(mod, cname)
        head = f"The {cname} class"
        parts += [head, "-" * len(head), ""]
        parts += [p + "\n" for p in _doc_paragraphs(cls)]
        methods = [m for m, v in vars(cls).items() if inspect.isfunction(v) and not m.startswith("_")]
        if methods:
            parts += [".. list-table:: Methods", "   :header-rows: 1", "", "   * - Method", "     - Summary"]
            for m in methods:
                summary = (inspect.getdoc(getattr(cls, m)) or "").split("\n")[0] or "(undocumented)"
                parts += [f"   * - ``{m}()``", f"     - {_rst_escape(summary)}"]
            parts.append("")
        for m in methods:
            parts += [f"``{cname}.{m}``", "^" * (len(cname) + len(m) + 5), ""]
            parts += [p + "\n" for p in _doc_paragraphs(getattr(cls, m))]
    return "\n".join(parts) + "\n"


def _build_site(ws: Workspace) -> Path:
    ws.pip_install("sphinx")
    modules = ["pathlib", "json", "shlex", "textwrap", "fractions"]
    ws.write(
        "docsrc/conf.py",
        """
        project = "Stdlib Field Guide"
        author = "capture"
        extensions = []
        html_theme = "alabaster"
        html_sidebars = {"**": ["about.html", "navigation.html", "relations.html", "searchbox.html"]}
        """,
    )
    toc = "\n".join(f"   {m}" for m in modules)
    ws.write(
        "docsrc/index.rst",
        "Stdlib Field Guide\n==================\n\n"
        "Notes on a few standard library modules, generated from their docstrings.\n\n"
        "A page that moved: `old notes <legacy/notes.html>`_ and the `changelog <changes.html>`_.\n\n"
        f".. toctree::\n   :maxdepth: 2\n\n{toc}\n",
    )
    for m in modules:
        (ws.path("docsrc") / f"{m}.rst").write_text(_module_page(m), encoding="utf-8")
    ws.sh("sphinx-build -q -b html docsrc site/docs 2>/dev/null || sphinx-build -q -b html docsrc site/docs")
    site = ws.path("site")
    for m in ("argparse", "collections"):
        ws.sh(f"python3 -m pydoc -w {m}", site)
    blob = random.Random(7).randbytes(5 * 1024 * 1024)
    (site / "big.bin").write_bytes(blob)
    return site


class _Signals(HTMLParser):
    """title, and h1/h2 inside role=main (the whole page when it has none)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.heads: list[tuple[str, str, bool]] = []
        self._in: str | None = None
        self._buf: list[str] = []
        self._main_depth = 0
        self._depth = 0
        self.has_main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("meta", "link", "br", "img", "input", "hr"):
            return
        self._depth += 1
        if dict(attrs).get("role") == "main" and not self._main_depth:
            self._main_depth = self._depth
            self.has_main = True
        if tag in ("title", "h1", "h2"):
            self._in, self._buf = tag, []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("meta", "link", "br", "img", "input", "hr"):
            return
        if tag == self._in:
            text = " ".join("".join(self._buf).replace("\u00b6", " ").split())
            if tag == "title":
                self.title = text
            elif text:
                self.heads.append((tag, text, bool(self._main_depth)))
            self._in = None
        if self._main_depth and self._depth == self._main_depth:
            self._main_depth = 0
        self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._in:
            self._buf.append(data)


def html_signals(html: str) -> list[Any]:
    p = _Signals()
    p.feed(html)
    out = [sig("title", p.title, match="html")] if p.title else []
    out += [sig(tag, text, match="html") for tag, text, in_main in p.heads if in_main or not p.has_main]
    return out


def _items(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    words = ["bolt", "washer", "bracket", "hinge", "spring", "gasket", "rivet", "clamp", "valve", "bearing"]
    sites = ["north", "south", "east", "west"]
    out = []
    for i in range(1, n + 1):
        w = rng.choice(words)
        out.append(
            {
                "id": i,
                "sku": f"{w[:3].upper()}-{i:05d}",
                "name": f"{w} M{rng.choice([4, 5, 6, 8, 10])} {rng.choice(['zinc', 'steel', 'brass'])}",
                "price": round(rng.uniform(0.05, 40), 2),
                "qty": rng.randint(0, 5000),
                "tags": rng.sample(["fastener", "bulk", "outdoor", "spare", "metric", "clearance"], 2),
                "warehouse": {"site": rng.choice(sites), "aisle": rng.randint(1, 40), "bin": f"B{rng.randint(1, 999)}"},
                "updated_at": f"2026-0{rng.randint(1, 9)}-{rng.randint(10, 28)}T{rng.randint(10, 23)}:00:00Z",
            }
        )
    return out


BATCH_ERRORS = {
    17: "sku BOL-00017 is discontinued",
    204: "quantity 0 is below the minimum order of 25",
    388: "warehouse west is closed for stocktaking",
}


def _batch() -> dict[str, Any]:
    results = []
    for item in _items(420, 11):
        err = BATCH_ERRORS.get(item["id"])
        if err:
            results.append({"id": item["id"], "sku": item["sku"], "status": "rejected", "error": err})
        else:
            results.append({"id": item["id"], "sku": item["sku"], "status": "accepted", "qty": item["qty"]})
    return {
        "batch": "imp-2026-11-30-01",
        "accepted": 420 - len(BATCH_ERRORS),
        "rejected": len(BATCH_ERRORS),
        "results": results,
    }


DEBUG_STYLE = "\n".join(
    f"    .{c} {{ margin: 0; padding: 4px 8px; font-family: monospace; color: #{i * 111111 % 999999:06d}; }}"
    for i, c in enumerate(["frame", "context", "vars", "line", "lineno", "code", "exc", "req", "meta", "hdr"] * 6)
)


def _debug_page(path: str) -> tuple[str, str]:
    """A framework-style debug 500 page around a real traceback; returns (html, exception line)."""

    def lookup(sku: str, stock: dict[str, int]) -> int:
        return stock[sku]

    def report(skus: list[str]) -> dict[str, int]:
        stock = {"BOL-00001": 4, "WAS-00002": 9}
        return {s: lookup(s, stock) for s in skus}

    try:
        report(["BOL-00001", "SPR-00042"])
    except KeyError:
        tb = traceback.format_exc()
    exc_line = tb.rstrip().splitlines()[-1]
    from html import escape

    rows = "\n".join(
        f"<tr><td>{k}</td><td class='code'><pre>{escape(v)}</pre></td></tr>"
        for k, v in [
            ("REQUEST_METHOD", "GET"),
            ("PATH_INFO", path),
            ("SERVER_NAME", "127.0.0.1"),
            ("HTTP_ACCEPT", "*/*"),
            ("HTTP_USER_AGENT", "curl"),
            ("wsgi.version", "(1, 0)"),
            ("wsgi.multithread", "True"),
        ]
        * 4
    )
    html = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta http-equiv="content-type" content="text/html; charset=utf-8">
  <meta name="robots" content="NONE,NOARCHIVE">
  <title>KeyError at {path}</title>
  <style>
{DEBUG_STYLE}
  </style>
  <script>
    function toggle() {{ for (var i = 0; i < arguments.length; i++) {{
      var e = document.getElementById(arguments[i]); if (e) {{ e.style.display = e.style.display == 'none' ? 'block' : 'none'; }} }}
      return false; }}
  </script>
</head>
<body>
<div id="summary">
  <h1>KeyError at {path}</h1>
  <pre class="exception_value">{escape(exc_line.split(": ", 1)[1])}</pre>
  <table class="meta">
    <tr><th>Request Method:</th><td>GET</td></tr>
    <tr><th>Request URL:</th><td>http://127.0.0.1{path}</td></tr>
    <tr><th>Exception Type:</th><td>KeyError</td></tr>
    <tr><th>Python Version:</th><td>3.11</td></tr>
  </table>
</div>
<div id="traceback">
  <h2>Traceback</h2>
  <pre class="traceback">{escape(tb)}</pre>
</div>
<div id="requestinfo">
  <h2>Request information</h2>
  <h3>META</h3>
  <table class="req"><thead><tr><th>Variable</th><th>Value</th></tr></thead><tbody>
{rows}
  </tbody></table>
</div>
<div id="explanation">
  <p>You're seeing this error because you have <code>DEBUG = True</code> in your settings file.
  Change that to <code>False</code>, and the server will display a standard page generated by the
  handler for this status code.</p>
</div>
</body>
</html>
"""
    return html, exc_line


class _Handler(SimpleHTTPRequestHandler):
    server_version = "capture-httpd/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, code: int, body: bytes, ctype: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, code: int, doc: Any, indent: int | None = None) -> None:
        self._send(code, json.dumps(doc, indent=indent).encode(), "application/json")

    def do_GET(self) -> None:
        url = urlparse(self.path)
        q = parse_qs(url.query)
        if url.path == "/old":
            self.send_response(301)
            self.send_header("Location", "/moved")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if url.path == "/moved":
            self.send_response(302)
            self.send_header("Location", "/docs/index.html")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if url.path == "/docs/legacy/notes.html":
            self.send_response(301)
            self.send_header("Location", "/docs/json.html")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if url.path == "/api/items":
            limit = int(q.get("limit", ["20"])[0])
            items = _items(limit, 3)
            doc = {
                "count": len(items),
                "page": 1,
                "next_page": f"/api/items?limit={limit}&page=2",
                "generated_at": "2026-11-30T08:00:00Z",
                "items": items,
            }
            self._json(200, doc, indent=2 if "pretty" in q else None)
            return
        if url.path.startswith("/api/items/"):
            item = _items(12, 3)[int(url.path.rsplit("/", 1)[1]) - 1]
            self._json(200, item, indent=2)
            return
        if url.path == "/api/batch":
            self._json(207, _batch(), indent=2)
            return
        if url.path == "/api/fail":
            self._json(
                500,
                {"error": {"code": "db_locked", "message": "database is locked", "request_id": "req-7f3a9c"}},
            )
            return
        if url.path == "/api/report":
            html, _ = _debug_page(url.path)
            self._send(500, html.encode(), "text/html; charset=utf-8")
            return
        super().do_GET()

    def do_HEAD(self) -> None:
        super().do_HEAD()


class Server:
    def __init__(self, root: Path) -> None:
        handler = lambda *a, **k: _Handler(*a, directory=str(root), **k)  # noqa: E731
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _closed_port() -> int:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there any more
    return int(port)


# ----------------------------------------------------------------- capture


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("curl", "wget")
    curl_v = ws.version(["curl", "--version"])
    wget_v = ws.version(["wget", "--version"])
    try:
        site = _build_site(ws)
    except RuntimeError as exc:
        raise Skip(f"could not build the test site: {exc}") from exc
    srv = Server(site)
    try:
        return _capture(ws, srv, site, curl_v, wget_v)
    finally:
        srv.stop()


def _capture(ws: Workspace, srv: Server, site: Path, curl_v: str, wget_v: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def fx(id: str, rule: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        version = curl_v if rule == CURL else wget_v
        out.append(
            ws.fixture(
                id, rule, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    def page(rel: str) -> str:
        return (site / rel).read_text(encoding="utf-8")

    # HTML pages.
    r = ws.run(["curl", "-s", srv.url("/docs/pathlib.html")])
    fx(
        "curl-html-sphinx-page",
        CURL,
        r,
        html_signals(page("docs/pathlib.html")),
        HTML_SIGNALS,
        "Sphinx (alabaster) page built from pathlib's docstrings",
    )
    r = ws.run(["curl", "-s", "-i", srv.url("/docs/json.html")])
    fx(
        "curl-html-include-headers",
        CURL,
        r,
        [sig("status", "HTTP/1.0 200 OK"), *html_signals(page("docs/json.html"))],
        HTML_SIGNALS + "; the status line http.server sends",
        "-i: status line and headers before the page",
    )
    r = ws.run(["curl", "-sS", srv.url("/argparse.html")])
    fx(
        "curl-html-pydoc-large",
        CURL,
        r,
        html_signals(page("argparse.html")),
        HTML_SIGNALS,
        "pydoc -w argparse: table layout, no h1/h2",
    )
    r = ws.run(["curl", "-s", srv.url("/docs/index.html")])
    fx("curl-html-small-index", CURL, r, html_signals(page("docs/index.html")), HTML_SIGNALS)
    r = ws.run(["curl", "-s", srv.url("/docs/no-such-page.html")])
    fx(
        "curl-html-404-page",
        CURL,
        r,
        [sig("title", "Error response", match="html"), sig("error", "Error code: 404", match="html")],
        "http.server's error page: its title and error code line",
    )
    html, exc_line = _debug_page("/api/report")
    r = ws.run(["curl", "-s", "-i", srv.url("/api/report")])
    fx(
        "curl-html-500-debug-page",
        CURL,
        r,
        [sig("status", "HTTP/1.0 500"), *html_signals(html), sig("exception", exc_line)],
        HTML_SIGNALS + "; the status the handler sends and the last line of the traceback it embeds",
    )

    # JSON APIs.
    r = ws.run(["curl", "-s", srv.url("/api/items/7")])
    item = _items(12, 3)[6]
    fx(
        "curl-json-small",
        CURL,
        r,
        [sig("json_value", f'"sku": "{item["sku"]}"'), sig("json_value", item["name"])],
        "the item the handler serves: its sku and name",
    )
    r = ws.run(["curl", "-s", srv.url("/api/items?limit=600")])
    keys = ["count", "page", "next_page", "generated_at", "items"]
    fx(
        "curl-json-large-minified",
        CURL,
        r,
        [
            *(sig("json_key", k) for k in keys),
            sig("array_length", "600"),
            sig("json_value", "/api/items?limit=600&page=2"),
        ],
        "the generated document: its top-level keys, the items array length, the next_page value",
    )
    r = ws.run(["curl", "-s", srv.url("/api/items?limit=150&pretty=1")])
    fx(
        "curl-json-large-pretty",
        CURL,
        r,
        [*(sig("json_key", k) for k in keys), sig("array_length", "150")],
        "the generated document: its top-level keys and the items array length",
    )
    r = ws.run(["curl", "-s", "-i", srv.url("/api/batch")])
    batch = _batch()
    fx(
        "curl-json-batch-errors",
        CURL,
        r,
        [
            sig("status", "HTTP/1.0 207"),
            sig("json_value", f'"rejected": {batch["rejected"]}'),
            *(sig("error", msg) for msg in BATCH_ERRORS.values()),
        ],
        "the batch document the handler builds: the rejected count and each element's error message",
    )
    r = ws.run(["curl", "-sS", "-i", srv.url("/api/fail")])
    fx(
        "curl-json-500-error",
        CURL,
        r,
        [sig("status", "HTTP/1.0 500"), sig("error", "database is locked"), sig("error", "db_locked")],
        "the error document the handler sends",
    )

    # Transport: verbose, failures, downloads, redirects.
    r = ws.run(["curl", "-v", srv.url("/docs/missing.html")])
    fx(
        "curl-verbose-404",
        CURL,
        r,
        [
            sig("request", "GET /docs/missing.html HTTP/1.1"),
            sig("status", "HTTP/1.0 404 File not found"),
            sig("title", "Error response", match="html"),
        ],
        "the request curl sends and http.server's 404 status and error page",
    )
    port = _closed_port()
    r = ws.run(["curl", "-sS", f"http://127.0.0.1:{port}/api/items"])
    fx(
        "curl-connection-refused",
        CURL,
        r,
        [sig("error", "curl: (7) Failed to connect to 127.0.0.1")],
        "curl's documented exit 7 message for a port nothing listens on",
    )
    r = ws.run(["curl", "-sSf", srv.url("/docs/missing.html")])
    fx(
        "curl-fail-404",
        CURL,
        r,
        [sig("error", "curl: (22) The requested URL returned error: 404")],
        "curl's documented exit 22 message for -f and a 404",
    )
    r = ws.run(["curl", "-sS", "http://no-such-host.invalid/"])
    fx(
        "curl-dns-failure",
        CURL,
        r,
        [sig("error", "curl: (6) Could not resolve host: no-such-host.invalid")],
        "the .invalid TLD never resolves (RFC 6761): curl's exit 6 message",
    )
    dl = ws.path("dl")
    dl.mkdir(exist_ok=True)
    r = ws.run(["curl", "-o", "big.bin", srv.url("/big.bin")], dl)
    fx("curl-download-progress", CURL, r, [sig("size", "5120k")], "the served file is 5 MiB: curl's meter shows 5120k")
    r = ws.run(["curl", "-sSL", "-i", srv.url("/old")])
    fx(
        "curl-redirect-chain",
        CURL,
        r,
        [
            sig("status", "HTTP/1.0 301 Moved Permanently"),
            sig("status", "HTTP/1.0 302 Found"),
            sig("location", "Location: /moved"),
            sig("location", "Location: /docs/index.html"),
            *html_signals(page("docs/index.html")),
        ],
        "the redirects the handler sends and the final page's headings",
    )
    r = ws.run(["curl", "-sI", srv.url("/docs/shlex.html")])
    size = (site / "docs/shlex.html").stat().st_size
    fx(
        "curl-head",
        CURL,
        r,
        [sig("status", "HTTP/1.0 200 OK"), sig("header", f"Content-Length: {size}")],
        "the status and the served file's size",
    )

    # wget.
    shutil.rmtree(dl, ignore_errors=True)
    dl.mkdir()
    r = ws.run(["wget", srv.url("/big.bin")], dl)
    fx(
        "wget-download-dots",
        WGET,
        r,
        [sig("status", "200 OK"), sig("saved", "big.bin"), sig("size", "5242880")],
        "the served file: its name and size in bytes",
    )
    r = ws.run(["wget", srv.url("/old")], dl)
    fx(
        "wget-redirects",
        WGET,
        r,
        [sig("status", "301 Moved Permanently"), sig("status", "302 Found"), sig("location", "/docs/index.html")],
        "the redirects the handler sends",
    )
    r = ws.run(["wget", srv.url("/docs/missing.html")], dl)
    fx("wget-404", WGET, r, [sig("error", "ERROR 404: File not found.")], "http.server's 404 reason phrase")
    r = ws.run(["wget", "--tries=1", f"http://127.0.0.1:{port}/x"], dl)
    fx("wget-connection-refused", WGET, r, [sig("error", "failed: Connection refused.")], "a port nothing listens on")
    r = ws.run(["wget", "http://no-such-host.invalid/"], dl)
    fx(
        "wget-dns-failure",
        WGET,
        r,
        [sig("error", "unable to resolve host address")],
        "the .invalid TLD never resolves (RFC 6761)",
    )
    r = ws.run(["wget", "-qO-", srv.url("/docs/textwrap.html")])
    fx("wget-stdout-html", WGET, r, html_signals(page("docs/textwrap.html")), HTML_SIGNALS, "-qO-: the page on stdout")
    mirror = ws.path("mirror")
    mirror.mkdir(exist_ok=True)
    r = ws.run(
        ["wget", "-r", "-l", "2", "-np", "--reject", "*.js,*.css,*.png,*.svg", srv.url("/docs/index.html")], mirror
    )
    written = sum(1 for p in mirror.rglob("*") if p.is_file())
    broken = [u for u in re.findall(r"--\S+ \S+--  (\S+)", r.combined) if u.endswith("/changes.html")]
    sigs = [sig("summary", f"Downloaded: {written} files")]
    sigs += [sig("error", "ERROR 404: File not found."), *(sig("broken_link", u) for u in broken[:1])]
    fx(
        "wget-recursive-mirror",
        WGET,
        r,
        sigs,
        "the number of files wget wrote under the mirror directory; the site's broken link",
        "recursive crawl of the Sphinx site (scripts and styles rejected)",
    )
    shutil.rmtree(mirror, ignore_errors=True)
    shutil.rmtree(dl, ignore_errors=True)
    return out
