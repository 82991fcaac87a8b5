"""Rules added for the tools the TypeScript tokenjuice covers (issue 24, item 4): each is
chosen for its tool's commands, under the TypeScript id and family, and not for the
commands another rule owns."""

from __future__ import annotations

import pytest

from tests.helpers import reducer
from tokenjuice.model import ToolRun

CHOSEN = [
    ("node scripts/check.mjs", "task/node", "runtime-cli"),
    ("node -e 'console.log(1)'", "task/node", "runtime-cli"),
    ("python3 scripts/load.py", "task/python", "runtime-cli"),
    ("python3.12 -c 'import x'", "task/python", "runtime-cli"),
    ("python manage.py migrate", "task/python", "runtime-cli"),
    ("php artisan migrate", "task/php", "runtime-cli"),
    ("ruby script.rb", "task/ruby", "runtime-cli"),
    ("env", "task/env", "shell-runner"),
    ("env -0", "task/env", "shell-runner"),
    ("file output.mp4", "system/file", "file-inspection"),
]
# Commands that look alike but belong to another rule.
NOT_CHOSEN = [
    ("node --test", "task/node"),
    ("python3 -m pytest -q", "task/python"),
    ("python -m unittest discover", "task/python"),
    ("env FOO=1 node build.js", "task/env"),
    ("env -u NODE_OPTIONS python3 x.py", "task/env"),
]


@pytest.mark.parametrize(("command", "rule_id", "family"), CHOSEN)
def test_rule_chosen_with_the_typescript_id_and_family(command: str, rule_id: str, family: str) -> None:
    red = reducer().reduce_run(ToolRun(command=command, combined="ok\n", exit_code=0))
    assert (red.rule_id, red.family) == (rule_id, family)


@pytest.mark.parametrize(("command", "rule_id"), NOT_CHOSEN)
def test_rule_not_chosen_for_another_tools_command(command: str, rule_id: str) -> None:
    red = reducer().reduce_run(ToolRun(command=command, combined="ok\n", exit_code=0))
    assert red.rule_id != rule_id
