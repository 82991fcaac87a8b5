"""The per-call commands' arguments read without argparse give what argparse gives,
and anything unusual is left to argparse."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenjuice.cli import _fastargs
from tokenjuice.cli._parser import build_parser


def _argparse(argv: list[str]) -> dict[str, object] | None:
    name = next((a for a in argv if not a.startswith("-")), None)
    try:
        return vars(build_parser(only=name).parse_args(argv))
    except SystemExit:
        return None


@pytest.mark.parametrize(
    "argv",
    [
        ["wrap", "--", "pytest", "-q"],
        ["wrap", "pytest", "-q", "--raw"],
        ["wrap", "--raw", "--tee", "--", "ls", "-la"],
        ["wrap", "-c", "cd x && make", "--timeout", "2.5"],
        ["wrap", "--shell", "--cwd", "/tmp", "--session", "s1", "--tool-name", "bash", "--", "make"],
        ["wrap", "--max-chars", "400", "--max-tokens", "90", "--density-threshold", "0.5", "--", "a", "--", "b"],
        ["wrap", "--", "--raw"],
        ["wrap", "--raw"],
        ["-v", "wrap", "--", "true"],
        ["--verbose", "-v", "wrap", "true"],
        ["reduce"],
        ["reduce", "out.txt"],
        ["reduce", "-"],
        ["reduce", "--command", "pytest -v", "--exit-code", "1"],
        ["reduce", "out.txt", "-c", "git status", "-e", "0", "--raw", "--json"],
        ["reduce", "--tool-name", "Bash", "--cwd", ".", "--classifier", "tests/pytest", "--", "f"],
        ["reduce", "--exit-code", "+3", "--max-chars", "1_000"],
        ["hook", "claude-code"],
        ["-v", "hook", "codex"],
        ["reduce-json"],
        ["reduce-json", "--pretty", "payload.json"],
    ],
)
def test_the_usual_forms_read_as_argparse_reads_them(argv: list[str]) -> None:
    fast = _fastargs.parse(argv)
    assert fast is not None, argv
    assert vars(fast) == _argparse(argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["wrap", "--help"],
        ["wrap", "--ti", "3", "--", "x"],  # an abbreviation: argparse's to accept
        ["wrap", "--timeout=3", "--", "x"],
        ["wrap", "--timeout", "soon", "--", "x"],
        ["wrap", "--max-chars", "0", "--", "x"],
        ["wrap", "--session"],
        ["wrap", "-v", "--", "x"],
        ["reduce", "a", "b"],
        ["reduce", "--exit-code", "-1"],
        ["reduce", "--command", "--raw"],
        ["reduce", "--bogus"],
        ["reduce-json", "a.json", "b.json"],
        ["hook"],
        ["hook", "no-such-host"],
        ["hook", "claude-code", "extra"],
        ["explain", "--command", "git status"],
        ["-v"],
        [],
    ],
)
def test_anything_else_is_left_to_argparse(argv: list[str]) -> None:
    assert _fastargs.parse(argv) is None


WORDS = st.sampled_from(
    ["--raw", "--tee", "--json", "-c", "--shell", "-e", "--exit-code", "--timeout", "--command", "--max-chars",
     "--density-threshold", "--session", "--cwd", "--", "-", "1", "0", "2.5", "x", "-v", "pytest", "out.txt"]
)  # fmt: skip


@given(st.sampled_from(["wrap", "reduce", "reduce-json"]), st.lists(WORDS | st.just("--pretty"), max_size=7))
def test_whenever_it_answers_argparse_agrees(name: str, rest: list[str]) -> None:
    argv = [name, *rest]
    fast = _fastargs.parse(argv)
    if fast is not None:
        assert vars(fast) == _argparse(argv)


def test_wrap_and_reduce_calls_import_neither_argparse_nor_json(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("".join(f"tests/test_m.py::test_{i} PASSED\n" for i in range(50)) + "50 passed in 0.1s\n")
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps({"command": "pytest -v", "stdout": out.read_text(), "exitCode": 0}))
    probe = (
        "import sys\nfrom tokenjuice.cli.main import main\ncode = main(sys.argv[1:])\n"
        "from tokenjuice import _recache\n_recache.save()\n"
        "sys.stderr.write(repr(sorted(m for m in ('argparse', 'json') if m in sys.modules)))\n"
    )
    env = {**os.environ, "TOKENJUICE_HOME": str(tmp_path / "home"), "TOKENJUICE_TOKENIZER": "estimate"}
    env.pop("TOKENJUICE_NO_CACHE", None)
    calls = (
        ["reduce", "--command", "pytest -v", str(out)],
        ["wrap", "--", "cat", str(out)],
        ["reduce-json", str(payload)],
    )
    for args in calls:
        runs = [
            subprocess.run([sys.executable, "-c", probe, *args], env=env, capture_output=True, text=True, timeout=60)
            for _ in range(2)
        ]
        assert runs[1].returncode == 0, runs[1].stderr
        assert runs[1].stderr.endswith("[]"), (args, runs[1].stderr)
        texts = [json.loads(r.stdout)["inlineText"] if args[0] == "reduce-json" else r.stdout for r in runs]
        assert "50 passed" in texts[1]
        assert texts[0] == texts[1]
