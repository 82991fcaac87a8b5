"""Token counts: an estimate by default, exact o200k_base with the `tokens` extra.

The estimate is `ceil(utf8_bytes / 4)`: no import, linear, and within the spread BPE
tokenizers show on tool output. Figures produced with it are labelled "estimate";
exact figures are labelled with the tokenizer's name. See `tokenjuice.tokens.counter()`.
"""

from __future__ import annotations

ESTIMATE_NAME = "estimate/utf8-bytes-div-4"


def estimate(text: str) -> int:
    if not text:
        return 0
    n = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    return (n + 3) // 4


class Counter:
    """Counts tokens; `exact` is False for the estimate."""

    __slots__ = ("_fn", "exact", "name")

    def __init__(self, name: str, fn: object, exact: bool) -> None:
        self.name = name
        self._fn = fn
        self.exact = exact

    def count(self, text: str) -> int:
        return self._fn(text)  # type: ignore[operator,no-any-return]


_counter: Counter | None = None


def counter() -> Counter:
    """The process-wide counter: exact when available and enabled, else the estimate."""
    global _counter
    if _counter is None:
        _counter = _make_counter()
    return _counter


def _make_counter() -> Counter:
    import os

    choice = os.environ.get("TOKENJUICE_TOKENIZER", "auto")
    if choice in ("auto", "o200k", "o200k_base"):
        exact = _exact_counter()
        if exact is not None:
            return exact
    return Counter(ESTIMATE_NAME, estimate, False)


def _exact_counter() -> Counter | None:
    """o200k_base via the optional `tokenjuice[tokens]` extra; None when not installed."""
    import importlib

    try:
        module = importlib.import_module("tokenjuice._o200k")
    except ImportError:
        return None
    enc = module.load_encoder()
    if enc is None:
        return None
    return Counter("o200k_base", enc, True)


def reset() -> None:
    global _counter
    _counter = None
