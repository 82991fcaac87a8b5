from __future__ import annotations

import re

from tests.helpers import lost, reduce_fixture
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
