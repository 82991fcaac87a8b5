"""npm-install: summaries, warnings and npm errors kept; verbose chatter, funding notes,
stack frames and usage text dropped."""

from __future__ import annotations

import pytest

from tests.helpers import lost, reduce_fixture

FAMILY = "npm-install"
IDS = [
    "npm-install-express",
    "npm-install-up-to-date",
    "npm-ci",
    "npm-ci-no-lockfile",
    "npm-install-404",
    "npm-install-eresolve",
    "npm-install-force-peer-warnings",
    "npm-install-postinstall-fails",
    "npm-install-network-error",
    "npm-install-eacces",
    "npm-uninstall",
    "npm-install-verbose-large",
    "npm-install-audit-deprecations",
]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    fx, red = reduce_fixture(FAMILY, fid)
    assert red.rule_id == ("install/npm-ci" if fid.startswith("npm-ci") else "install/npm-install")
    assert not lost(fx, red.text)


def test_verbose_log_dropped() -> None:
    _fx, red = reduce_fixture(FAMILY, "npm-install-verbose-large")
    assert "npm http fetch" not in red.text
    assert "npm verbose" not in red.text
    assert "npm info" not in red.text
    assert red.reduced_chars < red.raw_chars * 0.01


def test_eusage_keeps_the_message_not_the_usage() -> None:
    _fx, red = reduce_fixture(FAMILY, "npm-ci-no-lockfile")
    assert "can only install with an existing package-lock.json" in red.text
    assert "--install-strategy" not in red.text
    assert "Options:" not in red.text
    assert "usage text" in red.text  # the footer accounts for it


def test_stack_frames_and_error_object_dropped() -> None:
    _fx, red = reduce_fixture(FAMILY, "npm-install-eacces")
    assert "permission denied" in red.text
    assert "    at " not in red.text
    assert "errno: -13," not in red.text
    assert red.text.startswith("exit 243")


def test_eresolve_detail_kept_whole() -> None:
    fx, red = reduce_fixture(FAMILY, "npm-install-eresolve")
    for needle in ("While resolving:", "Found: react@18.3.1", "Could not resolve dependency:", "--legacy-peer-deps"):
        assert needle in red.text
    assert not lost(fx, red.text)


def test_funding_note_dropped_audit_kept() -> None:
    _fx, red = reduce_fixture(FAMILY, "npm-install-audit-deprecations")
    assert "looking for funding" not in red.text
    assert "npm fund" not in red.text
    assert "7 vulnerabilities (2 moderate, 4 high, 1 critical)" in red.text
    assert red.text.count("npm warn deprecated") == 5
