"""gradle: task progress, banners, --info chatter and advice dropped; compiler errors
(javac, Kotlin), what went wrong and the outcome kept."""

from __future__ import annotations

import re

import pytest

from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter

IDS = [
    "gradle-compile-errors",
    "gradle-compile-errors-rich-console",
    "gradle-multiproject-success",
    "gradle-multiproject-info-large",
    "gradle-unresolved-dependency",
    "gradle8-java-compile-failure",
    "gradle8-kotlin-compile-failure",
    "gradle8-multimodule-success",
]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    reduced("gradle", fid, "build/gradle")


def test_old_console_glued_task_names_are_split() -> None:
    fx, red = reduced("gradle", "gradle-compile-errors", "build/gradle")
    assert re.search(r"^:compileJava/\S+\.java:\d+: error: ", raw(fx), re.M)
    assert re.search(r"^/\S+\.java:\d+: error: ", red.text, re.M)
    assert ":compileJava FAILED" in red.text
    assert "symbol: method reserved(String)" in red.text
    assert "* Try:" not in red.text and "Run with --stacktrace" not in red.text
    assert "openjdk version" not in red.text


def test_rich_console_redraw_residue_goes() -> None:
    fx, red = reduced("gradle", "gradle-compile-errors-rich-console", "build/gradle")
    assert "\x1b[" in fx["combined"] and "EXECUTING" in fx["combined"]
    assert "EXECUTING" not in red.text and "> IDLE" not in red.text
    assert re.search(r"^> Task :compileJava FAILED$", red.text, re.M)
    _, plain = reduced("gradle", "gradle-compile-errors", "build/gradle")
    errors = lambda t: re.findall(r"^\S+\.java:\d+: error: .*$", t, re.M)  # noqa: E731
    assert errors(red.text) == errors(plain.text)


def test_info_logging_and_tasks_go() -> None:
    fx, red = reduced("gradle", "gradle-multiproject-info-large", "build/gradle")
    assert len(raw(fx).splitlines()) > 300
    assert len(red.text.splitlines()) <= 4
    assert "BUILD SUCCESSFUL" in red.text
    assert red.reduced_chars < red.raw_chars * 0.01


def test_modern_console_keeps_failed_task_and_drops_the_rest() -> None:
    fx, red = reduced("gradle", "gradle8-java-compile-failure", "build/gradle")
    assert "> Task :app:compileJava FAILED" in red.text
    assert "> Task :lib:jar UP-TO-DATE" in raw(fx)
    assert "UP-TO-DATE" not in red.text
    _, kt = reduced("gradle", "gradle8-kotlin-compile-failure", "build/gradle")
    assert len(re.findall(r"^e: /\S+\.kt:\d+:\d+ ", kt.text, re.M)) == 3
    assert re.search(r"^w: /\S+\.kt:\d+:\d+ ", kt.text, re.M)


def test_deprecation_notice_kept_without_its_advice() -> None:
    _, red = reduced("gradle", "gradle8-multimodule-success", "build/gradle")
    assert "Deprecated Gradle features were used in this build" in red.text
    assert "--warning-mode all" not in red.text
    assert "> Task" not in red.text


def test_accounting_and_unrelated_output() -> None:
    fx, _ = reduced("gradle", "gradle-compile-errors", "build/gradle")
    lines = raw(fx).splitlines()
    out = run_formatter("gradle", raw(fx), exit_code=1)
    assert out is not None and accounted(out, len(lines))
    assert run_formatter("gradle", UNRELATED) is None
