"""stack-trace: Python tracebacks and Node errors from any command."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._forms import lines_of
from tokenjuice.reduction.formatters import stack_trace


@pytest.mark.parametrize(
    "fid",
    ["py-traceback-chained", "py-traceback-stdlib-frames", "py-traceback-site-packages", "py-traceback-recursion"],
)
def test_python_chain_kept_library_frames_folded(fid: str) -> None:
    fx, red = reduce_fixture("py-traceback", fid)
    # `python3 x.py` ending in its traceback: task/python, with the same formatter.
    assert red.rule_id in ("generic/python-traceback", "task/python")
    assert red.rule_id == fx["rule"]
    assert not lost(fx, red.text)
    assert "^^^^" not in red.text


def test_stdlib_frames_fold_into_one_line() -> None:
    _fx, red = reduce_fixture("py-traceback", "py-traceback-stdlib-frames")
    assert "library frames (" in red.text
    assert red.text.count("http/client.py") <= 1


def test_traceback_in_successful_run() -> None:
    fx, red = reduce_fixture("py-traceback", "py-traceback-logged-exit0")
    assert fx["exitCode"] == 0
    assert not lost(fx, red.text)


@pytest.mark.parametrize(
    "fid",
    ["node-json-parse-crash", "node-type-error", "node-error-cause", "node-missing-module", "node-unhandled-rejection"],
)
def test_node_errors(fid: str) -> None:
    fx, red = reduce_fixture("node-error", fid)
    # `node x.js` ending in its stack: task/node, with the same formatter.
    assert red.rule_id in ("generic/node-error", "task/node")
    assert red.rule_id == fx["rule"]
    assert not lost(fx, red.text)
    assert "Module._compile" not in red.text


def test_node_internal_frames_counted() -> None:
    _fx, red = reduce_fixture("node-error", "node-type-error")
    assert "internal frames" in red.text


# The library-frame patterns as they were written, with their start-anchored alternatives.
_PY_LIB_ANCHORED = re.compile(r"/(?:site|dist)-packages/|/lib/python\d(?:\.\d+)?/|^<frozen |^<string>$")
_JS_LIB_ANCHORED = re.compile(r"\(node:|^\s+at node:|/node_modules/|\(<anonymous>\)$|\(native\)$")


@settings(max_examples=600, deadline=None)
@given(lines_of("<frozen ", "<string>", "\n", "/lib/python3", ".11", "/", "site", "dist", "-packages/", "x", " "))
@example("<string>\n")
@example("<frozen importlib._bootstrap>")
@example("<frozen>")
def test_python_library_files_as_the_anchored_pattern_found(path: str) -> None:
    assert stack_trace._py_lib(path) is (_PY_LIB_ANCHORED.search(path) is not None)


@settings(max_examples=600, deadline=None)
@given(
    lines_of(
        "    ", "\t", "at ", "node:", "(node:", "internal", "/node_modules/", "(<anonymous>)", "(native)", "x", "\n"
    )
)
@example("    at node:internal/main:1:2")
@example("x    at node:internal")
def test_js_library_frames_as_the_anchored_pattern_found(line: str) -> None:
    assert stack_trace._js_lib(line) is (_JS_LIB_ANCHORED.search(line) is not None)
