"""maven: [INFO] progress and help boilerplate dropped, compiler errors shown once,
reactor summary and outcome kept."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter, signals

IDS = [
    "maven-compile-errors",
    "maven-compile-errors-color",
    "maven-test-compile-errors",
    "maven-multimodule-package-success",
    "maven-multimodule-install-failure",
    "maven-offline-missing-dependency",
]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    reduced("maven", fid, "build/maven")


def test_compiler_errors_are_shown_once_with_their_details() -> None:
    fx, red = reduced("maven", "maven-compile-errors", "build/maven")
    text = raw(fx)
    for loc in signals(fx, "error_location"):
        assert text.count(loc) == 2  # maven lists each error twice
        assert red.text.count(loc) == 1
    assert "symbol: method discount(java.util.List<java.lang.Long>)" in red.text
    assert red.text.splitlines()[1] == f"{len(signals(fx, 'error_location'))} compiler errors"
    for gone in (
        "--- maven-compiler-plugin",
        "-> [Help 1]",
        "Re-run Maven using the -X switch",
        "Total time:",
        "[INFO]",
    ):
        assert gone not in red.text, gone
    assert "BUILD FAILURE" in red.text


def test_colour_codes_do_not_change_the_result() -> None:
    _, plain = reduced("maven", "maven-compile-errors", "build/maven")
    _, color = reduced("maven", "maven-compile-errors-color", "build/maven")
    assert "\x1b[" not in color.text
    assert plain.text == color.text


def test_reactor_summary_kept_without_dot_leaders() -> None:
    fx, red = reduced("maven", "maven-multimodule-install-failure", "build/maven")
    rows = re.findall(r"^\[INFO\] (\S+) \.{2,}.*?(SUCCESS|FAILURE|SKIPPED)", raw(fx), re.M)
    assert len(rows) == 7
    for name, status in rows:
        assert re.search(rf"^{re.escape(name)}: {status}\b", red.text, re.M)
    assert "-rf :shop-orders" in red.text
    assert "Reactor Build Order:" not in red.text


def test_success_is_a_few_lines() -> None:
    fx, red = reduced("maven", "maven-multimodule-package-success", "build/maven")
    assert len(red.text.splitlines()) < 25
    assert red.reduced_chars < red.raw_chars * 0.1
    for jar in re.findall(r"Building jar: (\S+)", raw(fx)):
        assert jar in red.text


def test_accounting_and_unrelated_output() -> None:
    fx, _ = reduced("maven", "maven-compile-errors", "build/maven")
    lines = raw(fx).splitlines()
    out = run_formatter("maven", raw(fx), exit_code=1)
    assert out is not None and accounted(out, len(lines))
    assert run_formatter("maven", UNRELATED) is None
