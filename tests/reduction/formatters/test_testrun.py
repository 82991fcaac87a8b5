"""_testrun: what the test-runner formatters share."""

from __future__ import annotations

import re

from hypothesis import example, given, settings

from tests.reduction.formatters._forms import lines_of
from tokenjuice.reduction.formatters import _testrun

# VENDOR_RE as it was written with `\b` before its word-led alternatives.
_VENDOR_WORD_LED = re.compile(
    r"node_modules/|node:internal|\(internal/|\(node:|<node_internals>|"
    r"/lib/python\d|site-packages/|dist-packages/|<frozen |"
    r"/usr/lib/go|/usr/local/go/src/|/go/src/(?:testing|runtime|reflect)/|"
    r"/rustc/[0-9a-f]|/library/(?:std|core|alloc|test)/src/|"
    r"\bjava\.base/|\bjdk\.internal\.|\bsun\.reflect\.|\bjava\.lang\.reflect\.|\borg\.junit\.|"
    r"\borg\.apache\.maven\.|\borg\.gradle\.|\bworker\.org\.gradle\.|"
    r"/usr/share/php/|/vendor/phpunit/|/vendor/bin/phpunit|/usr/bin/phpunit|"
    r"/gems/|/usr/lib/ruby/|/rspec-core|/rspec-expectations|/rspec-support|"
    r"\bbun:(?:test|internal|main)\b"
)


@settings(max_examples=800, deadline=None)
@given(
    lines_of(
        "\tat ",
        "java.base/",
        "jdk.internal.",
        "sun.reflect.",
        "java.lang.reflect.",
        "org.junit.",
        "org.gradle.",
        "org.apache.maven.",
        "worker.org.gradle.",
        "bun:test",
        "bun:main",
        "bun:",
        "x",
        "_",
        ".",
        "/",
        "(",
        " ",
        "é",
        "node_modules/",
        "site-packages/",
        "/go/src/runtime/",
        "/rustc/0",
        "main",
        "test",
    )
)
@example("\tat java.base/java.lang.Thread.run(Thread.java:833)")
@example("\tat xjava.base/Foo(Foo.java:1) at _org.junit.X at éorg.gradle.Y")
@example("at bun:test (bun:testing) at bun:main")
def test_vendor_frames_are_the_ones_the_word_led_pattern_found(line: str) -> None:
    # (`worker.org.gradle.` without its boundary would pass too: `org.gradle.` inside it
    # always has one, so that alternative adds nothing the other does not find.)
    assert _testrun.is_vendor(line) is (_VENDOR_WORD_LED.search(line) is not None)
