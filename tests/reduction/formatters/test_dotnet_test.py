"""dotnet test: Failed lines keep message, project frames and output; build lines,
banner, Passed lines and framework frames go; totals on top."""

from __future__ import annotations

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "dotnet-test", "tests/dotnet-test"


@pytest.mark.parametrize("fid", ["dotnet-test-failures", "dotnet-test-detailed-pass"])
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failures() -> None:
    fx, red = reduced(FAMILY, "dotnet-test-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert count(rf"^Failed {name.replace('(', '[(]').replace(')', '[)]')}$", red.text) == 1
    assert "System.RuntimeMethodHandle" not in red.text
    assert "Error Message:" not in red.text and "Stack Trace:" not in red.text
    assert "Microsoft (R) Test Execution" not in red.text and "[xUnit.net" not in red.text
    assert red.facts["failed"] == 3 and red.facts["total"] == 88


def test_detailed_pass() -> None:
    _fx, red = reduced(FAMILY, "dotnet-test-detailed-pass", RULE)
    assert count(r"Passed Library", red.text) == 0
    assert red.text.startswith("Test Run Successful.")


def test_unrelated_output_is_not_claimed() -> None:
    assert run_formatter("dotnet-test", UNRELATED) is None
