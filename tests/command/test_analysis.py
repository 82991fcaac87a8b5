"""Command understanding: shell parsing, unwrapping, runners, compound detection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.command import analyze, is_raw_request, tokenize


def eff(command: str, cwd: str | None = None) -> list[str]:
    return list(analyze(command, cwd=cwd).argv)


def test_quotes_and_escapes_are_shell_words() -> None:
    assert eff('git commit -m "fix: a | b; c"') == ["git", "commit", "-m", "fix: a | b; c"]
    assert eff("grep -rn 'a && b' src") == ["grep", "-rn", "a && b", "src"]
    assert eff(r"echo a\ b") == ["echo", "a b"]
    assert eff("printf $'x\\ty'") == ["printf", "x\ty"]
    # Quoted operators do not make a command compound.
    assert not analyze('echo "x | grep y"').compound


def test_redirections_and_fds_are_not_words() -> None:
    info = analyze("pytest -q 2>&1 > out.txt")
    assert list(info.argv) == ["pytest", "-q"]
    assert not info.compound
    assert [t.kind for t in tokenize("cmd 2>&1")] == ["word", "redir"]


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("FOO=1 BAR=x pytest -x", ["pytest", "-x"]),
        ("env -i PATH=/bin A=1 pytest", ["pytest"]),
        ("env -u HOME pytest", ["pytest"]),
        ("sudo -u deploy -E npm ci", ["npm", "ci"]),
        ("time -p make all", ["make", "all"]),
        ("nice -n 10 cargo build", ["cargo", "build"]),
        ("nice -5 cargo build", ["cargo", "build"]),
        ("timeout 30 go test ./...", ["go", "test", "./..."]),
        ("cd /srv/app && pytest -q", ["pytest", "-q"]),
        ("cd app; npm ci", ["npm", "ci"]),
        ("/usr/bin/git status", ["/usr/bin/git", "status"]),
        ("python -m pytest tests", ["pytest", "tests"]),
        ("python3 -m pytest", ["pytest"]),
        ("python3.11 -X dev -m unittest -v", ["unittest", "-v"]),
        ("uv run --with rich pytest -k slow", ["pytest", "-k", "slow"]),
        ("poetry run mypy src", ["mypy", "src"]),
        ("pipx run ruff check .", ["ruff", "check", "."]),
        ("npx -y jest --ci", ["jest", "--ci"]),
        ("pnpm exec vitest run", ["vitest", "run"]),
        ("pnpm dlx prettier --check .", ["prettier", "--check", "."]),
        ("bunx tsc --noEmit", ["tsc", "--noEmit"]),
        ("source .venv/bin/activate && pytest", ["pytest"]),
        ("bash -c 'cd x && cargo test'", ["cargo", "test"]),
        ('sh -lc "FOO=1 make -j4"', ["make", "-j4"]),
    ],
)
def test_wrappers_and_runners_are_seen_through(command: str, argv: list[str]) -> None:
    info = analyze(command)
    assert list(info.argv) == argv
    assert not info.compound, info.compound_reason


def test_program_name_is_normalised() -> None:
    assert analyze("/usr/bin/git status").program == "git"
    assert analyze("./node_modules/.bin/jest").program == "jest"
    assert analyze("python3.11 script.py").program_aliases() == ("python3.11", "python3", "python")


@pytest.mark.parametrize(
    ("command", "sub"),
    [
        ("git -C repo --no-pager -c core.pager=cat log --oneline", "log"),
        ("git --git-dir=.git --work-tree=. diff --stat", "diff"),
        ("git --git-dir .git status -s", "status"),
        ("cargo +nightly test --lib", "test"),
        ("kubectl -n prod get pods", "get"),
        ("docker --context ci build .", "build"),
    ],
)
def test_subcommand_after_global_options(command: str, sub: str) -> None:
    assert analyze(command).subcommand == sub


def test_npm_scripts_resolve_from_package_json(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": "jest --ci", "lint": "eslint ."}}))
    assert eff("npm test", cwd=str(tmp_path)) == ["jest", "--ci"]
    assert eff("npm run lint -- --fix", cwd=str(tmp_path)) == ["eslint", ".", "--fix"]
    assert eff("pnpm run lint", cwd=str(tmp_path)) == ["eslint", "."]
    # Unknown script or no package.json: the runner itself is the program.
    assert eff("npm run build", cwd=str(tmp_path)) == ["npm", "run", "build"]
    info = analyze("npm test")
    assert info.program == "npm"
    assert info.script == "test"


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("git diff | grep foo", "output piped into `grep`"),
        ("make && make test", "chain of 2 commands"),
        ("pytest; ruff check .", "chain of 2 commands"),
        ("(cd x && ls)", "subshell or grouping"),
        ("for f in *.py; do python $f; done", "shell control structure"),
        ("cat <<EOF > x\nhello\nEOF", "here-document"),
    ],
)
def test_compound_commands_are_flagged(command: str, reason: str) -> None:
    info = analyze(command)
    assert info.compound
    assert info.compound_reason == reason


@pytest.mark.parametrize(
    "command",
    [
        "pytest 2>&1 | tail -n 50",
        "cargo build 2>&1 | tee build.log",
        "npm test | cat",
        "pytest || true",
        'pytest; echo "exit: $?"',
        "cat data.json | jq .",
        "yes | apt-get install foo",
    ],
)
def test_safe_pipes_and_noops_keep_a_single_program(command: str) -> None:
    assert not analyze(command).compound


def test_slicing_pipe_is_recorded() -> None:
    info = analyze("pytest 2>&1 | tail -n 50")
    assert info.sliced
    assert info.program == "pytest"


def test_unbalanced_quotes_fall_back_to_whitespace_split() -> None:
    info = analyze("grep 'unterminated src")
    assert info.parse_error
    assert info.program == "grep"


def test_raw_request_needs_exact_tokens() -> None:
    assert is_raw_request(["pytest", "--raw"])
    assert is_raw_request(["git", "log", "--full"])
    assert not is_raw_request(["git", "log", "--full-history"])
    assert not is_raw_request(["git", "log", "--raw-output"])
    assert not is_raw_request(["--raw"])  # argv[0] is the program, not a flag


def test_npm_script_body_from_the_output_header() -> None:
    from tokenjuice.command import analyze, with_script_from_output

    npm_out = "\n> shop@1.0.0 test\n> jest --ci\n\nFAIL __tests__/cart.test.js\n"
    info = with_script_from_output(analyze("npm test"), npm_out)
    assert info.program == "jest" and info.argv == ("jest", "--ci")
    pnpm_out = "\n> shop@1.0.0 lint /home/dev/shop\n> eslint src\n"
    assert with_script_from_output(analyze("pnpm run lint"), pnpm_out).program == "eslint"
    yarn_out = "yarn run v1.22.22\n$ vitest run\n"
    assert with_script_from_output(analyze("yarn run test"), yarn_out).program == "vitest"
    # A header for another script, or no header, changes nothing.
    assert with_script_from_output(analyze("npm test"), "> shop@1.0.0 build\n> tsc\n").program == "npm"
    assert with_script_from_output(analyze("npm test"), "plain output\n").program == "npm"


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=12), max_size=5))
def test_command_text_is_shlex_join(argv: list[str]) -> None:
    """The effective command is shell-quoted exactly as `shlex.join` quotes it."""
    import shlex

    from tokenjuice.command import shell_quote

    assert " ".join(map(shell_quote, argv)) == shlex.join(argv)
    assert all(shell_quote(a) == shlex.quote(a) for a in ["", "a b", "it's", "ünï", "x$y", "-_=+@%:,./"])
