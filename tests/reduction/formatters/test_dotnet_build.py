"""dotnet-build: diagnostics once (the summary repeats them), full project paths kept,
restore chatter dropped, counts and outcome kept."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter, signals

IDS = ["dotnet-build-errors", "dotnet-build-warnings-large", "dotnet-build-restore-failure"]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    reduced("dotnet", fid, "build/dotnet")


def test_summary_repeats_and_restore_chatter_go() -> None:
    fx, red = reduced("dotnet", "dotnet-build-errors", "build/dotnet")
    for loc in signals(fx, "error_location") + signals(fx, "warning_location"):
        assert raw(fx).count(loc) == 2
        assert red.text.count(loc) == 1
    # The full path tells same-named projects of a solution apart.
    assert re.search(r"\[/\S+/src/Shop\.Api/Shop\.Api\.csproj\]", red.text)
    assert " [Shop.Api.csproj]" not in red.text
    for gone in ("Determining projects to restore", "MSBuild version", "Time Elapsed"):
        assert gone not in red.text
    assert re.search(r"^3 Error\(s\)$", red.text, re.M)
    assert "Build FAILED." in red.text


def test_large_solution_groups_warnings_per_project() -> None:
    fx, red = reduced("dotnet", "dotnet-build-warnings-large", "build/dotnet")
    assert raw(fx).count("warning CS8602") == 120
    assert len(re.findall(r"warning CS8602: .* \[\S+/Shop\.\w+\.csproj\] \(10×\):$", red.text, re.M)) == 6
    assert red.reduced_chars < red.raw_chars * 0.25


def test_accounting_and_unrelated_output() -> None:
    fx, _ = reduced("dotnet", "dotnet-build-errors", "build/dotnet")
    lines = raw(fx).splitlines()
    out = run_formatter("dotnet-build", raw(fx), exit_code=1)
    assert out is not None and accounted(out, len(lines))
    assert run_formatter("dotnet-build", UNRELATED) is None
