"""The shared lint pieces: repeat folding and unified-diff folding."""

from __future__ import annotations

from hypothesis import example, given, settings

from tests.reduction.formatters._forms import lines_of
from tests.reduction.formatters._lint import run_formatter
from tokenjuice.reduction.formatters import _lintkit
from tokenjuice.reduction.formatters._lintkit import Findings

LINES = [
    "a.py:1: error: Missing annotation  [no-untyped-def]",
    "a.py:7: error: Name x is not defined  [name-defined]",
    "b.py:3: error: Missing annotation  [no-untyped-def]",
    "b.py: note: In function f:",
    "c.py:9: error: Missing  annotation [no-untyped-def]",
    "Found 4 errors",
]


def _build(fold_min: int = 3) -> tuple[list[str], list[int], dict[str, int]]:
    out = Findings(LINES, [1] * len(LINES))
    for i, line in enumerate(LINES[:3]):
        loc = line.split(": ", 1)[0]
        out.finding(i, line, loc=loc, key=line[len(loc) :])
    out.context(3)
    loc = "c.py:9"
    out.finding(4, LINES[4], loc=loc, key=LINES[4][len(loc) :])
    out.keep(5, protect=True)
    fo = out.build(fold_min=fold_min)
    return fo.lines, fo.weights, fo.omitted


def test_repeated_message_is_listed_once_with_every_location() -> None:
    lines, weights, omitted = _build()
    assert lines[0] == LINES[0]
    assert lines[1] == "  … same at 2 more: b.py:3, c.py:9"
    assert lines[2] == LINES[1]
    # the context line introduced only a folded finding: it goes
    assert not any("In function" in line for line in lines)
    assert omitted == {"error context": 1}
    # every input line is accounted for: kept, listed, or omitted
    assert sum(weights) + sum(omitted.values()) == len(LINES)


def test_below_the_threshold_nothing_folds_and_context_stays() -> None:
    lines, _weights, _omitted = _build(fold_min=4)
    assert lines[:4] == LINES[:4]


def test_unified_diff_keeps_changes_and_drops_context_and_timestamps() -> None:
    text = (
        "--- app.py\t2026-01-01 10:00:00.000000+00:00\n"
        "+++ app.py\t2026-01-01 10:00:01.000000+00:00\n"
        "@@ -1,4 +1,4 @@\n"
        " import os\n"
        "-x = {  'a':1 }\n"
        "+x = {'a': 1}\n"
        " y = 2\n"
        "would reformat app.py\n"
    )
    fo = run_formatter("pyfmt-diff", text)
    assert fo is not None
    assert fo.lines == ["--- app.py", "@@ -1,4 +1,4 @@", "-x = {  'a':1 }", "+x = {'a': 1}", "would reformat app.py"]
    assert fo.omitted == {"diff headers": 1, "diff context": 2}


@settings(max_examples=800, deadline=None)
@given(rest=lines_of("a", "/x.py", " ", "\t", ":", ":before", ":after", "2024-01-01", "\u00a0", max_size=8))
@example(rest=":before")
@example(rest="a:before:before\tx")
@example(rest="a:after")
def test_header_paths_read_as_the_header_patterns(rest: str) -> None:
    for mark, rx, read in (
        ("--- ", _lintkit.DIFF_OLD_RE, _lintkit.old_path),
        ("+++ ", _lintkit.DIFF_NEW_RE, _lintkit.new_path),
    ):
        for line in (mark + rest, mark[:-1] + rest, rest):
            m = rx.match(line)
            assert read(line) == (m and m.group(1)), line
