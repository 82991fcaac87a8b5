"""Formatters that read in batches: however the input is cut into batches, and whether
the bulk path (one regex step per warning block or routine log run) or the line-by-line
path reads it, the result is the same. Checked on the captured fixtures and on
generated outputs mixing every kind of line the formatters tell apart."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import FIXTURES, all_fixture_paths
from tokenjuice.model import ToolRun
from tokenjuice.reduction import batches
from tokenjuice.reduction.formatters import FormatContext, FormatOutput, get_batch_reader, service_log
from tokenjuice.reduction.formatters import rustc_diagnostics as rustc
from tokenjuice.rules.fixtures import fixture_run, load_fixture


def _result(fo: FormatOutput | None) -> Any:
    if fo is None:
        return None
    # Reasons in order: the footer lists them so.
    omitted = list(fo.omitted.items())
    facts = list((fo.facts or {}).items())
    return (fo.lines, fo.weights, fo.protected, facts, fo.headline, fo.headline_weight, omitted, fo.final)


def _read_in_batches(name: str, lines: list[str], weights: list[int], cuts: list[int], options: dict[str, Any]) -> Any:
    st_ = get_batch_reader(name)
    assert st_ is not None
    run = ToolRun(command="x", combined="")
    s = st_(FormatContext(run, None, options))  # type: ignore[arg-type]
    start = 0
    for cut in [*sorted(set(cuts)), len(lines)]:
        if cut > start:
            s.feed(lines[start:cut], weights[start:cut])
            start = cut
    return _result(s.finish())


def _batches(text: str) -> tuple[list[str], list[int]]:
    lines: list[str] = []
    weights: list[int] = []
    for b in batches.iter_batches(text, {}):
        lines.extend(b.text)
        weights.extend(b.weights)
    return lines, weights


FORMATTER_OF = {"cargo-build": "rustc-diagnostics", "cargo-clippy": "rustc-diagnostics", "service-log": "service-log"}
CASES = [p for p in all_fixture_paths() if p.parent.name in FORMATTER_OF]


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES)) for p in CASES])
def test_fixture_in_any_batches_and_either_path(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fx = load_fixture(path)
    name = FORMATTER_OF[path.parent.name]
    options = {"warningHelp": True} if path.parent.name == "cargo-clippy" else {}
    lines, weights = _batches(fixture_run(fx).combined)
    whole = _read_in_batches(name, lines, weights, [], options)
    rng = random.Random(path.name)
    for _ in range(5):
        cuts = [rng.randrange(len(lines) + 1) for _ in range(rng.randrange(1, 6))] if lines else []
        assert _read_in_batches(name, lines, weights, cuts, options) == whole
    assert _read_in_batches(name, lines, weights, list(range(len(lines))), options) == whole  # a line per batch
    _line_by_line_only(monkeypatch)
    assert _read_in_batches(name, lines, weights, [], options) == whole


def _line_by_line_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn the bulk paths off: their regexes then never match."""
    import re

    never = re.compile(r"(?!)")
    monkeypatch.setattr(rustc, "_BLOCK_RE", never)
    monkeypatch.setattr(service_log, "_RUN_RE", never)


RUSTC_LINES = [
    "warning: unused variable: `x`",
    "warning[W01]: something odd",
    "error[E0308]: mismatched types",
    "error: could not compile `app`",
    "note: required by a bound in `foo`",
    "help: consider borrowing here",
    "  --> src/main.rs:5:9",
    "   --> src/lib.rs:12:1",
    "  --> src/main.rs",
    "   |",
    "5  |     let x = 1;",
    '123 |     let y: i32 = "a";',
    "12 + let y = 2;",
    "12 - let y = 1;",
    "    |         ^ help: if this is intentional, prefix it with an underscore: `_x`",
    "    |     ------ expected `String` because of return type",
    "   = note: `#[warn(unused_variables)]` on by default",
    "   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_return",
    "   = note: expected struct `String`",
    "              found type `i64`",
    "        = note: eight spaces in",
    "        ...",
    "   ...",
    "   = note:",
    "",
    "src/a.rs:1:2: warning: unused import: `std::io`: help: remove it",
    "src/a.rs:3:4: error[E0425]: cannot find value `z` in this scope",
    "1.rs:2:3: warning: file name with a digit",
    "   Compiling app v0.1.0",
    "    Finished `dev` profile [unoptimized] target(s) in 1.2s",
    "Some errors have detailed explanations: E0308, E0425.",
    "  - an indented list item",
    "program output",
]
LOG_LINES = [
    "2026-03-01 00:00:0{n}.123 INFO  [http] GET /items 200",
    "2026-03-01 00:00:0{n}.123 info  [http] GET /items 200",
    "2026-03-01 00:00:0{n}.123 INFO  [db] query ok",
    "2026-03-01T00:00:0{n}Z DEBUG [worker] tick",
    "[2026-03-01 00:00:0{n}] NOTICE [cron] ran",
    "2026-03-01 00:00:0{n}.123 WARN  [db] slow query",
    "2026-03-01 00:00:0{n}.123 ERROR [worker] job failed",
    "2026-03-01 00:00:0{n},5 level=info msg=started",
    "2026-03-01 00:00:0{n} something without a level",
    "2026-03-01 00:00:0{n} failed to open the socket",
    "Traceback (most recent call last):",
    '  File "/srv/app/jobs.py", line 88, in run',
    "    ^^^^^",
    "KeyError: 'sku-1'",
    "  continuation line",
    "",
]


RUSTC_HEADERS = [line for line in RUSTC_LINES if line.startswith(("warning", "error", "note", "help"))]
RUSTC_BODY = [line for line in RUSTC_LINES if line.startswith((" ", "1", "5")) or not line]
# A block as cargo prints it: a header, (mostly) its location, then snippet and note lines.
RUSTC_BLOCK = st.tuples(
    st.sampled_from(RUSTC_HEADERS),
    st.sampled_from(["  --> src/main.rs:5:9", "  --> src/main.rs:5:9", "   |", ""]),
    st.lists(st.sampled_from(RUSTC_BODY), max_size=9),
    st.sampled_from(["", "", "   Compiling app v0.1.0", "program output"]),
).map(lambda b: [b[0], b[1], *b[2], b[3]])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(RUSTC_BLOCK, st.lists(st.sampled_from(RUSTC_LINES), max_size=4)), max_size=30).map(
        lambda blocks: [line for block in blocks for line in block]
    ),
    st.lists(st.integers(0, 200), max_size=5),
    st.booleans(),
)
def test_rustc_generated(lines: list[str], cuts: list[int], clippy: bool) -> None:
    weights = [0 if not line else 1 for line in lines]
    options = {"warningHelp": True} if clippy else {}
    whole = _read_in_batches("rustc-diagnostics", lines, weights, [], options)
    assert _read_in_batches("rustc-diagnostics", lines, weights, cuts, options) == whole
    with pytest.MonkeyPatch.context() as m:
        _line_by_line_only(m)
        assert _read_in_batches("rustc-diagnostics", lines, weights, [], options) == whole


# Runs of one kind of line, as long logs have them.
LOG_RUN = st.tuples(st.sampled_from(LOG_LINES), st.integers(1, 90), st.integers(0, 9)).map(
    lambda r: [(r[0], (r[2] + k) % 10) for k in range(r[1])]
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(LOG_RUN, min_size=1, max_size=12).map(lambda runs: [x for run in runs for x in run]),
    st.lists(st.integers(0, 400), max_size=5),
)
def test_service_log_generated(picked: list[tuple[str, int]], cuts: list[int]) -> None:
    lines = [line.format(n=n) for line, n in picked]
    weights = [0 if not line else 1 + (n == 7) for line, n in picked]  # some folded repeats
    whole = _read_in_batches("service-log", lines, weights, [], {})
    assert _read_in_batches("service-log", lines, weights, cuts, {}) == whole
    with pytest.MonkeyPatch.context() as m:
        _line_by_line_only(m)
        assert _read_in_batches("service-log", lines, weights, [], {}) == whole
