#!/usr/bin/env python3
"""False positives of the secret redactor on ordinary tool output.

    python scripts/redaction_fp.py          # summary
    python scripts/redaction_fp.py -v       # every redacted value, to review by eye

Runs the default redactor over every captured fixture's raw output (builds, tests,
lints, installs, logs…, which contain no real secrets) and counts what it would redact.
Anything reported is either a false positive or a deliberately planted fake secret.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from tokenjuice.redact import Redactor  # noqa: E402
from tokenjuice.rules.fixtures import default_dir, fixture_run, iter_fixture_files, load_fixture  # noqa: E402


def main() -> int:
    verbose = "-v" in sys.argv
    redactor = Redactor()
    files = list(iter_fixture_files(default_dir()))
    total_lines = 0
    hits = 0
    hit_fixtures: dict[str, dict[str, int]] = {}
    for path in files:
        text = fixture_run(load_fixture(path)).combined
        total_lines += text.count("\n") + 1
        out, found = redactor.redact(text)
        if found:
            hits += sum(found.values())
            hit_fixtures[str(path.relative_to(default_dir()))] = found
            if verbose:
                for a, b in zip(text.splitlines(), out.splitlines(), strict=False):
                    if a != b:
                        print(f"  {path.name}: {a.strip()[:150]}")
                        print(f"  {'':{len(path.name)}}  {b.strip()[:150]}")
    print(
        f"{len(files)} fixtures, {total_lines:,} lines of tool output: {hits} redactions in "
        f"{len(hit_fixtures)} fixtures ({hits / max(total_lines, 1) * 1e6:.1f} per million lines)"
    )
    for name, found in sorted(hit_fixtures.items()):
        print(f"  {name}: {found}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
