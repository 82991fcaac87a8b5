"""help-text: usage, section headers and every option with a trimmed description."""

from __future__ import annotations

import pytest

from tests.helpers import lost, reduce_fixture


@pytest.mark.parametrize("fid", ["help-argparse-large", "help-pip-install", "help-tar-gnu", "help-rsync"])
def test_every_option_kept(fid: str) -> None:
    fx, red = reduce_fixture("help", fid)
    assert red.rule_id == "generic/help"
    assert not lost(fx, red.text)
    assert red.reduced_chars < red.raw_chars


def test_wrapped_descriptions_dropped() -> None:
    fx, red = reduce_fixture("help", "help-argparse-large")
    longest = max(len(ln) for ln in red.text.splitlines())
    assert longest < max(len(ln) for ln in fx["combined"].splitlines()) + 20
    assert "accepted values and their defaults" not in red.text


def test_usage_error_exit_code_stated() -> None:
    fx, red = reduce_fixture("help", "help-ssh-usage-error")
    assert f"exit {fx['exitCode']}" in red.text
    assert not lost(fx, red.text)
