"""stack-trace: Python tracebacks and Node errors from any command."""

from __future__ import annotations

import pytest

from tests.helpers import lost, reduce_fixture


@pytest.mark.parametrize(
    "fid",
    ["py-traceback-chained", "py-traceback-stdlib-frames", "py-traceback-site-packages", "py-traceback-recursion"],
)
def test_python_chain_kept_library_frames_folded(fid: str) -> None:
    fx, red = reduce_fixture("py-traceback", fid)
    assert red.rule_id == "generic/python-traceback"
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
    assert red.rule_id == "generic/node-error"
    assert not lost(fx, red.text)
    assert "Module._compile" not in red.text


def test_node_internal_frames_counted() -> None:
    _fx, red = reduce_fixture("node-error", "node-type-error")
    assert "internal frames" in red.text
