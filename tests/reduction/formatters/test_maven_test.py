"""mvn test: failing tests keep exception, Caused by, project frames and the Results
section; the lifecycle log, passing classes, library frames and help go."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._testruns import UNRELATED, count, reduced, run_formatter, signals

FAMILY, RULE = "maven-test", "tests/maven-test"
IDS = [
    "maven-test-failures",
    "maven-test-color-one-class",
    "maven-test-large-pass",
    "maven-test-quiet-failures",
    "maven-verify-pass",
]


@pytest.mark.parametrize("fid", IDS)
def test_signals_kept(fid: str) -> None:
    reduced(FAMILY, fid, RULE)


def test_failures_without_the_build_log() -> None:
    fx, red = reduced(FAMILY, "maven-test-failures", RULE)
    for name in signals(fx, "failing_test"):
        assert name in red.text
    assert "Caused by: java.lang.IllegalArgumentException: daysLate must be >= 0: -1" in red.text
    assert "org.junit." not in red.text and "java.base/" not in red.text
    assert "--- maven-compiler-plugin" not in red.text and "[INFO] Running" not in red.text
    assert "re-run Maven with the -e switch" not in red.text
    assert count(r"Tests run: 3, Failures: 0", red.text) == 0  # passing classes
    total = re.findall(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+)", fx["combined"])[-1]
    assert red.facts["tests"] == int(total[0]) and red.facts["failures"] == int(total[1])
    assert red.text.splitlines()[1].endswith("BUILD FAILURE")


def test_large_pass_is_the_totals() -> None:
    _fx, red = reduced(FAMILY, "maven-test-large-pass", RULE)
    assert red.text.startswith("Tests run: 360, Failures: 0, Errors: 0, Skipped: 0; BUILD SUCCESS")
    assert len(red.text.splitlines()) == 2


def test_not_claimed_without_a_test_run() -> None:
    from tests.helpers import formatting_reducer as reducer
    from tokenjuice.model import ToolRun

    out = "[INFO] Scanning for projects...\n[INFO] BUILD SUCCESS\n"
    red = reducer().reduce_run(ToolRun(tool_name="exec", command="mvn -o package", combined=out, exit_code=0))
    assert red.rule_id != RULE
    assert run_formatter("maven-test", UNRELATED) is None
