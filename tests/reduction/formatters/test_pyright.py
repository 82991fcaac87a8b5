"""pyright formatter on captured fixtures."""

from __future__ import annotations

import re

from tests.reduction.formatters._lint import UNRELATED, body, reduced, run_formatter, signals

ITEM_RE = re.compile(r"^ {2}\d+:\d+ - (?:error|warning|information): ")


def test_findings_sit_under_their_file_without_the_path_repeated() -> None:
    fx, red = reduced("pyright", "pyright-errors", "lint/pyright")
    lines = body(red)
    files = signals(fx, "file")
    for f in files:
        assert lines.count(f) == 1
        assert not any(line.startswith(f"  {f}:") for line in lines)
    items = [line for line in lines if ITEM_RE.match(line)]
    assert len(items) == len(signals(fx, "finding"))
    assert lines[-1].startswith(signals(fx, "summary")[0])


def test_explanations_stay_under_their_finding() -> None:
    _, red = reduced("pyright", "pyright-errors", "lint/pyright")
    lines = body(red)
    for i, line in enumerate(lines):
        if line.startswith("    "):  # a continuation follows a finding or another continuation
            assert ITEM_RE.match(lines[i - 1]) or lines[i - 1].startswith("    ")


def test_warnings_only_run_keeps_every_warning() -> None:
    fx, red = reduced("pyright", "pyright-warnings-only", "lint/pyright")
    assert fx["exitCode"] == 0
    assert sum(1 for line in body(red) if ITEM_RE.match(line)) == len(signals(fx, "finding"))


def test_long_explanations_keep_their_first_and_last_lines() -> None:
    text = (
        "/p/a.py\n  /p/a.py:3:5 - error: Argument mismatch\n"
        + "".join(f"    \u00a0\u00a0detail {k}\n" for k in range(10))
        + "    \u00a0\u00a0last detail (reportArgumentType)\n1 error, 0 warnings, 0 informations\n"
    )
    fo = run_formatter("pyright", text)
    assert fo is not None
    assert fo.lines[1] == "  3:5 - error: Argument mismatch"
    assert any("more lines of type details" in line for line in fo.lines)
    assert fo.lines[-2].endswith("(reportArgumentType)")
    assert fo.omitted == {"type details": 6}


def test_unrelated_output_is_declined() -> None:
    assert run_formatter("pyright", UNRELATED) is None
