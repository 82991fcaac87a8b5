"""The command rewrite: what is wrapped, what is left alone, and that a wrapped command
really behaves like the original (same exit code, same output, `cd` still sticks)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tokenjuice.hosts._rewrite import plan

EXE = "tokenjuice"


B = '"${BASH:-bash}"'


@pytest.mark.parametrize(
    ("command", "rewritten"),
    [
        ("git status", "tokenjuice wrap -- git status"),
        ("cd sub && npm test", "cd sub && tokenjuice wrap -- npm test"),
        ("export CI=1; make -j4", "export CI=1; tokenjuice wrap -- make -j4"),
        ("FOO=1 make", f"tokenjuice wrap -- {B} -c 'FOO=1 make'"),
        ("npm test || true", f"tokenjuice wrap -- {B} -c 'npm test || true'"),
        ("pytest 2>&1 | tee log.txt", f"tokenjuice wrap -- {B} -c 'pytest 2>&1 | tee log.txt'"),
        ("(cd x && make)", f"tokenjuice wrap -- {B} -c '(cd x && make)'"),
        ("cd x\nmake all\n", "cd x\ntokenjuice wrap -- make all"),
        ("cd x\nmake $HOME", f"cd x\ntokenjuice wrap -- {B} -c '\nmake $HOME'"),
    ],
)
def test_wrapped(command: str, rewritten: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", _fake_path(monkeypatch))
    assert plan(command, EXE).command == rewritten


def _fake_path(monkeypatch: pytest.MonkeyPatch) -> str:
    """A PATH holding the programs these cases name (not all are installed here)."""
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="tj-path-"))
    for name in ("npm", "make", "pytest", "git", "tee", "bash"):
        (d / name).write_text("#!/bin/sh\n")
        (d / name).chmod(0o755)
    return f"{d}:{os.environ.get('PATH', '')}"


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("", "empty"),
        ("cd /tmp", "only shell setup"),
        ("cat README.md", "needs no reduction"),
        ("head -50 src/app.py", "needs no reduction"),
        ("mkdir -p a && cp x y", "needs no reduction"),
        ("git log | grep fix", "feeds another program (`grep`)"),
        ("git log 2>&1 | tail -50", "feeds another program (`tail`)"),
        ("vim notes.txt", "interactive"),
        ("less build.log", "interactive"),
        ("git log &", "background"),
        ("git log -x; cd ..", "would not stick"),
        ("git diff; export A=1", "would not stick"),
        ("f() { ls; }; f", "defines the function `f`"),
        ("A=1", "assigns the shell variable `A`"),
        ("git log; B=2", "assigns the shell variable `B`"),
        ("D=sub; ls $D", "assigns the shell variable `D`"),
        ("set -e; ls /nonexistent; ls sub", "`set` changes or reads the agent's shell"),
        ("shopt -s globstar; ls **/*.py", "`shopt` changes the shell"),
        ("for f in a b; do ls $f; done", "sets a loop variable"),
        ("ls $NOT_EXPORTED_ANYWHERE", "uses $NOT_EXPORTED_ANYWHERE"),
        ("git log $1", "uses $1"),
        ("TOKENJUICE_RAW=1 git log", "raw output requested"),
        ("tokenjuice cat 3f2a9c1b7d4e --tail 20", "already goes through tokenjuice"),
        ("/opt/bin/tokenjuice wrap -- make", "already goes through tokenjuice"),
        ("echo 'unterminated", "cannot parse"),
        ("git log > build.log 2>&1", "goes to a file"),
        ("some-alias-that-is-not-installed --x", "not a program on PATH"),
        ("conda activate x && ls", "shell function"),
    ],
)
def test_left_alone(command: str, why: str) -> None:
    p = plan(command, EXE)
    assert p.command is None
    assert why in p.reason


def test_heredoc_body_is_data_not_commands() -> None:
    # The `cd /` inside the body must not count as a shell-state change.
    command = "python3 - <<'EOF'\nprint(\"it's\")\ncd /\nEOF"
    p = plan(command, EXE)
    assert p.command == f"tokenjuice wrap -- {B} -c {shlex.quote(command)}"


def test_zsh_gets_plain_commands_only() -> None:
    assert plan("git status", EXE, shell="zsh").command == "tokenjuice wrap -- git status"
    p = plan("git log $HOME", EXE, shell="zsh")
    assert p.command is None
    assert "zsh" in p.reason


def test_too_long_is_left_alone() -> None:
    assert plan("echo " + "x" * 70_000 + " | wc", EXE).command is None


@pytest.mark.parametrize(
    "command",
    [
        "git commit -m \"$(cat <<'EOF'\nfix\nEOF\n)\"",
        "git log -n `echo 3`",
        "diff <(git log -1) <(git log -2)",
        "git log --format=$(echo %h)",
        # A here-document body is expanded too, unless its delimiter is quoted.
        "python3 - <<EOF\nprint('$(whoami)')\nEOF",
    ],
)
def test_substitutions_left_alone_on_request(command: str) -> None:
    assert plan(command, EXE).command is not None  # equivalent once wrapped
    p = plan(command, EXE, substitutions=False)
    assert p.command is None
    assert "substitution" in p.reason


def test_without_substitutions_the_rest_is_still_rewritten() -> None:
    assert plan("git log -n 3", EXE, substitutions=False).command == "tokenjuice wrap -- git log -n 3"
    # Quoted here-document: its body is data, nothing in it runs.
    quoted = "python3 - <<'EOF'\nprint('$(whoami)')\nEOF"
    assert plan(quoted, EXE, substitutions=False).command == f"tokenjuice wrap -- {B} -c {shlex.quote(quoted)}"


# ----------------------------------------------------------- running it for real


def _exe() -> str:
    return f"{shlex.quote(sys.executable)} -m tokenjuice"


def _bash(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TOKENJUICE_REDACT": "0"}
    return subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, env=env, timeout=120)


def _same_run(command: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    p = plan(command, _exe())
    assert p.command is not None, p.reason
    return _bash(command, cwd), _bash(p.command, cwd)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    (r / "sub").mkdir(parents=True)
    (r / "sub" / "a.txt").write_text("one\n")
    run = lambda *a: subprocess.run(a, cwd=r, check=True, capture_output=True)  # noqa: E731
    run("git", "init", "-q")
    run("git", "config", "user.name", "t")
    run("git", "config", "user.email", "t@t")
    run("git", "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    run("git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    (r / "sub" / "a.txt").write_text("two\n")
    (r / "new.txt").write_text("x\n")
    return r


def test_wrapped_git_status_keeps_every_path(repo: Path) -> None:
    orig, wrapped = _same_run("cd sub && git status", repo)
    assert orig.returncode == wrapped.returncode == 0
    for needle in ("a.txt", "new.txt"):
        assert needle in orig.stdout
        assert needle in wrapped.stdout


def test_wrapped_failure_keeps_exit_code_and_stderr(tmp_path: Path) -> None:
    script = (
        "import sys\nfor i in range(3000): print('step', i, 'ok')\n"
        "print('fatal: disk on fire', file=sys.stderr)\nsys.exit(3)\n"
    )
    (tmp_path / "job.py").write_text(script)
    orig, wrapped = _same_run(f"{shlex.quote(sys.executable)} job.py", tmp_path)
    assert orig.returncode == wrapped.returncode == 3
    assert "fatal: disk on fire" in orig.stderr
    assert "fatal: disk on fire" in wrapped.stdout
    assert wrapped.stdout.startswith("exit 3")
    # It was reduced, and the marker says how to read the rest back.
    assert len(wrapped.stdout) < len(orig.stdout) / 5
    assert "tokenjuice cat " in wrapped.stdout


def test_leading_cd_still_sticks_in_the_agents_shell(repo: Path) -> None:
    p = plan("cd sub && git status --short", _exe())
    assert p.command is not None
    after = _bash(p.command + "\npwd", repo)
    assert after.stdout.rstrip().endswith(os.path.join(str(repo), "sub"))


def test_quotes_and_heredocs_survive_the_rewrite(tmp_path: Path) -> None:
    command = "python3 - <<'EOF'\nprint(\"it's\", 'a \"quoted\" $HOME')\nEOF"
    orig, wrapped = _same_run(command, tmp_path)
    assert orig.stdout == 'it\'s a "quoted" $HOME\n'
    assert orig.stdout.strip() in wrapped.stdout


# ------------------------------------------------------- wrap never fails on a line


COMMIT = "git commit -q --allow-empty -m \"$(cat <<'EOF'\nDon't crash.\n\nIt's the form agents commit with.\nEOF\n)\""


def test_wrap_runs_the_heredoc_commit_once_and_reports_success(repo: Path) -> None:
    p = plan(COMMIT, _exe())
    assert p.command is not None, p.reason
    ran = _bash(p.command, repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "internal error" not in ran.stdout + ran.stderr
    log = subprocess.run(["git", "log", "--format=%B", "-n", "2"], cwd=repo, capture_output=True, text=True)
    assert log.stdout.count("Don't crash.") == 1
    assert "It's the form agents commit with." in log.stdout


@pytest.mark.parametrize(
    "line",
    [
        COMMIT.replace("git commit -q --allow-empty -m", "printf '%s\\n'"),
        "cat <<EOF\n$(echo ')')\nEOF",
        'echo "$(case x in x) echo ok;; esac)"',
        "echo `echo \\`echo nested\\``",
        "x=(a 'b c'); printf '%s\\n' \"${x[@]}\"",
        "echo $'it\\'s'",
        "[[ a =~ ^(a|b)$ ]] && echo yes",
        "echo ${#HOME} ${HOME%/*} ${HOME/#\\//x}",
    ],
)
def test_wrap_runs_any_line_bash_accepts(line: str, tmp_path: Path) -> None:
    """Whatever the analysis makes of the line, wrap runs it and answers like bash."""
    direct = _bash(line, tmp_path)
    assert direct.returncode == 0, direct.stderr
    wrapped = _bash(f"{_exe()} wrap -c {shlex.quote(line)}", tmp_path)
    assert wrapped.returncode == 0, wrapped.stdout + wrapped.stderr
    assert direct.stdout.strip() in wrapped.stdout


def test_wrap_passes_the_output_when_reduction_itself_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tokenjuice.cli import main
    from tokenjuice.reduction.engine import Reducer

    def broken(self: object, *args: object, **kwargs: object) -> object:
        raise RuntimeError("injected")

    monkeypatch.setattr(Reducer, "reduce_run", broken)
    code = main.main(["wrap", "--", sys.executable, "-c", "import sys; print('hello'); sys.exit(5)"])
    out = capsys.readouterr()
    assert code == 5
    assert out.out == "exit 5\nhello\n"


def test_analysis_never_raises() -> None:
    from tokenjuice.command import analyze

    for line in ("echo 'unterminated", "cat <<EOF $(", "((((", "a | | b", "$(" * 500):
        info = analyze(line)
        assert info.compound
        assert analyze(None, ["bash", "-c", line]).compound
