"""Template collapse: lines alike but for their numbers fold into one, with ranges."""

from __future__ import annotations

import random

from tokenjuice.reduction.templates import collapse, shape


def test_warnings_fold_with_the_range_of_each_field_and_of_their_lines() -> None:
    rng = random.Random(3)
    lines: list[str] = []
    elapsed: list[int] = []
    for i in range(400):
        if i % 4 == 1:
            e = rng.randint(566, 3761)
            elapsed.append(e)
            lines.append(
                f"00:{i // 60:02d}:{i % 60:02d} WARNING [db] slow query table=orders elapsed={e}ms threshold=500ms"
            )
        else:
            lines.append(f"00:{i // 60:02d}:{i % 60:02d} INFO [http] GET /items/{i} 200")
    lines += ["ERROR [db] lost connection id=1", "ERROR [db] lost connection id=2", "ERROR [db] lost connection id=3"]
    col = collapse(lines)
    assert col is not None
    warn = next(ln for ln in col.lines if "WARNING" in ln)
    assert warn.startswith("100× 00:00:01–00:06:37 WARNING [db] slow query table=orders ")
    assert f"elapsed={min(elapsed)}–{max(elapsed)}ms threshold=500ms" in warn
    assert warn.endswith("(lines 2-398)")
    # Errors stay one by one, however alike.
    assert sum(1 for ln in col.lines if ln.startswith("ERROR")) == 3
    assert col.gone == len(lines) - len(col.lines)
    assert sum(col.kept) == len(col.lines)


def test_located_indented_and_last_lines_stay() -> None:
    lines = [f"src/m{i}.c:{i}:3: note: value {i}" for i in range(10)]
    lines += [f"    frame {i}" for i in range(10)]
    lines += [f"step {i} done" for i in range(10)]
    col = collapse(lines)
    assert col is not None
    assert all(f"src/m{i}.c:{i}:3: note: value {i}" in col.lines for i in range(10))
    assert all(f"    frame {i}" in col.lines for i in range(10))
    assert col.lines[-5:] == [f"step {i} done" for i in range(5, 10)]  # the tail as it was
    assert "5× step 0–4 done (lines 21-25)" in col.lines


def test_rare_templates_and_distinct_lines_stay() -> None:
    lines = [f"item {i}" for i in range(3)] + [f"record {w}" for w in ("alpha", "beta", "gamma", "delta")] * 250
    assert collapse(lines[:3] + ["x"] * 5, min_count=4) is None  # three lines, and the tail
    col = collapse(lines)
    # 3 of 1,003 lines: fewer than one in 200, they stay; identical lines fold too.
    assert col is not None and col.lines[:3] == ["item 0", "item 1", "item 2"]
    assert "249× record alpha (lines 4-996)" in col.lines  # the last five lines stay as they are
    assert shape("id=0x1f at 2026-01-02 10:00:01 hash 3f2a9c1b7d4e") == shape(
        "id=0xff at 2026-01-03 11:00:02 hash 0000aaaa1111"
    )
