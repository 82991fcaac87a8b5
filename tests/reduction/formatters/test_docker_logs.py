from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.helpers import load, lost, reduce_fixture
from tests.reduction.formatters._devops import fi_text
from tokenjuice.reduction.formatters import docker_logs


def test_service_log_folds_repeats_and_keeps_errors_in_order() -> None:
    fx, red = reduce_fixture("docker", "docker-logs-errors")
    assert not lost(fx, red.text)
    errors = [s["text"] for s in fx["signals"] if s["kind"] == "error"]
    positions = [red.text.index(e) for e in errors]
    assert positions == sorted(positions)
    counts = [int(n) for n in re.findall(r"\(\+(\d+) similar\)", red.text)]
    assert counts
    assert sum(counts) > 3000
    assert len(red.text) < len(fx["combined"]) / 40


def test_compose_prefixed_logs_keep_exit_codes() -> None:
    fx, red = reduce_fixture("docker", "docker-compose-v2-up")
    assert not lost(fx, red.text)
    assert re.search(r"worker-1 +exited with code 1", red.text)
    assert " Container shop-api-1  Created" not in red.text


def test_kubectl_logs_keep_the_stack_trace() -> None:
    fx, red = reduce_fixture("kubectl", "kubectl-logs-java-stacktrace")
    assert not lost(fx, red.text)
    assert "\tat com.example.orders.service.OrderService.place(OrderService.java:118)" in red.text
    assert "... 87 common frames omitted" in red.text


def test_nothing_repeats_nothing_to_fold() -> None:
    text = "\n".join(f"line {chr(65 + i % 26)}{'x' * (i // 26)} unique" for i in range(80))
    assert docker_logs.format(fi_text(text)) is None
    assert docker_logs.format(fi_text("a\nb\n")) is None


def _shape_one(line: str) -> str:
    """The shape of one line, as the formatter defines it (per line, the plain way)."""
    shaped = re.sub(r"\b[0-9a-f]*\d[0-9a-f]*\b|\d+|\"[^\"]*\"|'[^']*'", "#", line)
    return re.sub(r"\s+", " ", shaped)


SHAPE_PIECES = st.sampled_from(
    [
        "GET",
        " ",
        "  ",
        "\t",
        "\r",
        "\x0b",
        "\x85",
        "\x1c",
        "\x1f",
        "\xa0",
        "\u2028",
        "/items/",
        "12",
        "0x1f",
        "deadbeef",
        "abc",
        '"',
        "'",
        "a1",
        "ü",
        "_",
        "-",
        "é3",
        "٣",  # a digit to `\d`, not to `[0-9]`
        "b٣",
    ]
)


@settings(max_examples=500, deadline=None)
@given(lines=st.lists(st.lists(SHAPE_PIECES, max_size=10).map("".join), min_size=1, max_size=8))
def test_bulk_shapes_are_the_per_line_shapes(lines: list[str]) -> None:
    assert docker_logs.line_shapes(lines) == [_shape_one(line) for line in lines]


# ASCII text, the common case. A run of
# blanks becomes one space either way: a single space replaced by one is the same text.
ASCII_SHAPE_PIECES = st.sampled_from(
    [" ", "  ", "\t", "12", "0x1f", "deadbeef", "abc", "a1", "_", "-", "x", '"', "'", "9f", "fa", "\r", "/id/"]
)


@settings(max_examples=800, deadline=None)
@given(lines=st.lists(st.lists(ASCII_SHAPE_PIECES, max_size=10).map("".join), min_size=1, max_size=8))
@example(lines=["_a1 xab1 ab1_ 1ab 12x 'q' \"a b\""])
def test_bulk_shapes_of_ascii_text_are_the_per_line_shapes(lines: list[str]) -> None:
    assert docker_logs.line_shapes(lines) == [_shape_one(line) for line in lines]


@pytest.mark.parametrize(
    ("family", "fixture_id"),
    [
        ("docker", "docker-logs-errors"),
        ("docker", "docker-compose-v1-logs"),
        ("kubectl", "kubectl-logs-java-stacktrace"),
    ],
)
def test_bulk_shapes_on_captured_logs(family: str, fixture_id: str) -> None:
    lines = load(family, fixture_id)["combined"].split("\n")
    assert len(lines) > 50
    assert docker_logs.line_shapes(lines) == [_shape_one(line) for line in lines]
