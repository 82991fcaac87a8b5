"""Token counts: exact o200k_base with the `tokens` extra, otherwise an estimate.

Exact: `pip install 'tokenjuice[tokens]'` brings `bpe-openai`, which embeds the
o200k_base vocabulary in its compiled extension (no download, works offline) and counts
exactly what OpenAI's tiktoken counts. Loading it costs most of a second, which a
reduction must not pay (an agent's first tool call would stall), so reductions count
with the estimate unless exact figures are asked for: `TOKENJUICE_TOKENIZER=o200k`, or
`use_exact()` in a process that wants them (a long-lived host, a report). Past
`EXACT_MAX_CHARS` the exact count is scaled from exact counts of samples, so counting
a huge output does not take longer than reducing it.

Estimate: `ceil(utf8_bytes * 0.3)`. Calibrated against o200k_base on captured tool
output (`python scripts/calibrate_tokens.py`): tool output runs denser than prose, and
bytes/4 undercounts it by about a fifth. `TOKENJUICE_TOKENIZER=estimate` forces it.
Every figure carries the counter's name (`o200k_base`, or `estimate/utf8-bytes-x0.3`),
so reports never mix the two silently. The reduced text never depends on the counter:
budgets are in characters unless a token budget is given explicitly.
"""

from __future__ import annotations

import os

ESTIMATE_NAME = "estimate/utf8-bytes-x0.3"
TOKENS_PER_BYTE = 0.3
# bpe-openai refuses a single encode above this many tokens; count in pieces.
_EXACT_PIECE_CHARS = 256 * 1024


# Non-ASCII text is measured in slices this long: its UTF-8 length without a whole
# encoded copy of a large output in memory.
_UTF8_SLICE_CHARS = 4096


def utf8_len(text: str) -> int:
    """len(text.encode("utf-8", "surrogatepass")), holding at most a slice encoded."""
    if text.isascii():
        return len(text)
    step = _UTF8_SLICE_CHARS
    return sum(len(text[i : i + step].encode("utf-8", "surrogatepass")) for i in range(0, len(text), step))


def estimate(text: str) -> int:
    if not text:
        return 0
    return int(utf8_len(text) * TOKENS_PER_BYTE + 0.999)


# Exact counting grows with the text; past this many characters the count is scaled
# from an exact count of the first and last quarter-megabyte instead.
EXACT_MAX_CHARS = 512 * 1024


class Counter:
    """Counts tokens; `exact` is False for the estimate (see `is_exact`)."""

    __slots__ = ("_fn", "exact", "name")

    def __init__(self, name: str, fn: object, exact: bool) -> None:
        self.name = name
        self._fn = fn
        self.exact = exact

    def count(self, text: str) -> int:
        return self._fn(text)  # type: ignore[operator,no-any-return]

    def is_exact(self, text: str) -> bool:
        """Whether `count(text)` is exact (long texts are scaled from samples)."""
        return self.exact and len(text) <= EXACT_MAX_CHARS


ESTIMATE = Counter(ESTIMATE_NAME, estimate, False)
_counter: Counter | None = None
_want_exact = False


def use_exact() -> None:
    """Count exactly from now on in this process when the `tokens` extra is installed
    (the estimate otherwise), unless TOKENJUICE_TOKENIZER=estimate says no."""
    global _want_exact, _counter
    _want_exact = True
    _counter = None


def counter() -> Counter:
    """The process-wide counter (see the module docstring for the choice)."""
    global _counter
    if _counter is None:
        _counter = _make_counter()
    return _counter


def _make_counter() -> Counter:
    choice = os.environ.get("TOKENJUICE_TOKENIZER", "auto").lower()
    if choice in ("estimate", "approx"):
        return ESTIMATE
    if choice == "auto" and not _want_exact:
        return ESTIMATE
    exact = exact_counter()
    if exact is not None:
        return exact
    if choice in ("o200k", "o200k_base", "exact"):
        from tokenjuice import _log

        _log.warn(
            "TOKENJUICE_TOKENIZER asks for o200k_base but the 'tokens' extra is not installed; "
            "using the estimate (pip install 'tokenjuice[tokens]')",
            key="tokenizer-missing",
        )
    return ESTIMATE


def exact_counter() -> Counter | None:
    """o200k_base from the optional extra; None when it is not installed."""
    try:
        import bpe_openai  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    enc = bpe_openai.get_encoding("o200k_base")

    def exact(text: str) -> int:
        if len(text) <= _EXACT_PIECE_CHARS:
            return len(enc.encode(text, disallowed_special=()))
        return sum(len(enc.encode(piece, disallowed_special=())) for piece in _pieces(text))

    def count(text: str) -> int:
        if len(text) <= EXACT_MAX_CHARS:
            return exact(text)
        half = EXACT_MAX_CHARS // 2
        sample = text[:half] + text[-half:]
        return round(exact(sample) * len(text) / len(sample))

    return Counter("o200k_base", count, True)


def _pieces(text: str) -> list[str]:
    """Split at a newline followed by a letter or digit: o200k's pre-tokenizer never
    joins across such a point, so per-piece counts add up to the exact total."""
    out = []
    start = 0
    n = len(text)
    while start < n:
        cut = start + _EXACT_PIECE_CHARS
        if cut >= n:
            out.append(text[start:])
            break
        j = cut
        while j < n and not (text[j - 1] == "\n" and text[j].isalnum()):
            j += 1
        out.append(text[start:j])
        start = j
    return out


def available() -> dict[str, bool]:
    import importlib.util

    return {"o200k_base": importlib.util.find_spec("bpe_openai") is not None}


def reset() -> None:
    global _counter, _want_exact
    _counter = None
    _want_exact = False
