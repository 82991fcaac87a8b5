"""ShellCheck tty formatter on captured fixtures."""

from __future__ import annotations

import re

from tests.helpers import reducer
from tests.reduction.formatters._lint import UNRELATED, body, reduced, run_formatter, signals
from tokenjuice.rules.fixtures import fixture_run

FINDING_RE = re.compile(r"^(\S+:\d+:\d+): SC\d{4} \((?:error|warning|info|style)\): ")


def test_blocks_become_one_line_per_finding_with_json_columns() -> None:
    fx, red = reduced("shellcheck", "shellcheck-tty", "lint/shellcheck")
    lines = body(red)
    assert not any(line.startswith(("In ", "Did you mean", "For more information", "  https://")) for line in lines)
    shown = {m.group(1) for line in lines if (m := FINDING_RE.match(line))}
    for line in lines:
        if "same at" in line or line.startswith("    "):
            shown.update(x.strip() for x in line.split(": ", 1)[-1].split(", "))
    # signals carry -f json's columns (tabs count 8): the caret positions must agree
    expected = {s["text"].removesuffix(":") for s in fx["signals"] if s["kind"] == "location"}
    assert expected == shown


def test_tab_indented_source_gets_the_drawn_column() -> None:
    text = "\nIn t.sh line 3:\n\techo $1\n              ^-- SC2086 (info): Double quote to prevent globbing.\n"
    fo = run_formatter("shellcheck", text)
    assert fo is not None
    assert fo.lines == ["t.sh:3:15: SC2086 (info): Double quote to prevent globbing."]


def test_gcc_format_and_unrelated_output_are_left_alone() -> None:
    fx, _ = reduced("shellcheck", "shellcheck-gcc", "lint/shellcheck")
    red = reducer().reduce_run(fixture_run(fx))
    assert red.text == f"exit {fx['exitCode']}\n" + fx["combined"]
    assert run_formatter("shellcheck", UNRELATED) is None


def test_every_finding_message_is_kept() -> None:
    fx, red = reduced("shellcheck", "shellcheck-large", "lint/shellcheck")
    for text in set(signals(fx, "finding")):
        assert text in red.text
