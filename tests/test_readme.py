"""The README's shell commands work as written, and every read-back hint they print works.

Each line of each ```sh block is either run (in a throwaway project with its own home,
state and agent settings) or listed below with the reason it is not. A line added to
the README is run by default, so it cannot go stale unnoticed. The quick start runs
from a fresh clone (slow).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
HANDLE = re.compile(r"tokenjuice cat ([0-9a-f]{12})")
PLACEHOLDER = "3f2a9c1b7d4e"  # the README's example handle: replaced by one this run stored

# Lines not run here, and why. Keyed by the line's start.
NOT_RUN = {
    "./dev test": "what CI runs: this test is part of it",
    "./dev demo": "run from a fresh clone by test_quick_start_from_a_fresh_clone",
    "./dev lint": "part of ./dev test",
    "./dev bench": "a benchmark of several minutes",
    "./dev quality": "the fixture quality table; tests/test_fixtures.py checks the same",
    "pipx install": "installs for the user, outside this checkout",
    "pip install": "installs into the running environment",
    "claude mcp add": "needs Claude Code (tests/e2e drive it)",
    "$EDITOR": "opens an editor",
    ".venv/bin/python scripts/capture_fixtures.py": "captures fixtures with real tools (minutes)",
    ".venv/bin/python scripts/update_goldens.py": "rewrites the goldens",
    ".venv/bin/python bench/": "a benchmark against another revision",
    ".venv/bin/pytest": "the test suite itself",
    "tokenjuice verify --fixtures && .venv/bin/python scripts/quality.py": "the quality table (minutes)",
}


def shell_lines() -> list[str]:
    lines: list[str] = []
    inside = False
    for raw in README.read_text(encoding="utf-8").splitlines():
        if raw.startswith("```"):
            inside = raw.strip() == "```sh"
            continue
        if inside:
            line = re.sub(r"\s+#\s.*$", "", raw).strip()
            if line:
                lines.append(line)
    return lines


LINES = shell_lines()
RUN = [ln for ln in LINES if not any(ln.startswith(k) for k in NOT_RUN)]


def test_every_readme_line_is_run_or_has_a_reason() -> None:
    assert len(RUN) >= 15
    for key in NOT_RUN:
        assert any(ln.startswith(key) for ln in LINES), f"NOT_RUN lists {key!r}, which the README no longer has"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("readme")
    proj = root / "project"
    (proj / "web").mkdir(parents=True)
    (proj / "tests").mkdir()
    (proj / "tests" / "test_many.py").write_text(
        "import pytest\n\n\n@pytest.mark.parametrize('i', range(300))\ndef test_ok(i):\n    assert i >= 0\n\n\n"
        "def test_broken():\n    assert 1 + 1 == 3, 'arithmetic error'\n"
    )
    (proj / "web" / "package.json").write_text('{"name": "web", "version": "1.0.0", "scripts": {"test": "echo ok"}}')
    (proj / "Makefile").write_text("all:\n\t@for i in $$(seq 1 50); do echo building $$i; done\n")
    (proj / "payload.json").write_text(
        '{"toolName": "exec", "command": "pytest -q", "exitCode": 1, '
        '"combinedText": "'
        + "".join(f"tests/test_x.py::test_{i} PASSED\\n" for i in range(400))
        # A failing run with its failure: reduced, and stored for the read-back lines after it.
        + "tests/test_x.py::test_broken FAILED\\nE   AssertionError: arithmetic error\\n"
        + "=== 1 failed, 400 passed in 0.52s ===\\n"
        + '"}'
    )
    env = {
        **os.environ,
        "HOME": str(root / "home"),
        "TOKENJUICE_HOME": str(root / "tj"),
        "CLAUDE_CONFIG_DIR": str(root / "home" / ".claude"),
        "CODEX_HOME": str(root / "home" / ".codex"),
        "GEMINI_CLI_HOME": str(root / "home"),
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    (root / "home").mkdir()
    for n in range(5):
        (proj / f"f{n}.txt").write_text(f"{n}\n")
        subprocess.run(["git", "init", "-q"], cwd=proj, check=True, env=env)
        subprocess.run(["git", "add", "-A"], cwd=proj, check=True, env=env)
        subprocess.run(["git", "commit", "-qm", f"change {n}"], cwd=proj, check=True, env=env)
    return proj, env


def _run(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _hints_work(text: str, cwd: Path, env: dict[str, str]) -> list[str]:
    handles = HANDLE.findall(text)
    for handle in handles:
        back = _run(f"tokenjuice cat {handle}", cwd, env)
        assert back.returncode == 0, f"the printed hint `tokenjuice cat {handle}` fails: {back.stderr}"
        assert back.stdout
    return handles


def test_usage_lines_run_as_written(project: tuple[Path, dict[str, str]]) -> None:
    proj, env = project
    if shutil.which("tokenjuice", path=env["PATH"]) is None:
        pytest.fail("tokenjuice is not on the PATH the README assumes")
    last_handle: str | None = None
    for line in RUN:
        if PLACEHOLDER in line:
            assert last_handle is not None, "no output was stored before the README reads one back"
            line = line.replace(PLACEHOLDER, last_handle)
        done = _run(line, proj, env)
        output = done.stdout + done.stderr
        # The project has one failing test, as a real one might: wrap exits like pytest.
        expected = 1 if line.startswith("tokenjuice wrap -- pytest") else 0
        assert done.returncode == expected, f"`{line}` exited {done.returncode}:\n{output[-3000:]}"
        assert "Traceback" not in output and "internal error" not in output, f"`{line}`:\n{output[-3000:]}"
        handles = _hints_work(output, proj, env)
        if handles:
            last_handle = handles[-1]


@pytest.mark.slow
def test_quick_start_from_a_fresh_clone(tmp_path: Path) -> None:
    """`./dev demo` in a clone of this checkout: it installs, runs, and its hints work."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    # The checkout's uncommitted work too, so the test checks what is here.
    diff = subprocess.run(["git", "diff", "HEAD", "--binary"], cwd=REPO, capture_output=True, check=True).stdout
    if diff:
        subprocess.run(["git", "apply", "--allow-empty", "-"], cwd=clone, input=diff, check=True)
    env = {**os.environ, "TOKENJUICE_HOME": str(tmp_path / "tj")}
    env.pop("VIRTUAL_ENV", None)
    demo = subprocess.run(["./dev", "demo"], cwd=clone, env=env, capture_output=True, text=True, timeout=1200)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert "==> " in demo.stderr  # every step says what it does
    hints = re.findall(r"read the dropped lines back: (\S+) cat ([0-9a-f]{12})", demo.stdout)
    assert hints, demo.stdout[-3000:]
    for exe, handle in hints:
        back = subprocess.run(["bash", "-c", f"{exe} cat {handle}"], cwd=clone, env=env, capture_output=True)
        assert back.returncode == 0, back.stderr
        assert back.stdout
