"""cmake: CMake message blocks kept with joined paragraphs, checks and progress dropped,
compiler diagnostics folded (shared with gcc-diagnostics)."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter

IDS = [
    "cmake-configure-missing-package",
    "cmake-configure-fatal-error",
    "cmake-configure-checks-success",
    "cmake-build-ninja-errors",
    "cmake-build-keep-going",
    "cmake-build-make-warnings-large",
    "cmake-build-make-error",
    "cmake-build-ninja-success",
]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    reduced("cmake", fid, "build/cmake")


def test_message_paragraphs_are_joined_and_list_items_kept() -> None:
    fx, red = reduced("cmake", "cmake-configure-missing-package", "build/cmake")
    text = raw(fx)
    block = text.split("CMake Error at", 1)[1].split("\n\n\n", 1)[0]
    first_para = block.split("\n\n")[0].split("\n", 1)[1]
    joined = " ".join(ln.strip() for ln in first_para.splitlines())
    assert "  " + joined in red.text.splitlines()
    for item in re.findall(r"^ {4}(\S+\.cmake)$", block, re.M):
        assert f"    {item}" in red.text
    assert "-- Detecting C compiler ABI info" in text
    assert "Detecting" not in red.text


def test_call_stack_stays_and_dev_boilerplate_goes() -> None:
    _, fatal = reduced("cmake", "cmake-configure-fatal-error", "build/cmake")
    assert "Call Stack (most recent call first):" in fatal.text
    fx, ok = reduced("cmake", "cmake-configure-checks-success", "build/cmake")
    assert "This warning is for project developers" in raw(fx)
    assert "This warning is for project developers" not in ok.text
    # Checks that found something go; the failed ones stay.
    assert " - found" not in ok.text
    missing = re.findall(r"^-- Looking for \S+ - not found$", raw(fx), re.M)
    assert missing and all(m in ok.text for m in missing)


def test_ninja_failure_keeps_failed_target_drops_its_command() -> None:
    fx, red = reduced("cmake", "cmake-build-ninja-errors", "build/cmake")
    failed = re.search(r"^FAILED: (\S+)", raw(fx), re.M)
    assert failed and failed.group(0) in red.text
    assert not re.search(r"^/usr/bin/cc ", red.text, re.M)
    assert "ninja: build stopped" in red.text
    assert not re.search(r"^\[\d+/\d+\] ", red.text, re.M)  # a failure keeps no progress


def test_success_keeps_only_the_last_progress_step() -> None:
    fx, red = reduced("cmake", "cmake-build-ninja-success", "build/cmake")
    steps = re.findall(r"^\[\d+/\d+\] .*$", raw(fx), re.M)
    assert len(steps) > 10
    assert red.text.splitlines()[0] == steps[-1]
    assert sum(1 for s in steps if s in red.text) == 1


def test_large_makefile_build_groups_warnings_and_counts_targets() -> None:
    fx, red = reduced("cmake", "cmake-build-make-warnings-large", "build/cmake")
    targets = re.findall(r"Built target (\S+)", raw(fx))
    assert red.text.splitlines()[0].endswith(f"{len(targets)} built targets")
    assert "(40×):" in red.text
    assert "Building C object" not in red.text
    assert red.reduced_chars < red.raw_chars * 0.35


def test_accounting_and_unrelated_output() -> None:
    fx, _ = reduced("cmake", "cmake-configure-missing-package", "build/cmake")
    lines = raw(fx).splitlines()
    out = run_formatter("cmake", raw(fx), exit_code=1)
    assert out is not None and accounted(out, len(lines))
    assert run_formatter("cmake", UNRELATED) is None
