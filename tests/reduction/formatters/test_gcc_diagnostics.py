"""gcc-diagnostics (make, swift build): one line per gcc/clang/swiftc diagnostic, notes
kept for errors, excerpts and compiler command echo dropped, identical warnings grouped."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter, signals

MAKE = [
    "make-c-errors",
    "make-c-success",
    "make-keep-going-errors",
    "make-errors-color",
    "make-link-error",
    "make-large-warnings",
]
SWIFT = ["swift-build-errors-classic", "swift-build-errors-swift6", "swift-build-success-large"]


@pytest.mark.parametrize("fid", MAKE)
def test_make_keeps_every_signal(fid: str) -> None:
    reduced("make", fid, "task/make")


@pytest.mark.parametrize("fid", SWIFT)
def test_swift_keeps_every_signal(fid: str) -> None:
    reduced("swift", fid, "build/swift-build")


def test_errors_keep_notes_excerpts_and_context_go() -> None:
    fx, red = reduced("make", "make-c-errors", "task/make")
    text = raw(fx)
    for loc in signals(fx, "error_location"):
        assert re.search(rf"^{re.escape(loc)}: error: ", red.text, re.M)
    notes = re.findall(r"^\S+:\d+:\d+: note: .*$", text, re.M)
    assert notes
    for note in notes:
        assert "  " + note in red.text  # indented under its error
    assert not re.search(r"^\s*\d+ \|", red.text, re.M)
    assert "In function" not in red.text
    assert "make: *** [" in red.text


def test_compiler_commands_go_but_a_success_keeps_the_link_step() -> None:
    fx, red = reduced("make", "make-c-success", "task/make")
    commands = [ln for ln in raw(fx).splitlines() if ln.startswith("cc ")]
    assert len(commands) > 5
    assert commands[-1] in red.text
    assert sum(1 for c in commands if c in red.text) == 1
    _, failed = reduced("make", "make-link-error", "task/make")
    assert not re.search(r"^cc ", failed.text, re.M)  # a failure keeps none: the errors say it
    assert "undefined reference to `vec_mean'" in failed.text
    assert "collect2: error: ld returned 1 exit status" in failed.text


def test_warnings_drop_their_notes() -> None:
    fx, red = reduced("make", "make-keep-going-errors", "task/make")
    assert "note: ‘s’ was declared here" in raw(fx)
    assert "‘s’ was declared here" not in red.text


def test_large_build_groups_identical_warnings() -> None:
    fx, red = reduced("make", "make-large-warnings", "task/make")
    text = raw(fx)
    n = len(re.findall(r": warning: unused variable ‘unused_total’", text))
    assert n == 60
    assert f"warning: unused variable ‘unused_total’ [-Wunused-variable] ({n}×):" in red.text
    assert red.text.count("unused variable ‘unused_total’") == 1
    assert red.reduced_chars < red.raw_chars * 0.2


def test_colour_codes_do_not_change_the_result() -> None:
    _, plain = reduced("make", "make-keep-going-errors", "task/make")
    _, color = reduced("make", "make-errors-color", "task/make")
    assert plain.text == color.text


def test_clang_style_excerpts_and_fixits_go() -> None:
    fx, red = reduced("swift", "swift-build-errors-classic", "build/swift-build")
    assert "return n + reserved(sku)" in raw(fx)
    assert "reserved(sku)" not in red.text
    assert not re.search(r"^\s*[~^][~^ ]*$", red.text, re.M)
    assert not re.search(r"^\s+_$", red.text, re.M)  # the fix-it under a caret line
    assert "error: fatalError" in red.text


def test_swift6_gutter_excerpts_go() -> None:
    _, red = reduced("swift", "swift-build-errors-swift6", "build/swift-build")
    assert "`- error:" not in red.text
    assert " | " not in red.text


def test_direct_clang_output() -> None:
    text = (
        "main.c:3:5: error: use of undeclared identifier 'foo'\n"
        "    foo();\n"
        "    ^\n"
        "main.c:1:1: note: previous declaration is here\n"
        "int bar(void);\n"
        "^\n"
        "1 error generated.\n"
    )
    out = run_formatter("gcc-diagnostics", text, exit_code=1)
    assert out is not None and accounted(out, 7)
    assert out.lines == [
        "main.c:3:5: error: use of undeclared identifier 'foo'",
        "  main.c:1:1: note: previous declaration is here",
        "1 error generated.",
    ]
    assert out.protected is not None and out.protected[0]


def test_unrelated_output_is_left_alone() -> None:
    assert run_formatter("gcc-diagnostics", UNRELATED) is None
    assert run_formatter("gcc-diagnostics", "make: Nothing to be done for 'all'.\n") is None
