"""_testrun: what the test-runner formatters share."""

from __future__ import annotations

import pytest

from tokenjuice.reduction.formatters import _testrun


@pytest.mark.parametrize(
    ("line", "vendor"),
    [
        ("\tat java.base/java.lang.Thread.run(Thread.java:833)", True),
        ("\tat org.junit.runners.ParentRunner.run(ParentRunner.java:413)", True),
        ("\tat worker.org.gradle.process.internal.worker.GradleWorkerMain.main(GradleWorkerMain.java:74)", True),
        ("    at Object.<anonymous> (node_modules/jest-circus/build/utils.js:298:28)", True),
        ('  File "/usr/lib/python3.11/unittest/case.py", line 57, in testPartExecutor', True),
        ("at bun:test (bun:main)", True),
        # A word boundary before the package name: these are the project's own frames.
        ("\tat xjava.base/Foo(Foo.java:1)", False),
        ("\tat com.acme.myorg.junit.Helper.check(Helper.java:12)", False),
        ("at bun:testing (src/app.ts:3:9)", False),
        ("    at add (src/math.js:3:9)", False),
    ],
)
def test_vendor_frames(line: str, vendor: bool) -> None:
    assert _testrun.is_vendor(line) is vendor
