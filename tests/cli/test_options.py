"""Every command's declared options read the same through the fast reader and argparse:
the usual forms give argparse's namespace, anything else is left to argparse."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.cli import _fastargs
from tokenjuice.cli._parser import build_parser
from tokenjuice.cli.main import COMMANDS, command_module
from tokenjuice.cli.options import FLAG, POSITIONAL, REST, VALUE, Option, exit_code, positive_int, positive_seconds

NAMES = sorted(COMMANDS)


def _options(name: str) -> tuple[Option, ...]:
    options: tuple[Option, ...] = command_module(COMMANDS[name][0]).OPTIONS
    return options


def _argparse(name: str, argv: list[str]) -> dict[str, object] | None:
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            got = vars(build_parser(only=name).parse_args([name, *argv]))
    except SystemExit:
        return None
    del got["verbose"], got["subcommand_name"]
    return got


def _sample(opt: Option) -> str:
    if opt.choices is not None:
        return str(opt.choices()[-1])
    if opt.convert in (int, exit_code, positive_int):
        return "3"
    if opt.convert in (float, positive_seconds):
        return "2.5"
    return "some value"


def _bad(opt: Option) -> str | None:
    """A value the option's converter or choices refuse, if any."""
    if opt.choices is not None:
        return "no-such-choice"
    return "soon" if opt.convert is not None else None


def _words(name: str) -> list[str]:
    """The smallest tail of words the command takes: its required positionals, its command."""
    words = [_sample(o) for o in _options(name) if o.kind == POSITIONAL and not o.optional]
    if any(o.kind == REST for o in _options(name)):
        words += ["--", "make", "-k"]
    return words


def _agree(name: str, argv: list[str]) -> dict[str, object] | None:
    fast = _fastargs.read(_options(name), argv)
    slow = _argparse(name, argv)
    if fast is not None:
        assert fast == slow, (name, argv)
    return fast


CASES = [
    (name, opt, flag) for name in NAMES for opt in _options(name) if opt.kind in (FLAG, VALUE) for flag in opt.names
]


@pytest.mark.parametrize(("name", "opt", "flag"), CASES, ids=[f"{n} {f}" for n, _, f in CASES])
def test_every_option_in_every_form(name: str, opt: Option, flag: str) -> None:
    words = _words(name)
    given = [flag] if opt.kind == FLAG else [flag, _sample(opt)]
    if opt.const is None:
        # The usual forms: the fast reader answers, before and after the words.
        assert _agree(name, [*given, *words]) is not None
        if words and words[0] != "--":
            assert _agree(name, [words[0], *given, *words[1:]]) is not None
    else:
        # A value that may be left out: argparse's alone to place.
        assert _agree(name, [*given, *words]) is None
        assert _argparse(name, [*words, flag]) is not None
    if opt.kind == VALUE:
        if flag.startswith("--"):
            joined = [f"{flag}={_sample(opt)}", *words]
            assert _agree(name, joined) is None
            assert _argparse(name, joined) == _argparse(name, [*given, *words])
        if opt.const is None:
            assert _agree(name, [*words, flag] if not any(o.kind == REST for o in _options(name)) else [flag]) is None
        bad = _bad(opt)
        if bad is not None:
            assert _agree(name, [flag, bad, *words]) is None
            assert _argparse(name, [flag, bad, *words]) is None
        assert _agree(name, [flag, "-x", *words]) is None
    # Given twice: argparse keeps the last or refuses; either way it decides.
    assert _agree(name, [*given, *given, *words]) is None


@pytest.mark.parametrize("name", NAMES)
def test_unknown_abbreviated_extra_and_help_are_argparse_s(name: str) -> None:
    words = _words(name)
    assert _agree(name, ["--bogus", *words]) is None
    assert _argparse(name, ["--bogus", *words]) is None
    assert _agree(name, ["--help"]) is None
    longs = [n for o in _options(name) if o.kind in (FLAG, VALUE) for n in o.names if n.startswith("--")]
    for n in longs:
        prefix = n[:-1]
        if sum(other.startswith(prefix) for other in longs) == 1 and prefix not in ("--",):
            assert _agree(name, [prefix, _sample(next(o for o in _options(name) if n in o.names)), *words]) is None
    rest = any(o.kind == REST for o in _options(name))
    if not rest:
        slots = [o for o in _options(name) if o.kind == POSITIONAL]
        extra = [*(_sample(o) for o in slots), "one-too-many"]
        assert _agree(name, extra) is None
        assert _argparse(name, extra) is None
        # `--` ends the options: what follows is a word even when it looks like one.
        if slots:
            assert _agree(name, ["--", *(_sample(o) for o in slots)]) is not None
        for odd in (["--"], [*words, "--"], ["--", "x", "--"]):
            assert _agree(name, odd) is None
    else:
        assert _agree(name, ["--", "--raw", "x"]) == {**_agree(name, []), "cmd": ["--", "--raw", "x"]}  # type: ignore[dict-item]
        assert _agree(name, ["make", "--json"]) is not None


def test_options_that_exclude_each_other_are_refused_by_both() -> None:
    pairs = 0
    for name in NAMES:
        options = _options(name)
        for key in {o.exclusive for o in options if o.exclusive is not None}:
            a, b = [o for o in options if o.exclusive == key][:2]
            argv = [
                *([a.names[0]] if a.kind == FLAG else [a.names[0], _sample(a)]),
                *([b.names[0]] if b.kind == FLAG else [b.names[0], _sample(b)]),
                *_words(name),
            ]
            assert _agree(name, argv) is None
            assert _argparse(name, argv) is None
            pairs += 1
    assert pairs >= 2


def test_a_missing_word_is_argparse_s() -> None:
    for name in NAMES:
        if any(o.kind == POSITIONAL and not o.optional for o in _options(name)):
            assert _agree(name, []) is None
            assert _argparse(name, []) is None


@st.composite
def _argv(draw: st.DrawFn) -> tuple[str, list[str]]:
    name = draw(st.sampled_from(NAMES))
    options = _options(name)
    vocabulary = [n for o in options if o.kind in (FLAG, VALUE) for n in o.names]
    vocabulary += [_sample(o) for o in options if o.kind != FLAG]
    vocabulary += ["--", "-", "x", "0", "-1", "2.5", "--bogus"]
    return name, draw(st.lists(st.sampled_from(vocabulary), max_size=6))


@settings(max_examples=300, deadline=None)
@given(_argv())
def test_whenever_the_fast_reader_answers_argparse_agrees(case: tuple[str, list[str]]) -> None:
    name, argv = case
    _agree(name, argv)


def test_the_fast_path_reads_only_the_per_call_commands() -> None:
    assert _fastargs.parse(["explain", "--command", "git status"]) is None
    got = _fastargs.parse(["-v", "reduce", "--command", "git status"])
    assert got is not None and got.verbose and got.subcommand_name == "reduce" and got.command == "git status"
