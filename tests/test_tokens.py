"""Token counting: the estimate's UTF-8 length is exact, slice by slice."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tokenjuice import tokens

FIXTURES = Path(__file__).parent / "fixtures"


def test_utf8_length_is_the_encoded_length_for_captured_and_mixed_text() -> None:
    rng = random.Random(7)
    texts = [json.loads(p.read_text())["combined"] for p in sorted(FIXTURES.glob("*/*.json"))[:200]]
    # Characters of every UTF-8 width, lone surrogates (kept by surrogatepass), on both
    # sides of the slice boundaries.
    alphabet = ["a", "\n", "é", "…", "✓", "😀", "\udc80", "\ud83d"]
    texts += [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3 * tokens._UTF8_SLICE_CHARS))) for _ in range(30)
    ]
    for text in texts:
        assert tokens.utf8_len(text) == len(text.encode("utf-8", "surrogatepass"))


def test_estimate_counts_bytes_not_characters() -> None:
    assert tokens.estimate("") == 0
    assert tokens.estimate("a" * 1000) == 300
    assert tokens.estimate("…" * 1000) == 900  # three bytes each
