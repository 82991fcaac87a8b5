"""The battery: each real host, with tokenjuice's hook installed, runs each command the
scripted model asks for; what the host sends back to the model is judged against the
same host running the same command without the hook (see judge.py).

Adding a command is one line in CASES.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.e2e import workspace
from tests.e2e.conftest import Homes
from tests.e2e.hosts import Host
from tests.e2e.judge import REDUCED, SAME, UNCHANGED, Case, judge, script_steps, wraps
from tests.e2e.scripted_model import Script

pytestmark = pytest.mark.e2e

HEREDOC_COMMIT = """git add -A && git commit -m "$(cat <<'EOF'
Notes: the parser must reject empty input

Written through a heredoc, the way agents write commit messages.
EOF
)\""""
# pytest's durations and a fresh commit's hash differ from run to run.
DURATION = r"\d+\.\d+s"
COMMIT_HASH = r"\[main [0-9a-f]{7,}\]"
PYTEST_SUMMARY = f"1 failed, {workspace.PASSING_TESTS} passed"


def commits_like_baseline(hooked: Path, baseline: Path) -> None:
    """The hooked run made the commits the baseline made (one, unless the host refused)."""
    assert workspace.commit_count(hooked) == workspace.commit_count(baseline)
    assert workspace.last_message(hooked) == workspace.last_message(baseline)


# Gemini CLI lets a lone read-only git command run without asking in its default mode,
# and would ask about its rewrite: the hook leaves it as written there.
LONE_SAFE = (("gemini-cli", UNCHANGED),)
SUBJECTS = (workspace.subject(1), workspace.subject(24))
CASES = [
    Case("pytest-v", "pytest -v", REDUCED, keep=("test_parser_rejects_empty_input", PYTEST_SUMMARY), volatile=DURATION),
    Case("git-log-stat", "git log --stat", REDUCED, keep=SUBJECTS, per_host=LONE_SAFE),
    Case("git-log-stat-in-sub", "cd sub && git log --stat", REDUCED, keep=SUBJECTS),
    Case("failing-build", "python3 build.py", REDUCED, keep=("src/net.c:42:7: error: unknown type name 'sockaddr'",)),
    Case("pipe", "git log --stat | head -60", UNCHANGED),
    Case("exact-read", "cat docs/guide.txt", UNCHANGED),
    Case("raw-opt-out", "TOKENJUICE_RAW=1 git log --stat", UNCHANGED),
    Case("heredoc-commit", HEREDOC_COMMIT, SAME, volatile=COMMIT_HASH, check=commits_like_baseline),
    Case("set-e-chain", "set -e; echo start; false; echo after", SAME),
    Case("set-e-cd-chain", "cd sub && set -e; ls; false; echo after", SAME),
    Case("variable-then-use", "D=sub; ls $D", SAME),
    Case("shopt-then-glob", "shopt -s nullglob; ls *.none", SAME),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_battery(
    host: Host, case: Case, homes: Homes, workspaces: Callable[[], Path], known_gap: Callable[[str, str], None]
) -> None:
    known_gap(host.name, case.id)
    case = case.on(host.name)
    bare, hooked = homes.get(host, "bare"), homes.get(host, "hooked")
    base_ws, hook_ws = workspaces(), workspaces()
    with ThreadPoolExecutor(2) as pool:
        base = pool.submit(host.run, Script([case.command]), home=bare, cwd=base_ws)
        with_hook = pool.submit(host.run, Script(script_steps(case)), home=hooked, cwd=hook_ws)
        base_session, hooked_session = base.result(), with_hook.result()
    judge(host, case, base_session, hooked_session, wraps(), (base_ws, hook_ws))
    if case.check is not None:
        case.check(hook_ws, base_ws)
