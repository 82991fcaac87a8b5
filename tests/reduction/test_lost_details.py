"""Details the TypeScript tokenjuice's fixtures showed us losing (issue 24, item 5).

Each case is written here in the shape of the tool's real output; every one keeps the
line or count a reader needs whatever wraps or surrounds it.
"""

from __future__ import annotations

import re

import pytest

from tests.helpers import formatting_reducer, reduce_fixture
from tokenjuice.model import Reduction, ToolRun


def _reduce(command: str, text: str, exit_code: int = 0) -> Reduction:
    return formatting_reducer().reduce_run(ToolRun(command=command, combined=text, exit_code=exit_code))


UV_PREAMBLE = (
    "Using CPython 3.12.4 interpreter at: /usr/bin/python3.12\n"
    "Creating virtual environment at: .venv\n"
    "Resolved 17 packages in 9ms\n"
    "Installed 17 packages in 61ms\n"
)
SESSION = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.12.4, pytest-8.2.0, pluggy-1.5.0\n"
    "rootdir: /srv/app\n"
    "collected 4 items\n"
    "\n"
    "tests/test_orders.py .F.E                                                 [100%]\n"
    "\n"
    "=================================== FAILURES ===================================\n"
    "______________________________ test_order_total _______________________________\n"
    "\n"
    "    def test_order_total():\n"
    ">       assert total([2, 3]) == 6\n"
    "E       assert 5 == 6\n"
    "\n"
    "tests/test_orders.py:12: AssertionError\n"
)
# No `short test summary info` header: the id lines follow the tracebacks directly.
IDS = (
    "FAILED tests/test_orders.py::test_order_total - assert 5 == 6\n"
    "ERROR tests/test_orders.py::test_refund - fixture 'ledger' not found\n"
)
FINAL = "=================== 1 failed, 2 passed, 1 error in 0.21s ===================\n"


@pytest.mark.parametrize(
    "command",
    ["uv run pytest tests/test_orders.py", "python3 -m pytest -p no:randomly", "pytest -q", "poetry run pytest"],
)
def test_pytest_ids_kept_without_a_summary_header(command: str) -> None:
    red = _reduce(command, UV_PREAMBLE + SESSION + "\n" + IDS + FINAL, 1)
    assert red.rule_id == "tests/pytest"
    for line in IDS.splitlines():
        assert line in red.text.splitlines()
    assert "Resolved 17 packages in 9ms" in red.text


def test_pytest_ids_kept_inside_captured_output() -> None:
    # A plugin that prints the ids after a captured-output block, still without a header.
    captured = "----------------------------- Captured stdout call -----------------------------\n" + "".join(
        f"debug line {k}\n" for k in range(40)
    )
    red = _reduce("uv run pytest", SESSION + captured + IDS + FINAL, 1)
    for line in IDS.splitlines():
        assert line in red.text.splitlines()


YUM = (
    "Loaded plugins: fastestmirror\n"
    "Loading mirror speeds from cached hostfile\n"
    "Resolving Dependencies\n"
    "--> Running transaction check\n"
    "---> Package git.x86_64 0:2.43.5-1.el9 will be installed\n"
    "--> Processing Dependency: perl-Git = 2.43.5-1.el9 for package: git-2.43.5-1.el9.x86_64\n"
    "---> Package openssl-libs.x86_64 1:1.0.2k-19.el7 will be updated\n"
    "---> Package openssl-libs.x86_64 1:1.0.2k-26.el7_9 will be an update\n"
    "---> Package vim-minimal.x86_64 2:7.4.629-8.el7_9 will be erased\n"
    "--> Running transaction check\n"
    "---> Package perl-Git.noarch 0:2.43.5-1.el9 will be installed\n"
    "--> Finished Dependency Resolution\n"
    "\n"
    "Dependencies Resolved\n"
    "\n"
    + "=" * 80
    + "\n Package        Arch       Version                 Repository      Size\n"
    + "=" * 80
    + "\nInstalling:\n"
    " git            x86_64     2.43.5-1.el9            updates        4.5 M\n"
    "\nTransaction Summary\n"
    + "="
    * 80
    + "\nInstall  1 Package (+1 Dependent package)\nUpgrade  1 Package\nRemove   1 Package\n\n"
    "Downloading packages:\n"
    + "".join(f"({k}/3): pkg{k}-1.0-1.el9.x86_64.rpm                    | 1.{k} MB  00:00:01\n" for k in range(1, 4))
    + "Running transaction\n"
    + "".join(f"  Installing : pkg{k}-1.0-1.el9.x86_64                            {k}/3\n" for k in range(1, 4))
    + "".join(f"  Verifying  : pkg{k}-1.0-1.el9.x86_64                            {k}/3\n" for k in range(1, 4))
    + "\nComplete!\n"
)


@pytest.mark.parametrize("command", ["yum install -y git", "yum update openssl-libs", "dnf install git"])
def test_yum_keeps_every_package_action(command: str) -> None:
    red = _reduce(command, YUM)
    actions = [ln for ln in YUM.splitlines() if ln.startswith("---> Package ")]
    assert len(actions) == 5
    for line in actions:
        assert line in red.text.splitlines()
    assert "--> Processing Dependency" not in red.text


def test_yum_fixture_keeps_package_actions() -> None:
    fx, red = reduce_fixture("dnf", "yum-install-el7")
    actions = [ln for ln in fx["combined"].splitlines() if ln.startswith("---> Package ")]
    assert actions
    assert all(a in red.text.splitlines() for a in actions)


DOTNET = (
    "  Determining projects to restore...\n"
    "  All projects are up-to-date for restore.\n"
    "/repo/src/Web/Controllers/HomeController.cs(12,18): error CS0103: The name 'missing' does not exist"
    " in the current context [/repo/src/Web/App.csproj]\n"
    "/repo/tests/Web/HomeTests.cs(8,5): error CS0246: The type or namespace name 'Xunit' could not be found"
    " [/repo/tests/Web/App.csproj]\n"
    "C:\\work\\svc\\Program.cs(3,1): warning CS8019: Unnecessary using directive. [C:\\work\\svc\\App.csproj]\n"
    "\nBuild FAILED.\n\n"
    "/repo/src/Web/Controllers/HomeController.cs(12,18): error CS0103: The name 'missing' does not exist"
    " in the current context [/repo/src/Web/App.csproj]\n"
    "/repo/tests/Web/HomeTests.cs(8,5): error CS0246: The type or namespace name 'Xunit' could not be found"
    " [/repo/tests/Web/App.csproj]\n"
    "C:\\work\\svc\\Program.cs(3,1): warning CS8019: Unnecessary using directive. [C:\\work\\svc\\App.csproj]\n"
    "    1 Warning(s)\n    2 Error(s)\n\nTime Elapsed 00:00:02.41\n"
)


@pytest.mark.parametrize(
    "command",
    ["dotnet build", "dotnet publish -c Release", "msbuild App.sln", "dotnet test", "dotnet msbuild", "make build"],
)
def test_msbuild_diagnostics_keep_the_full_project_path(command: str) -> None:
    red = _reduce(command, DOTNET, 1)
    # Two projects named App.csproj: only the full path tells which one failed.
    assert "[/repo/src/Web/App.csproj]" in red.text
    assert "[/repo/tests/Web/App.csproj]" in red.text
    assert "[C:\\work\\svc\\App.csproj]" in red.text
    assert not re.search(r" \[App\.csproj\]", red.text)


def _log(first: str) -> str:
    """A service log long enough for the log formatter, one lower-case error and warning."""
    body = [f'10.0.0.{k % 9} - - "GET /health HTTP/1.1" 200 2 {k}ms' for k in range(60)]
    body[20] = first
    body[40] = "warn: slow query (812ms) on orders"
    body[50] = "error: timeout talking to redis at 10.0.0.7:6379"
    body[55] = "[error] worker 3 exited unexpectedly"
    return "\n".join(body) + "\n"


@pytest.mark.parametrize("command", ["docker logs api", "podman logs api", "kubectl logs api-7f9c", "oc logs api"])
def test_log_counters_count_lower_case_levels(command: str) -> None:
    red = _reduce(command, _log("ERROR upstream refused connection"))
    assert red.facts.get("error line") == 3
    assert red.facts.get("warning line") == 1
    assert "error: timeout talking to redis at 10.0.0.7:6379" in red.text


def test_log_counters_do_not_count_exception_names_or_words() -> None:
    text = _log("TypeError: x is undefined (reported, not an error level)")
    red = _reduce("docker logs api", text.replace("[error] worker 3", "worker 3"))
    assert red.facts.get("error line") == 1


def test_dnf_upgrade_keeps_every_table_row_with_its_section() -> None:
    fx, red = reduce_fixture("dnf", "dnf-upgrade-large")
    rows = [ln for ln in fx["combined"].splitlines() if re.match(r"^ \S+ +(?:x86_64|noarch) +\S+ +\S+", ln)]
    assert len(rows) == 161
    kept = red.text.splitlines()
    assert all(r in kept for r in rows)
    assert "Upgrading:" in kept
    assert "Installing:" in kept
