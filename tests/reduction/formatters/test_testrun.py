"""_testrun: what the test-runner formatters share."""

from __future__ import annotations

import pytest

from tokenjuice.reduction.formatters import _common, _testrun


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


# ------------------------------------------------------------- the failure skeleton


def _failure(lines: list[str], max_frames: int = 2) -> tuple[_testrun.Failure, _common.Builder]:
    b = _common.Builder(lines, [1] * len(lines))
    message = _testrun.Run(b, 1, 1, "message")
    return _testrun.Failure(b, message, max_frames=max_frames), b


def test_failure_protects_header_and_first_message_line_and_windows_the_rest() -> None:
    lines = ["● adds", "Error: boom", "m1", "m2", "m3", "m4", "Expected: 3", "m5"]
    fail, b = _failure(lines)
    fail.start(0, "● adds")
    for i in range(1, len(lines)):
        fail.message_line(i, protect=lines[i].startswith("Expected"))
    fail.close()
    out = b.build()
    assert list(zip(out.lines, out.protected, strict=True)) == [
        ("● adds", True),
        ("Error: boom", True),
        ("m1", False),
        ("… 2 message lines omitted …", False),
        ("m4", False),
        ("Expected: 3", True),  # the message before it is flushed first: the order holds
        ("m5", False),
    ]
    assert out.omitted == {"message": 2}
    assert sum(out.weights) + sum(out.omitted.values()) == len(lines)


def test_failure_frames_library_repeated_and_capped() -> None:
    lines = ["FAIL t", "err", "at lib", "at a", "at a again", "at b", "at c", "FAIL u", "at d"]
    fail, b = _failure(lines, max_frames=2)
    fail.start(0)
    fail.message_line(1)
    kept = [
        fail.frame(2, library=True),
        fail.frame(3, library=False),
        fail.frame(4, library=False, repeated="repeated frames"),
        fail.frame(5, library=False),
        fail.frame(6, library=False, cap="library frames"),
    ]
    fail.start(7)  # a new failure: its frames count afresh
    kept.append(fail.frame(8, library=False))
    assert kept == [False, True, False, True, False, True]
    out = b.build()
    assert out.lines == ["FAIL t", "err", "at a", "at b", "FAIL u", "at d"]
    assert out.omitted == {"library frames": 2, "repeated frames": 1}


def test_failure_error_line_keeps_the_frame_count_until_closed() -> None:
    lines = ["  1 | code", "error: x", "at a", "at b", "(fail) t", "error: y", "at c"]
    fail, b = _failure(lines, max_frames=1)
    fail.repeated = True  # what a runner sets on a code frame it showed already
    fail.error(1)
    assert fail.open and not fail.first and fail.repeated
    assert fail.frame(2, library=False) is True
    assert fail.frame(3, library=False) is False  # over the cap
    fail.close()
    assert not fail.open and not fail.repeated and fail.frames == 0
    fail.error(5)
    assert fail.frame(6, library=False) is True
    assert b.build().omitted == {"stack frames": 1}
