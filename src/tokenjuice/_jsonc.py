"""JSON for the per-call paths (hook payloads and answers), without the json package.

`import json` brings `re` with it (its decoder and encoder compile patterns when they
are imported), which a hook call otherwise never needs. The parsing and
the encoding here are `_json`'s, the C code the json package itself runs, set up as
`json.loads(text)` and `json.dumps(obj, ensure_ascii=False)` set it up; whatever that
cannot do (invalid JSON, a value JSON has no form for, another Python implementation)
goes to the json package, which gives its own result or error.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_WS = " \t\n\r"
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}
_state: dict[str, Any] = {}


class _Context:
    """What `_json.make_scanner` reads from a `json.JSONDecoder()`."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__


def _no_default(o: object) -> Any:
    raise TypeError(type(o).__name__)


def _c() -> Any:
    """The `_json` module with a scanner made, or None (then the json package)."""
    got = _state.get("c", False)
    if got is False:
        from tokenjuice import _compat

        got = _compat.json_c()
        try:
            if got is not None:
                _state["scanner"] = got.make_scanner(_Context())
        except Exception:  # noqa: BLE001 - an accelerator that does not take this context
            got = None
        _state["c"] = got
    return got


def loads(text: str) -> Any:
    """`json.loads(text)`."""
    if _c() is not None:
        start = len(text) - len(text.lstrip(_WS))
        try:
            value, end = _state["scanner"](text, start)
        except Exception:  # noqa: BLE001 - invalid: the json package says where and why
            pass
        else:
            if not text[end:].strip(_WS):
                return value
    import json

    return json.loads(text)


def dumps(obj: Any, *, compact: bool = False) -> str:
    """`json.dumps(obj, ensure_ascii=False)`, with `separators=(",", ":")` if `compact`."""
    item, key = (",", ":") if compact else (", ", ": ")
    c = _c()
    if c is not None:
        try:
            if isinstance(obj, str):
                return str(c.encode_basestring(obj))
            # (markers, default, encoder, indent, key_separator, item_separator,
            # sort_keys, skipkeys, allow_nan): `json.dumps`' defaults, `ensure_ascii=False`.
            encode = c.make_encoder({}, _no_default, c.encode_basestring, None, key, item, False, False, True)
            return "".join(encode(obj, 0))
        except Exception:  # noqa: BLE001 - the json package's answer, or its error
            pass
    import json

    return json.dumps(obj, ensure_ascii=False, separators=(item, key))
