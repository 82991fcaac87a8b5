"""http-response (curl, wget): HTML as text, JSON as structure, transport noise dropped."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import load, lost, reduce_fixture
from tokenjuice.reduction.formatters import _htmltext, _jsonshape

HTML_PAGES = [
    "curl-html-sphinx-page",
    "curl-html-include-headers",
    "curl-html-pydoc-large",
    "curl-html-small-index",
    "curl-html-404-page",
    "curl-html-500-debug-page",
    "curl-redirect-chain",
]


def _body(fx: dict[str, object]) -> str:
    out = str(fx["stdout"])
    return out.split("\r\n\r\n", 1)[-1] if out.startswith("HTTP/") else out


@pytest.mark.parametrize("fid", HTML_PAGES)
def test_html_keeps_title_and_headings_drops_markup(fid: str) -> None:
    fx, red = reduce_fixture("http", fid)
    assert not lost(fx, red.text)
    assert "<script" not in red.text
    assert "<div" not in red.text
    assert "</" not in red.text


def test_headings_become_markdown_lines() -> None:
    fx, red = reduce_fixture("http", "curl-html-sphinx-page")
    lines = red.text.splitlines()
    for s in fx["signals"]:
        if s["kind"] == "h1":
            assert f"# {s['text']}" in lines
        elif s["kind"] == "h2":
            assert f"## {s['text']}" in lines
    assert any(ln.startswith("title: ") for ln in lines)


def test_long_page_is_condensed_short_page_is_whole() -> None:
    _fx, big = reduce_fixture("http", "curl-html-pydoc-large")
    assert big.reduced_chars < big.raw_chars * 0.1
    fx, small = reduce_fixture("http", "curl-html-404-page")
    # Every paragraph of the short error page survives in full.
    for para in re.findall(r"<p>(.*?)</p>", str(fx["stdout"])):
        assert para in small.text


def test_navigation_and_sidebars_dropped() -> None:
    _fx, red = reduce_fixture("http", "curl-html-sphinx-page")
    # Alabaster's sidebar and search box are chrome, not content.
    assert "Quick search" not in red.text
    assert "Navigation" not in red.text


def test_include_keeps_status_and_key_headers_only() -> None:
    _fx, red = reduce_fixture("http", "curl-html-include-headers")
    lines = red.text.splitlines()
    assert lines[0] == "HTTP/1.0 200 OK"
    assert any(ln.lower().startswith("content-type:") for ln in lines)
    assert not any(ln.startswith(("Date:", "Server:", "Last-Modified:")) for ln in lines)


def test_debug_page_keeps_exception_and_traceback_tail() -> None:
    fx, red = reduce_fixture("http", "curl-html-500-debug-page")
    assert not lost(fx, red.text)
    assert "function toggle" not in red.text  # inline script dropped
    assert "HTTP/1.0 500" in red.text.splitlines()[0]


@pytest.mark.parametrize("fid", ["curl-html-sphinx-page", "curl-html-pydoc-large", "wget-stdout-html"])
def test_stdlib_fallback_keeps_the_same_signals(fid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_htmltext, "have_library", lambda: False)
    fx, red = reduce_fixture("http", fid)
    assert not lost(fx, red.text)
    assert red.reduced_chars < red.raw_chars * 0.2


@pytest.mark.parametrize("fid", ["curl-html-sphinx-page", "curl-html-500-debug-page", "curl-html-404-page"])
def test_both_parsers_agree_on_well_formed_pages(fid: str) -> None:
    pytest.importorskip("selectolax")
    html = _body(load("http", fid))
    lib = [(b.kind, b.text) for b in _htmltext.blocks(html, use_library=True)]
    std = [(b.kind, b.text) for b in _htmltext.blocks(html, use_library=False)]
    assert lib == std


def test_broken_markup_still_yields_blocks_with_both_parsers() -> None:
    html = "<html><head><title>T</title><body><h1>Top<p>first para<p>second <b>bold<ul><li>one<li>two</ul>"
    for use_library in [True, False] if _htmltext.have_library() else [False]:
        blocks = [(b.kind, b.text) for b in _htmltext.blocks(html, use_library=use_library)]
        assert ("title", "T") in blocks
        assert ("h1", "Top") in blocks
        assert ("li", "one") in blocks
        assert ("li", "two") in blocks
        assert any(k == "p" and t.startswith("second") for k, t in blocks)


def test_unclosed_lt_is_escaped_only_when_no_gt_follows() -> None:
    assert _htmltext.unclosed_lt("if x < 0:") == "if x &lt; 0:"
    assert _htmltext.unclosed_lt("List<String> x") == "List<String> x"
    assert _htmltext.unclosed_lt("a > b < c") == "a > b &lt; c"


def test_large_json_becomes_structure() -> None:
    fx, red = reduce_fixture("http", "curl-json-large-minified")
    assert not lost(fx, red.text)
    doc = json.loads(str(fx["stdout"]))
    assert f"array[{len(doc['items']):,}] of object" in red.text
    for key in doc:
        assert f'"{key}":' in red.text
    assert red.reduced_chars < red.raw_chars * 0.02


def test_pretty_and_minified_json_summaries_match() -> None:
    _fx, pretty = reduce_fixture("http", "curl-json-large-pretty")
    assert "keys: id: int, sku: str" in pretty.text


def test_batch_errors_are_verbatim() -> None:
    fx, red = reduce_fixture("http", "curl-json-batch-errors")
    assert not lost(fx, red.text)
    doc = json.loads(_body(fx))
    failed = [(i, r) for i, r in enumerate(doc["results"]) if "error" in r]
    for i, r in failed:
        assert f'[{i}] ({r["id"]}) "error": {json.dumps(r["error"])}' in red.text


def test_small_json_passes_unchanged() -> None:
    fx, red = reduce_fixture("http", "curl-json-small")
    assert red.text == str(fx["stdout"]).strip()


def test_json_error_keys_recognised() -> None:
    assert _jsonshape.ERROR_KEY_RE.search("validation_errors")
    assert _jsonshape.ERROR_KEY_RE.search("message")
    assert not _jsonshape.ERROR_KEY_RE.search("items")


def test_verbose_trace_keeps_request_status_and_key_headers() -> None:
    fx, red = reduce_fixture("http", "curl-verbose-404")
    assert not lost(fx, red.text)
    assert "> GET /docs/missing.html HTTP/1.1" in red.text
    assert "User-Agent" not in red.text
    assert "Trying" not in red.text
    assert "% Total" not in red.text


def test_progress_meter_becomes_one_line() -> None:
    _fx, red = reduce_fixture("http", "curl-download-progress")
    assert "Dload" not in red.text
    assert re.search(r"^transfer: 5120k bytes received \(100%\)", red.text, re.MULTILINE)


@pytest.mark.parametrize(
    ("fid", "code"),
    [("curl-connection-refused", 7), ("curl-fail-404", 22), ("curl-dns-failure", 6)],
)
def test_curl_errors_and_exit_codes_stay(fid: str, code: int) -> None:
    fx, red = reduce_fixture("http", fid)
    assert red.text.splitlines()[0] == f"exit {code}"
    assert not lost(fx, red.text)


def test_wget_one_line_per_request_and_errors_kept() -> None:
    fx, red = reduce_fixture("http", "wget-recursive-mirror")
    assert not lost(fx, red.text)
    urls = re.findall(r"^--\S+ \S+--  (\S+)$", str(fx["combined"]), re.MULTILINE)
    for url in set(urls):
        assert url in red.text
    assert "Connecting to" not in red.text
    assert "Saving to:" not in red.text


def test_wget_dot_progress_dropped() -> None:
    fx, red = reduce_fixture("http", "wget-download-dots")
    assert not lost(fx, red.text)
    assert " 0K ...." not in red.text
    assert len(red.text.splitlines()) <= 4
