"""`tokenjuice._jsonc` reads and writes JSON exactly as `json.loads` and
`json.dumps(..., ensure_ascii=False)` do, errors included."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenjuice import _jsonc

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)


def _outcome(f: object, arg: object) -> tuple[str, object]:
    try:
        return "ok", repr(f(arg))  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 - the error is part of what must agree
        return "error", (type(exc).__name__, str(exc))


@given(JSON)
def test_dumps_is_json_dumps(value: object) -> None:
    assert _jsonc.dumps(value) == json.dumps(value, ensure_ascii=False)
    assert _jsonc.dumps(value, compact=True) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@given(JSON, st.sampled_from(["", " ", "\n\t ", "\r\n"]))
def test_loads_reads_what_json_writes(value: object, pad: str) -> None:
    text = pad + json.dumps(value) + pad
    assert _outcome(_jsonc.loads, text) == _outcome(json.loads, text)  # by repr: nan == nan


@given(st.text(alphabet='{}[]",:0123456789.eE+-tfnulrasIiNy \n\\', max_size=30))
def test_loads_agrees_on_any_text_errors_too(text: str) -> None:
    assert _outcome(_jsonc.loads, text) == _outcome(json.loads, text)


@pytest.mark.parametrize(
    "text",
    ['{"a": 1} x', "", "   ", "[1,]", '{"a" 1}', "\ufeff{}", "NaN", "[-Infinity]", '"\\ud800"', '{"a":1,"a":2}'],
)
def test_loads_edge_cases(text: str) -> None:
    assert _outcome(_jsonc.loads, text) == _outcome(json.loads, text)


@pytest.mark.parametrize(
    "value", [{"x": object()}, {(1, 2): 3}, [float("nan"), float("inf")], "é\u2028", {1: 2, None: 3}]
)
def test_dumps_edge_cases(value: object) -> None:
    assert _outcome(_jsonc.dumps, value) == _outcome(lambda v: json.dumps(v, ensure_ascii=False), value)


def test_a_circular_value_is_refused_and_the_next_call_still_works() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        _jsonc.dumps(loop)
    assert _jsonc.dumps([loop[:0], {"a": [1]}]) == '[[], {"a": [1]}]'


def test_it_does_not_import_the_json_package() -> None:
    code = (
        "import sys\nfrom tokenjuice import _jsonc\n"
        'v = _jsonc.loads(\'{"a": [1, 2.5, null, "\\u00e9"]}\')\n'
        "print(_jsonc.dumps(v), 'json' in sys.modules, 're' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == '{"a": [1, 2.5, null, "é"]} False False'
