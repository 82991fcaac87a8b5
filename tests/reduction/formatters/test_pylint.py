"""pylint formatter on captured fixtures."""

from __future__ import annotations

from collections import Counter

from tests.reduction.formatters._lint import UNRELATED, body, reduced, run_formatter, signals

NAMES = {"F": "fatal", "E": "error", "W": "warning", "R": "refactor", "C": "convention"}


def test_report_tables_and_banners_go_score_stays() -> None:
    fx, red = reduced("pylint", "pylint-reports", "lint/pylint")
    lines = body(red)
    assert not any(line.startswith(("|", "+-", "+=", "*****", "Report", "Raw metrics")) for line in lines)
    assert lines[-1].startswith("Your code has been rated at ")
    assert signals(fx, "score")[0] in lines[-1]


def test_facts_count_messages_by_category() -> None:
    fx, red = reduced("pylint", "pylint-messages", "lint/pylint")
    counts = Counter(NAMES[text[0]] for text in signals(fx, "message"))
    facts = red.text.splitlines()[1]
    for name, n in counts.items():
        assert f"{n} {name}" in facts


def test_duplicate_code_keeps_its_ranges_not_the_source() -> None:
    _, red = reduced("pylint", "pylint-messages", "lint/pylint")
    dup = [line for line in body(red) if "R0801" in line]
    assert dup and all(" ==" in line and ":[" in line for line in dup)
    assert "duplicated source" in red.text.splitlines()[-1]
    assert not any(line.startswith(("    def ", "def ")) for line in body(red))


def test_reports_and_colour_do_not_change_the_messages() -> None:
    _, plain = reduced("pylint", "pylint-messages", "lint/pylint")
    _, reports = reduced("pylint", "pylint-reports", "lint/pylint")
    _, color = reduced("pylint", "pylint-colorized", "lint/pylint")
    assert body(plain)[:-1] == body(reports)[:-1] == body(color)[:-1]


def test_clean_run_is_just_the_score() -> None:
    _, red = reduced("pylint", "pylint-clean", "lint/pylint")
    assert red.text.startswith("Your code has been rated at 10.00/10")
    # The rule lines that went are stated by range.
    assert red.text.splitlines()[1].startswith("[… ") and "lines 1-2" in red.text


def test_unrelated_output_is_declined() -> None:
    assert run_formatter("pylint", UNRELATED) is None
