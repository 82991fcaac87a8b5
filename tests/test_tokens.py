"""Token counting: the estimate's UTF-8 length is exact, slice by slice."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

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


PROBE = """
import sys
import tokenjuice
out = "".join(f"tests/test_m.py::test_{i} PASSED\\n" for i in range(300)) + "300 passed\\n"
r = tokenjuice.reduce(out, command="pytest -v")
print(r.tokenizer, "bpe_openai" in sys.modules)
"""


def _probe(env_extra: dict[str, str], tmp_path: Path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "TOKENJUICE_TOKENIZER"}
    env.update(TOKENJUICE_HOME=str(tmp_path), **env_extra)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_the_first_reduce_does_not_load_the_exact_tokenizer(tmp_path: Path) -> None:
    """With or without the `tokens` extra, a reduction counts with the estimate: loading
    o200k would stall an agent's first tool call for about a second."""
    assert _probe({}, tmp_path) == [tokens.ESTIMATE_NAME, "False"]


@pytest.mark.skipif(not tokens.available()["o200k_base"], reason="the tokens extra is not installed")
def test_exact_counts_when_asked_for(tmp_path: Path) -> None:
    assert _probe({"TOKENJUICE_TOKENIZER": "o200k"}, tmp_path) == ["o200k_base", "True"]
    try:
        tokens.use_exact()
        assert tokens.counter().name == "o200k_base"
        assert tokens.counter().count("hello world") == 2
    finally:
        tokens.reset()
    assert tokens.counter().name == tokens.ESTIMATE_NAME
