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


@pytest.mark.parametrize(
    ("command", "rewritten"),
    [
        ("git status", "tokenjuice wrap -- git status"),
        ("cd sub && npm test", "cd sub && tokenjuice wrap -- npm test"),
        ("export CI=1; make -j4", "export CI=1; tokenjuice wrap -- make -j4"),
        ("source .venv/bin/activate && pytest -q", "source .venv/bin/activate && tokenjuice wrap -- pytest -q"),
        ("FOO=1 make", "tokenjuice wrap -- bash -c 'FOO=1 make'"),
        ("npm test || true", "tokenjuice wrap -- bash -c 'npm test || true'"),
        ("pytest 2>&1 | tee log.txt", "tokenjuice wrap -- bash -c 'pytest 2>&1 | tee log.txt'"),
        ("for f in a b; do echo $f; ls; done", "tokenjuice wrap -- bash -c 'for f in a b; do echo $f; ls; done'"),
        ("(cd x && make)", "tokenjuice wrap -- bash -c '(cd x && make)'"),
    ],
)
def test_wrapped(command: str, rewritten: str) -> None:
    assert plan(command, EXE).command == rewritten


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("", "empty"),
        ("cd /tmp", "only shell setup"),
        ("cat README.md", "needs no reduction"),
        ("head -50 src/app.py", "needs no reduction"),
        ("mkdir -p a && cp x y", "needs no reduction"),
        ("git log | grep fix", "feeds another program (`grep`)"),
        ("npm test 2>&1 | tail -50", "feeds another program (`tail`)"),
        ("vim notes.txt", "interactive"),
        ("less build.log", "interactive"),
        ("make &", "background"),
        ("pytest -x; cd ..", "would not stick"),
        ("git diff; export A=1", "would not stick"),
        ("f() { ls; }; f", "function"),
        ("A=1", "only shell setup"),
        ("make; B=2", "assigns a shell variable"),
        ("TOKENJUICE_RAW=1 pytest", "raw output requested"),
        ("tokenjuice cat 3f2a9c1b7d4e --tail 20", "already goes through tokenjuice"),
        ("/opt/bin/tokenjuice wrap -- make", "already goes through tokenjuice"),
        ("echo 'unterminated", "cannot parse"),
        ("make > build.log 2>&1", "goes to a file"),
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
    assert p.command == f"tokenjuice wrap -- bash -c {shlex.quote(command)}"


def test_too_long_is_left_alone() -> None:
    assert plan("echo " + "x" * 70_000 + " | wc", EXE).command is None


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
