"""The window collector: adding a batch at once gives what adding its lines one by one
gives, for any head/tail, budgets and protected lines, in any batching."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.reduction import window

LINES = st.lists(
    st.tuples(st.text(alphabet="ab \t", max_size=30), st.integers(0, 3), st.booleans()),
    max_size=120,
)
SETTINGS = st.fixed_dictionaries(
    {
        "head": st.integers(0, 8),
        "tail": st.integers(0, 8),
        "head_chars": st.none() | st.integers(1, 80),
        "tail_chars": st.none() | st.integers(1, 80),
        "protected_chars": st.none() | st.integers(1, 200),
    }
)


def _finish(c: window.Collector, limit: int) -> tuple[list[str], int, int, int]:
    return c.finish(limit, 20, tail_bias=True, protected_factor=2)


@settings(max_examples=1500, deadline=None)
@given(lines=LINES, opts=SETTINGS, cuts=st.lists(st.integers(0, 120), max_size=6), limit=st.integers(200, 2_000))
def test_batches_equal_lines_one_by_one(
    lines: list[tuple[str, int, bool]], opts: dict[str, int | None], cuts: list[int], limit: int
) -> None:
    head, tail = opts["head"] or 0, opts["tail"] or 0
    kw = {k: opts[k] for k in ("head_chars", "tail_chars", "protected_chars")}
    one = window.Collector(head, tail, **kw)  # type: ignore[arg-type]
    for text, weight, prot in lines:
        one.add(text, weight, prot)
    many = window.Collector(head, tail, **kw)  # type: ignore[arg-type]
    bounds = sorted({0, len(lines), *(c for c in cuts if c <= len(lines))})
    for a, b in pairwise(bounds):
        part = lines[a:b]
        many.add_batch([t for t, _, _ in part], [w for _, w, _ in part], {i for i, (_, _, p) in enumerate(part) if p})
    assert _finish(many, limit) == _finish(one, limit)
    assert (many.count, many.total_weight) == (one.count, one.total_weight)


def test_a_batch_that_overflows_the_recent_half_pushes_out_earlier_lines() -> None:
    """The recent half of the protected budget holds 10 characters: `a` (from an
    earlier batch) and `bbbbbbb` are pushed out by `cccc`, as one by one."""
    batches = [["x" * 9, "a"], ["b" * 7, "c" * 4]]
    one = window.Collector(0, 0, protected_chars=20)
    for batch in batches:
        for text in batch:
            one.add(text, 1, True)
    many = window.Collector(0, 0, protected_chars=20)
    for batch in batches:
        many.add_batch(batch, [1] * len(batch), set(range(len(batch))))
    body = _finish(many, 1_000)[0]
    assert body == _finish(one, 1_000)[0]
    assert body == ["x" * 9, window.marker(2), "c" * 4]


ALL_LINES = st.lists(
    st.tuples(st.text(alphabet="ab \t", max_size=40), st.integers(0, 3), st.booleans()),
    max_size=150,
)


@settings(max_examples=1500, deadline=None)
@given(
    lines=ALL_LINES,
    limit=st.integers(1, 1_500),
    max_line=st.integers(5, 50),
    tail_bias=st.booleans(),
    factor=st.integers(1, 4),
    repeats=st.booleans(),
    no_protected=st.booleans(),
)
def test_finish_all_equals_a_collector_holding_every_line(
    lines: list[tuple[str, int, bool]],
    limit: int,
    max_line: int,
    tail_bias: bool,
    factor: int,
    repeats: bool,
    no_protected: bool,
) -> None:
    """A formatter's final output skips the collector: the budget is fitted on the
    lists. A collector whose head holds every line is the definition."""
    texts = [t for t, _, _ in lines]
    weights = [w for _, w, _ in lines]
    protected = None if no_protected else [p for _, _, p in lines]
    c = window.Collector(len(lines), 0)
    for i, text in enumerate(texts):
        c.add(text, weights[i], bool(protected and protected[i]))
    want = c.finish(limit, max_line, tail_bias=tail_bias, protected_factor=factor, show_repeats=repeats)
    got = window.finish_all(
        texts, weights, protected, limit, max_line, tail_bias=tail_bias, protected_factor=factor, show_repeats=repeats
    )
    assert got == want


def test_central_first_is_the_stable_sort_by_centrality() -> None:
    for tail_bias in (False, True):
        for n in range(200):
            want = sorted(range(n), key=lambda i: window._centrality(i, max(n, 1), tail_bias))
            assert list(window._central_first(n, tail_bias)) == want
