"""Cache file names: a digest that is the same in every process."""

from __future__ import annotations

import os
import subprocess
import sys

from tokenjuice.paths import short_digest


def test_short_digest_is_fnv1a_32() -> None:
    # The published FNV-1a test vectors.
    assert short_digest("") == "811c9dc5"
    assert short_digest("a") == "e40c292c"
    assert short_digest("foobar") == "bf9cf968"


def test_short_digest_is_the_same_in_another_process() -> None:
    text = "3|0.1.0|(3, 11)\0builtin\0/somewhere/rules\0user\0/home/dev/.config/tokenjuice/rules é"
    # (argv cannot carry the NUL separators: the text goes through stdin)
    code = "import sys; from tokenjuice.paths import short_digest; print(short_digest(sys.stdin.read()))"
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONIOENCODING": "utf-8"}
        out = subprocess.run(
            [sys.executable, "-c", code], input=text, env=env, capture_output=True, encoding="utf-8", check=True
        )
        assert out.stdout.strip() == short_digest(text)
