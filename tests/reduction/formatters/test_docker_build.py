from __future__ import annotations

import re

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._devops import fi_text
from tokenjuice.reduction.formatters import docker_build

STEP_OUTPUT_RE = re.compile(r"^#\d+ \d+\.\d+ ")


def test_buildkit_failure_keeps_failing_step_tail_and_error() -> None:
    fx, red = reduce_fixture("docker", "docker-build-buildkit-fail")
    assert not lost(fx, red.text)
    lines = red.text.splitlines()
    # The failing step's output is cut to its last lines; the passing install step's output is gone.
    outputs = [ln for ln in lines if STEP_OUTPUT_RE.match(ln)]
    assert 0 < len(outputs) <= 17
    assert not any("Collecting flask" in ln for ln in lines)
    assert any(ln.startswith("#") and "ERROR: executor failed" in ln for ln in lines)
    assert not any("transferring" in ln or "[internal]" in ln for ln in lines)


def test_buildkit_success_is_one_line_per_step_plus_image() -> None:
    fx, red = reduce_fixture("docker", "docker-build-buildkit-ok")
    assert not lost(fx, red.text)
    raw_steps = {m.group(1) for m in re.finditer(r"^#\d+ (\[(?!internal)[^\]]+\] .+)$", fx["combined"], re.M)}
    for step in raw_steps:
        assert sum(1 for ln in red.text.splitlines() if step in ln) == 1, step
    assert not any(STEP_OUTPUT_RE.match(ln) for ln in red.text.splitlines())
    assert "naming to registry.example.com/shop/web:1.4.0" in red.text
    assert len(red.text) < len(fx["combined"]) / 50


def test_classic_failure_drops_chatter_keeps_steps() -> None:
    fx, red = reduce_fixture("docker", "docker-build-classic-fail")
    assert not lost(fx, red.text)
    assert "Removing intermediate container" not in red.text
    assert "Running in" not in red.text
    n_steps = len(re.findall(r"^Step \d+/\d+ : ", fx["combined"], re.M))
    assert len(re.findall(r"^Step \d+/\d+ : ", red.text, re.M)) == n_steps
    assert "returned a non-zero code: 2" in red.text


def test_buildx_failure_block_is_not_repeated_from_the_step() -> None:
    fx, red = reduce_fixture("docker", "docker-buildx-plain-fail")
    assert not lost(fx, red.text)
    # The `------` block repeats the step's last lines: the step's own copy is not shown.
    assert red.text.count("Collecting pydantic-settings==9.1.0") == 1
    assert not re.search(r"^#4 sha256:", red.text, re.M)
    assert ">>> RUN pip install" in red.text


def test_not_a_build_log() -> None:
    assert docker_build.format(fi_text("hello\nworld\n")) is None
