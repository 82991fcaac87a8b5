#!/usr/bin/env python3
"""Regenerate the golden `.expected.txt` files from the current reducer.

    python scripts/update_goldens.py            # all fixtures
    python scripts/update_goldens.py tests/fixtures/git/git-status-long.json

Goldens pin the exact reduced text so any change in a reduction shows up in review
(`git diff tests/fixtures`). They are not the correctness check: the tests assert the
fixtures' independently derived signals, the stated exit code and the size.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from tokenjuice.rules.fixtures import (  # noqa: E402
    builtin_reducer,
    default_dir,
    fixture_run,
    golden_path,
    iter_fixture_files,
    load_fixture,
)


def update(paths: list[Path] | None = None) -> int:
    reducer = builtin_reducer()
    files = paths if paths else list(iter_fixture_files(default_dir()))
    changed = 0
    for path in files:
        fx = load_fixture(path)
        text = reducer.reduce_run(fixture_run(fx)).text + "\n"
        gp = golden_path(path)
        if not gp.exists() or gp.read_bytes().decode("utf-8") != text:
            gp.write_text(text, encoding="utf-8")
            changed += 1
    return changed


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("fixtures", nargs="*", type=Path, help="fixture files (default: all)")
    args = ap.parse_args()
    missing = [str(p) for p in args.fixtures if not p.is_file()]
    if missing:
        ap.error(f"no such fixture: {', '.join(missing)}")
    print(f"{update(args.fixtures or None)} golden files written or changed")
