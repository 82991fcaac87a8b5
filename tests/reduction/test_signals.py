"""The per-line signal checks: their quick pre-check never changes an answer.

`is_error`, `is_error_or_warning` and `is_diagnostic` skip the precise patterns on text
that cannot match them; the answers must be those of the precise patterns alone, on
real output lines and on generated ones built from the keywords' pieces.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import all_fixture_paths
from tokenjuice.reduction import signals
from tokenjuice.rules.fixtures import fixture_run, load_fixture

CHECKS: list[tuple[Callable[[str], bool], str]] = [
    (signals.is_error, "error"),
    (signals.is_error_or_warning, "error_warning"),
    (signals.is_diagnostic, "diagnostic"),
]


def precise(name: str, line: str) -> bool:
    return signals._rx(name).search(signals.scan_window(line)) is not None


def fixture_lines() -> list[str]:
    """Distinct lines of every captured output (the first 300 of each)."""
    seen: dict[str, None] = {}
    for path in all_fixture_paths():
        for line in fixture_run(load_fixture(path)).combined.splitlines()[:300]:
            seen.setdefault(line, None)
    return list(seen)


@pytest.mark.parametrize(("check", "name"), CHECKS, ids=[n for _, n in CHECKS])
def test_real_lines_get_the_precise_answer(check: Callable[[str], bool], name: str) -> None:
    lines = fixture_lines()
    assert len(lines) > 10_000
    wrong = [line for line in lines if check(line) != precise(name, line)]
    assert wrong == []
    # Both answers occur, so the comparison means something.
    assert 0 < sum(map(check, lines)) < len(lines)


PIECES = st.sampled_from(
    [
        "error",
        "Err",
        "ERROR",
        "warn",
        "Warning",
        "DEPRECATED",
        "fail",
        "FAILED",
        "Exception",
        "ValueError",
        "KeyboardInterrupt",
        "SystemExit",
        "Failure",
        "XFailure",
        "My_Error",
        "Exit",
        "assert",
        "panic",
        "not found",
        "no such file",
        "E",
        "E ",
        "\n",
        "main.rs:3:5",
        "x.py:12",
        '", line 4',
        "--> ",
        "line 7",
        ":1:2)",
        "(3,4)",
        ":[5,6]",
        " ",
        "_",
        "a",
        "ok",
        "✗ ",
        # Letters `re` folds to ASCII but `str.lower` does not (or not to ASCII).
        "miſſing",
        "faıl",
        "İnvalid",
        "\u212aILLED",
        "é",
        "0",
    ]
)
LINES = st.lists(PIECES, max_size=12).map("".join) | st.text(max_size=40)


@settings(max_examples=1500, deadline=None)
@given(line=LINES)
def test_generated_lines_get_the_precise_answer(line: str) -> None:
    for check, name in CHECKS:
        assert check(line) == precise(name, line), name


def test_long_lines_are_judged_by_their_window() -> None:
    head = "x" * signals.SCAN_HEAD
    assert signals.is_error(head + "y" * 10_000 + " error: boom")
    assert not signals.is_error(head + " error " + "y" * 10_000)
    assert signals.is_diagnostic("E " + "y" * 10_000)
    assert signals.is_diagnostic("y" * 10_000 + " at f (a.js:1:2)")
    assert not signals.is_diagnostic("y" * 10_000)
    # The window's tail starts a line of its own: a pytest `E` line there counts.
    tail_e = "x" * 8_000 + "E " + "y" * (signals.SCAN_TAIL - 2)
    assert signals.is_error(tail_e) and precise("error", tail_e)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(LINES.map(lambda s: s.replace("\n", " ")), min_size=33, max_size=60))
def test_batch_find_gets_the_precise_answer(lines: list[str]) -> None:
    """`find` (stems and location probes over the joined batch, then the precise
    pattern on candidates) marks exactly the lines the precise pattern matches."""
    for locations, warnings, name in (
        (True, True, "diagnostic"),
        (False, True, "error_warning"),
        (False, False, "error"),
    ):
        expected = {i for i, line in enumerate(lines) if precise(name, line)}
        assert signals.find(lines, locations=locations, warnings=warnings) == expected
        # Among some of the lines only (what the pipeline asks of unprotected lines).
        doubled = [*lines, *lines]
        some = [i for i in range(len(doubled)) if i % 3]
        got = signals.find(doubled, some, locations=locations, warnings=warnings)
        assert got == {i for i in some if i % len(lines) in expected}


def test_the_class_name_gate_knows_every_suffix() -> None:
    assert all(signals._has_class_suffix(f"x {s} y") for s in signals._CLASS_SUFFIXES)
    assert not signals._has_class_suffix("error exception exit interrupt failure")
