"""The project the scripted agent works in: a git repository with a history, a test
suite, a noisy failing build, a long text file and an uncommitted file.

Built once per test session with fixed authors and dates, so every copy has the same
commit hashes and `git log` prints the same bytes in every run; each host session gets
its own copy.
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

COMMITS = 24
# Failing commands stay under 10,000 characters of output: Claude Code cuts the middle out
# of a failed command's longer output, and the baseline must be whole to judge against.
PASSING_TESTS = 80
BUILD_LINES = 250


def _git(repo: Path, *args: str, date: str | None = None) -> None:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(repo),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Ada Example",
        "GIT_AUTHOR_EMAIL": "ada@example.invalid",
        "GIT_COMMITTER_NAME": "Ada Example",
        "GIT_COMMITTER_EMAIL": "ada@example.invalid",
    }
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    git = shutil.which("git") or "git"
    subprocess.run([git, *args], cwd=repo, env=env, check=True, capture_output=True, timeout=60)


def subject(i: int) -> str:
    """The subject line of commit `i` (1-based)."""
    return f"Module {i % 7}: handle case {i} in the parser"


def build(root: Path) -> Path:
    repo = root / "project"
    (repo / "src").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "docs").mkdir()
    (repo / "sub").mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.name", "Ada Example")
    _git(repo, "config", "user.email", "ada@example.invalid")
    _git(repo, "config", "commit.gpgsign", "false")
    (repo / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n")
    for i in range(1, COMMITS + 1):
        for k in (i % 7, (i * 3) % 7):
            path = repo / "src" / f"module_{k}.py"
            lines = path.read_text().splitlines() if path.exists() else []
            lines.append(f"CASE_{i} = {i}  # handled by change {i}")
            path.write_text("\n".join(lines) + "\n")
        _git(repo, "add", "-A")
        message = f"{subject(i)}\n\nChange {i} teaches module {i % 7} about case {i}.\n"
        _git(repo, "commit", "-q", "-m", message, date=f"2024-03-{i:02d}T10:00:00+00:00")

    (repo / "tests" / "test_many.py").write_text(
        textwrap.dedent(f"""\
            import pytest


            @pytest.mark.parametrize("n", range({PASSING_TESTS}))
            def test_case_is_handled(n):
                assert n * 2 == n + n


            def test_parser_rejects_empty_input():
                parsed = {{"tokens": [], "error": None}}
                assert parsed["error"] == "empty input", "the parser accepted an empty input"
            """)
    )
    (repo / "build.py").write_text(
        textwrap.dedent(f"""\
            import sys

            for i in range({BUILD_LINES}):
                print(f"compiling src/module_{{i}}.c ... ok")
            print("src/net.c:42:7: error: unknown type name 'sockaddr'", file=sys.stderr)
            print("build failed: 1 error", file=sys.stderr)
            sys.exit(4)
            """)
    )
    (repo / "docs" / "guide.txt").write_text(
        "".join(f"Guide line {i}: the parser reads case {i} as described in section {i % 9}.\n" for i in range(1, 301))
    )
    for name in ("alpha.txt", "beta.txt", "gamma.txt"):
        (repo / "sub" / name).write_text(f"{name}\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Add tests, build script and docs", date="2024-03-30T10:00:00+00:00")
    # Left for the agent to commit.
    (repo / "NOTES.md").write_text("# Notes\n\nThe parser must reject empty input.\n")
    return repo


def copy(template: Path, dest: Path) -> Path:
    shutil.copytree(template, dest, symlinks=True)
    return dest


def commit_count(repo: Path) -> int:
    out = subprocess.run(
        ["git", "rev-list", "--count", "HEAD"], cwd=repo, capture_output=True, text=True, check=True, timeout=60
    )
    return int(out.stdout)


def last_message(repo: Path) -> str:
    out = subprocess.run(
        ["git", "log", "-1", "--format=%B"], cwd=repo, capture_output=True, text=True, check=True, timeout=60
    )
    return out.stdout
