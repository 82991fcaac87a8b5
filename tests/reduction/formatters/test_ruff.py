"""ruff check / ruff format formatter on captured fixtures."""

from __future__ import annotations

import re

from hypothesis import given, settings

from tests.reduction.formatters._forms import lines_of, reading
from tests.reduction.formatters._lint import UNRELATED, body, folded_locations, reduced, run_formatter, signals
from tokenjuice.reduction.formatters import ruff

FINDING_RE = re.compile(r"^(\S+:\d+:\d+): ([A-Z]+\d+|[a-z][a-z-]*:) ")


def test_full_format_folds_each_finding_to_one_line() -> None:
    fx, red = reduced("ruff", "ruff-check-full", "lint/ruff")
    lines = body(red)
    # no excerpt gutters, carets, fix diffs or help/note lines survive
    assert not any(re.match(r"^\s*\d*\s*\|", line) for line in lines)
    assert not any(line.startswith(("help:", "note:", " -->", "  -->")) for line in lines)
    # every location is on a finding line or in a folded list
    shown = {m.group(1) for line in lines if (m := FINDING_RE.match(line))}
    shown.update(folded_locations(red.text))
    assert set(signals(fx, "location")) <= shown
    assert "Found " in lines[-2] or "Found " in lines[-1]


def test_full_and_concise_output_reduce_to_the_same_findings() -> None:
    _, full = reduced("ruff", "ruff-check-full", "lint/ruff")
    _, concise = reduced("ruff", "ruff-check-concise", "lint/ruff")
    pick = [line for line in body(full) if FINDING_RE.match(line) or line.startswith("  … same at")]
    pick_c = [line for line in body(concise) if FINDING_RE.match(line) or line.startswith("  … same at")]
    assert pick == pick_c


def test_colour_changes_nothing() -> None:
    _, plain = reduced("ruff", "ruff-check-full", "lint/ruff")
    _, color = reduced("ruff", "ruff-check-full-color", "lint/ruff")
    assert body(plain) == body(color)


def test_a_message_repeated_at_many_places_is_stated_once() -> None:
    _, red = reduced("ruff", "ruff-check-large", "lint/ruff")
    messages = [FINDING_RE.sub("", line) for line in body(red) if FINDING_RE.match(line)]
    assert len(messages) == len(set(messages))
    assert len(folded_locations(red.text)) > 100


def test_statistics_lose_only_their_padding() -> None:
    fx, red = reduced("ruff", "ruff-check-statistics", "lint/ruff")
    for text in signals(fx, "statistic"):
        assert any(line.startswith(text + " ") for line in body(red))


def test_format_check_lists_files_without_their_diffs() -> None:
    fx, red = reduced("ruff", "ruff-format-check-large", "lint/ruff-format")
    assert not any(line.lstrip().startswith(("|", "-", "+")) for line in body(red))
    assert set(signals(fx, "file")) <= {loc.rsplit(":", 2)[0] for loc in folded_locations(red.text)} | {
        m.group(1).rsplit(":", 2)[0] for line in body(red) if (m := FINDING_RE.match(line))
    }


def test_format_diff_keeps_changed_lines_only() -> None:
    fx, red = reduced("ruff", "ruff-format-diff", "lint/ruff-format")
    lines = body(red)
    assert all(line[0] in "-+@" or line[0].isdigit() or line.startswith("error") for line in lines)
    assert len([line for line in lines if line.startswith("--- ")]) == len(signals(fx, "file"))


def test_unrelated_output_is_declined() -> None:
    assert run_formatter("ruff", UNRELATED) is None


def test_older_full_format_loses_its_excerpts_too() -> None:
    # ruff < 0.9: `path:line:col: CODE msg` headers over `|` excerpts and `= help:` lines
    _, red = reduced("ruff", "ruff-check-full-v05", "lint/ruff")
    lines = body(red)
    assert not any(line.lstrip().startswith(("|", "= help")) for line in lines)
    assert all(FINDING_RE.match(line) or line.startswith(("  … same at", "    ", "Found ", "[*] ")) for line in lines)


def test_long_rule_prefixes_and_sub_diagnostics_fold_too() -> None:
    text = (
        "ASYNC110 Use `anyio.Event` instead of awaiting `anyio.sleep` in a `while` loop\n"
        " --> app.py:4:5\n"
        "  |\n"
        "4 |     while not done:\n"
        "  |     ^^^^^^^^^^^^^^^\n"
        "  |\n"
        "\n"
        "F811 Redefinition of unused `load` from line 1\n"
        " --> app.py:9:5\n"
        "  |\n"
        "9 | def load(): ...\n"
        "  |     ^^^^\n"
        "info: previous definition of `load` here\n"
        " --> app.py:1:5\n"
        "  |\n"
        "1 | def load(): ...\n"
        "  |\n"
        "\n"
        "Found 2 errors.\n"
    )
    fo = run_formatter("ruff", text, exit_code=1)
    assert fo is not None
    assert fo.lines == [
        "app.py:4:5: ASYNC110 Use `anyio.Event` instead of awaiting `anyio.sleep` in a `while` loop",
        "app.py:9:5: F811 Redefinition of unused `load` from line 1",
        "Found 2 errors.",
    ]


@settings(max_examples=500, deadline=None)
@given(line=lines_of(" ", "--> ", "a", ".py", ":", "1", "23", "x:"))
def test_arrow_pattern_reads_the_location_as_its_lazy_form(line: str) -> None:
    # `:\d+:\d+` before the end can sit at one place only, so the greedy form finds it.
    lazy = re.compile(r"^ *--> (?P<loc>\S.*?:\d+:\d+)$")
    assert reading(ruff.ARROW_RE.match(line)) == reading(lazy.match(line))
