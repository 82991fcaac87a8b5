"""composer-install: package operations folded into lists, nothing lost."""

from __future__ import annotations

import re

import pytest

from tests.helpers import lost, reduce_fixture

FAMILY = "composer"
IDS = [
    "composer-install-no-lock",
    "composer-install-nothing",
    "composer-require-conflict",
    "composer-update-vvv",
    "composer-install-packagist-unreachable",
    "composer-require-packagist",
]


@pytest.mark.parametrize("fid", IDS)
def test_every_signal_kept(fid: str) -> None:
    fx, red = reduce_fixture(FAMILY, fid)
    assert red.rule_id == "package/composer"
    assert not lost(fx, red.text)


def test_long_runs_fold_into_one_list_with_every_package() -> None:
    fx, red = reduce_fixture(FAMILY, "composer-update-vvv")
    installs = re.findall(r"^  - Installing (\S+) \(([^)]+)\)", fx["combined"], re.M)
    assert len(installs) == 30
    assert f"  - Installing ({len(installs)}): " in red.text
    for name, ver in installs:
        assert f"{name} ({ver})" in red.text
    assert "  - Locking " not in red.text  # the same packages are installed below
    assert "Executing command" not in red.text
    assert red.reduced_tokens < red.raw_tokens * 0.25


def test_short_runs_stay_one_line_each_and_downloads_go() -> None:
    _fx, red = reduce_fixture(FAMILY, "composer-require-packagist")
    assert "  - Installing psr/log (3.0.2): Extracting archive" in red.text
    assert "  - Downloading " not in red.text
    assert "[====" not in red.text
    assert "looking for funding" not in red.text


def test_problems_are_kept_verbatim() -> None:
    fx, red = reduce_fixture(FAMILY, "composer-require-conflict")
    problems = [ln for ln in fx["combined"].splitlines() if ln.strip().startswith(("Problem", "- "))]
    for ln in problems:
        assert ln.strip() in red.text


def test_no_operations_means_no_formatting() -> None:
    from tokenjuice.command import analyze
    from tokenjuice.reduction.formatters import FormatInput, composer_install
    from tokenjuice.rules.fixtures import fixture_run

    fx, _red = reduce_fixture(FAMILY, "composer-install-nothing")
    lines = fx["combined"].splitlines()
    fi = FormatInput(lines, [1] * len(lines), fixture_run(fx), analyze(fx["command"]), {})
    assert composer_install.format(fi) is None
