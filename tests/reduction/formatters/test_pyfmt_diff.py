"""black / isort --diff output through the pyfmt-diff formatter, on captured fixtures."""

from __future__ import annotations

from tests.reduction.formatters._lint import UNRELATED, body, reduced, run_formatter, signals


def test_black_diff_keeps_every_changed_line_and_no_context() -> None:
    fx, red = reduced("black", "black-check-diff", "lint/black")
    lines = body(red)
    changed = signals(fx, "changed_line")
    assert changed and all(c in red.text for c in changed)
    # context lines (a leading space) and the `+++` twin of each header are gone
    assert not any(line.startswith((" ", "+++")) for line in lines if not line.startswith("  "))
    # headers lose their timestamps
    headers = [line for line in lines if line.startswith("--- ")]
    assert len(headers) == len(signals(fx, "file"))
    assert all("\t" not in h and "+00:00" not in h for h in headers)


def test_black_diff_in_colour_reduces_like_plain() -> None:
    _, plain = reduced("black", "black-check-diff", "lint/black")
    _, color = reduced("black", "black-check-diff-color", "lint/black")
    assert "\x1b[" not in color.text
    # the same lines after the facts line (stderr status lines interleave differently)
    assert sorted(body(plain)[1:]) == sorted(body(color)[1:])


def test_isort_diff_keeps_error_lines_and_changed_imports() -> None:
    fx, red = reduced("isort", "isort-check-diff", "lint/isort")
    assert red.text.count("Imports are incorrectly sorted") == len(signals(fx, "file"))
    assert ":before" not in red.text and ":after" not in red.text


def test_without_a_diff_the_formatter_declines() -> None:
    assert run_formatter("pyfmt-diff", UNRELATED) is None
    assert run_formatter("pyfmt-diff", "would reformat a.py\n\nOh no!\n1 file would be reformatted.\n") is None
