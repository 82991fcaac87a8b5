"""`tokenjuice mcp` without the extra: one line naming it, exit 2 (runs without `mcp`)."""

from __future__ import annotations

import argparse
import sys

import pytest

import tokenjuice.mcp
from tokenjuice.cli.commands import mcp as command
from tokenjuice.cli.options import add_to


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_to(parser, command.OPTIONS)
    return parser.parse_args(list(argv))


def _hide_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    # A None entry makes `import mcp` raise ModuleNotFoundError, as when it is not installed;
    # submodules another test already imported must go too, or they would still resolve.
    for name in [n for n in sys.modules if n == "mcp" or n.startswith("mcp.")] or ["mcp"]:
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("tokenjuice.mcp.server", "tokenjuice.mcp.schema"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.delattr(tokenjuice.mcp, "server", raising=False)


def test_missing_extra_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _hide_sdk(monkeypatch)
    assert command.run(_args()) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert "pip install 'tokenjuice[mcp]'" in lines[0]


def test_main_dispatches_mcp_when_registered(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tokenjuice.cli.main import COMMANDS, main

    if "mcp" not in COMMANDS:
        pytest.skip("`mcp` is not in tokenjuice.cli.main.COMMANDS yet")
    _hide_sdk(monkeypatch)
    assert main(["mcp"]) == 2
    assert "tokenjuice[mcp]" in capsys.readouterr().err


def test_options_are_checked_before_the_sdk_is_needed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tokenjuice.cli.main import UserError

    _hide_sdk(monkeypatch)
    with pytest.raises(UserError, match="no such directory"):
        command.run(_args("--cwd", "/no/such/dir/here"))
    with pytest.raises(SystemExit):
        _args("--timeout", "0")
    with pytest.raises(SystemExit):
        _args("--max-read-chars", "x")
    capsys.readouterr()
