"""The frameworks stay optional: imported only by their adapter, with a clear error when missing."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_core_imports_no_framework() -> None:
    proc = _python(
        "import sys, tokenjuice, tokenjuice.runtime, tokenjuice.adapters\n"
        "tokenjuice.Reducer\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('langchain_core', 'agents', 'openai', 'pydantic')]\n"
        "print(loaded)\n"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("module", "hidden", "extra"),
    [
        ("tokenjuice.adapters.langchain", "langchain_core", "tokenjuice[langchain]"),
        ("tokenjuice.adapters.openai_agents", "agents", "tokenjuice[openai-agents]"),
    ],
)
def test_missing_framework_names_the_extra(module: str, hidden: str, extra: str) -> None:
    # A None entry in sys.modules makes the import fail as if the package were absent.
    proc = _python(f"import sys\nsys.modules[{hidden!r}] = None\nimport {module}\n")
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ImportError: {module} needs "), last
    assert f"pip install '{extra}'" in last
