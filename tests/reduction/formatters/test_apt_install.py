"""apt-install: counts, removals and the requested packages kept; long lists folded;
download/unpack/trigger and simulation noise dropped."""

from __future__ import annotations

import re

import pytest

from tests.helpers import lost, reduce_fixture
from tokenjuice.reduction.formatters.apt_install import _requested

FAMILY = "apt"
IDS = [
    "apt-get-install-simulate-large",
    "apt-get-upgrade-simulate",
    "apt-get-remove-simulate",
    "apt-get-install-real",
    "apt-remove-real",
    "apt-get-install-already-newest",
    "apt-get-install-unknown",
    "apt-get-install-not-root",
    "apt-get-update-missing-release",
]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    fx, red = reduce_fixture(FAMILY, fid)
    assert red.rule_id == ("package/apt-upgrade" if "upgrade" in fid else "package/apt-install")
    assert not lost(fx, red.text)


def test_large_simulation_folds_lists_and_keeps_the_requested_package() -> None:
    fx, red = reduce_fixture(FAMILY, "apt-get-install-simulate-large")
    new = len(re.findall(r"^Inst \S+ \(", fx["combined"], re.M))
    assert f"The following NEW packages will be installed ({new}):" in red.text
    assert "… " in red.text and " more" in red.text
    assert "Inst libreoffice-writer (" in red.text  # the requested one keeps its version
    assert "Conf " not in red.text
    assert "Suggested packages" not in red.text
    assert red.reduced_chars < red.raw_chars * 0.05


def test_removals_are_never_folded() -> None:
    fx, red = reduce_fixture(FAMILY, "apt-get-remove-simulate")
    removed = re.findall(r"^Remv (\S+)", fx["combined"], re.M)
    assert len(removed) > 40
    section = red.text.split("The following packages will be REMOVED:", 1)[1]
    for name in removed:
        assert re.search(rf"(?<![\w.+-]){re.escape(name)}(?![\w.+-])", section), name


def test_real_install_keeps_setup_of_requested_packages_only() -> None:
    _fx, red = reduce_fixture(FAMILY, "apt-get-install-real")
    for name in ("sl", "figlet", "cowsay"):
        assert f"Setting up {name} (" in red.text
    assert "Setting up libtext-charwidth-perl" not in red.text
    assert "Unpacking " not in red.text
    assert "Get:" not in red.text
    assert "Reading database" not in red.text


def test_apt_cli_warning_dropped() -> None:
    fx, red = reduce_fixture(FAMILY, "apt-remove-real")
    assert "does not have a stable CLI interface" in fx["combined"]
    assert "stable CLI interface" not in red.text


def test_update_keeps_err_and_e_lines() -> None:
    _fx, red = reduce_fixture(FAMILY, "apt-get-update-missing-release")
    assert "Err:" in red.text
    assert "404  Not Found" in red.text
    assert "Get:1" not in red.text


def test_requested_names_from_argv() -> None:
    argv = (
        "apt-get",
        "-o",
        "Dir::Etc=/x",
        "install",
        "-y",
        "foo=1.2",
        "bar/bookworm",
        "baz:amd64",
        "--no-install-recommends",
    )
    assert _requested(argv) == {"foo", "bar", "baz"}
    assert _requested(("apt", "upgrade")) == set()
