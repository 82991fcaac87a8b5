"""dotnet test: Failed lines keep message, project frames and output; build lines,
banner, Passed lines and framework frames go; totals on top."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings

from tests.reduction.formatters._forms import lines_of
from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals
from tokenjuice.reduction.formatters import dotnet_test

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


@settings(max_examples=800, deadline=None)
@given(
    rest=lines_of(
        "Ns.T.Case", "(1, 2)", " ", "\t", "[", "]", " [12 ms]", " [1 s]", "x", " in ", "/a.cs:line 3", max_size=8
    ),
    status=lines_of("Passed", "Failed", "NotRun", " ", max_size=2),
)
@example(rest="A [1 ms] [2 ms]", status="Failed")
@example(rest="A [x] y [2 ms]", status="Failed")
@example(rest="[2 ms]", status="Failed")
def test_result_and_frame_lines_read_as_their_patterns(rest: str, status: str) -> None:
    line = f"  {status} {rest}"
    r, want = dotnet_test.RESULT_HEAD_RE.match(line), dotnet_test.RESULT_RE.match(line)
    assert (r and (r.group(1), dotnet_test._name(r))) == (want and want.groups())
    line = f"   at {rest}"
    f, want = dotnet_test.FRAME_HEAD_RE.match(line), dotnet_test.FRAME_RE.match(line)
    assert (f and dotnet_test._frame(f)) == (want and want.group(1))
