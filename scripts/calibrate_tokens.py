#!/usr/bin/env python3
"""How close the token estimate is to o200k_base on the captured fixtures.

    python scripts/calibrate_tokens.py      # needs the tokens extra: pip install -e '.[tokens]'

Prints the best single tokens-per-byte factor and the error distribution of the factor
tokenjuice uses, over every fixture's raw output and over its reduced text.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from tokenjuice.rules.fixtures import builtin_reducer, default_dir, fixture_run, iter_fixture_files, load_fixture  # noqa: E402
from tokenjuice.tokens import TOKENS_PER_BYTE, exact_counter  # noqa: E402


def main() -> int:
    exact = exact_counter()
    if exact is None:
        print("the tokens extra is not installed: pip install -e '.[tokens]'", file=sys.stderr)
        return 2
    reducer = builtin_reducer()
    samples: list[tuple[int, int]] = []  # (exact tokens, utf8 bytes)
    for path in iter_fixture_files(default_dir()):
        run = fixture_run(load_fixture(path))
        for text in (run.combined, reducer.reduce_run(run).text):
            if len(text) >= 200:
                samples.append((exact.count(text), len(text.encode("utf-8", "surrogatepass"))))
    ratios = sorted(n / b for n, b in samples)
    errors = [abs(estimate_for(b) / n - 1) for n, b in samples]
    print(f"{len(samples)} texts (raw and reduced) from the fixtures")
    print(
        f"o200k tokens per UTF-8 byte: median {statistics.median(ratios):.3f}, "
        f"p10 {ratios[len(ratios) // 10]:.3f}, p90 {ratios[len(ratios) * 9 // 10]:.3f}"
    )
    print(
        f"estimate (x{TOKENS_PER_BYTE}) relative error: median {statistics.median(errors):.1%}, "
        f"mean {statistics.mean(errors):.1%}, p90 {sorted(errors)[len(errors) * 9 // 10]:.1%}"
    )
    return 0


def estimate_for(n_bytes: int) -> int:
    return int(n_bytes * TOKENS_PER_BYTE + 0.999)


if __name__ == "__main__":
    raise SystemExit(main())
