"""pip-install: what changed, warnings and errors kept; download/build noise dropped."""

from __future__ import annotations

import pytest

from tests.helpers import lost, reduce_fixture
from tokenjuice.rules.fixtures import fixture_run

FAMILY = "pip-install"
IDS = [
    "pip-install-few",
    "pip-install-already-satisfied",
    "pip-install-downgrade-breaks-dependency",
    "pip-install-unknown-package",
    "pip-install-no-matching-version",
    "pip-install-resolution-impossible",
    "pip-install-requirements-large",
    "pip-install-verbose-sdist",
    "pip-install-build-failure",
    "pip-install-network-error",
    "pip-install-permission-denied",
    "pip-install-externally-managed",
    "pip-uninstall",
    "pip-download",
]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    fx, red = reduce_fixture(FAMILY, fid)
    assert red.rule_id == "install/pip"
    assert not lost(fx, red.text)


def test_large_install_keeps_the_list_and_drops_downloads() -> None:
    fx, red = reduce_fixture(FAMILY, "pip-install-requirements-large")
    installed = [s for s in fx["signals"] if s["kind"] == "installed"]
    assert len(installed) > 100
    assert f"{len(installed)} installed packages" in red.text
    assert "Collecting " not in red.text
    assert "Downloading " not in red.text
    assert "━" not in red.text
    assert red.reduced_tokens < red.raw_tokens * 0.2
    # The long "Successfully installed" line is wrapped, not cut in the middle.
    assert "…" not in red.text.split("Successfully installed", 1)[1].split("[…", 1)[0]


def test_verbose_build_output_goes_but_the_result_stays() -> None:
    _fx, red = reduce_fixture(FAMILY, "pip-install-verbose-sdist")
    assert "running bdist_wheel" not in red.text
    assert "adding 'tzdata/zoneinfo" not in red.text
    # Build dependencies installed into pip's isolated build env are not the user's packages.
    assert "Successfully installed setuptools" not in red.text
    assert red.text.count("Successfully installed") == 1
    assert red.reduced_chars < red.raw_chars * 0.02


def test_build_failure_keeps_the_exception_not_pips_frames() -> None:
    _fx, red = reduce_fixture(FAMILY, "pip-install-build-failure")
    assert "RuntimeError: libfoo headers not found" in red.text
    assert "subprocess-exited-with-error" in red.text
    assert "_in_process.py" not in red.text
    assert "lines of build output omitted" in red.text
    assert red.text.startswith("exit 1")


def test_resolution_conflict_keeps_the_cause_drops_generic_hints() -> None:
    _fx, red = reduce_fixture(FAMILY, "pip-install-resolution-impossible")
    assert "The conflict is caused by:" in red.text
    assert "flask 3.0.0 depends on Werkzeug>=3.0.0" in red.text
    assert "loosen the range" not in red.text


def test_dependency_conflict_on_success_is_kept() -> None:
    fx, red = reduce_fixture(FAMILY, "pip-install-downgrade-breaks-dependency")
    assert fx["exitCode"] == 0
    assert "which is incompatible" in red.text
    assert "Successfully uninstalled Werkzeug-3.1.9" in red.text


def test_already_satisfied_keeps_top_level_counts_the_rest() -> None:
    fx, red = reduce_fixture(FAMILY, "pip-install-already-satisfied")
    raw_lines = fx["combined"].count("Requirement already satisfied")
    assert f"{raw_lines} satisfied requirements" in red.text
    assert "(from flask" not in red.text
    assert "flask==3.0.0" in red.text


def test_version_list_error_line_stays_whole() -> None:
    fx, red = reduce_fixture(FAMILY, "pip-install-no-matching-version")
    raw_line = next(ln for ln in fixture_run(fx).combined.splitlines() if "from versions:" in ln)
    assert raw_line.strip() in red.text
