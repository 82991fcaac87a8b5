"""Rules added for the tools the TypeScript tokenjuice covers (issue 24, item 4): each is
chosen for its tool's commands, under the TypeScript id and family, and not for the
commands another rule owns."""

from __future__ import annotations

import json
from pathlib import Path

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
    ("git grep -n TODO", "search/git-grep", "search"),
    ("git -C repo grep -c foo", "search/git-grep", "search"),
    ("npm ls", "package/npm-ls", "package-manager"),
    ("npm list --all --depth=2", "package/npm-ls", "package-manager"),
    ("iostat -xz 1 1", "observability/iostat", "resource-io"),
    ("vmstat 1 2", "observability/vmstat", "resource-vm"),
    ("nslookup example.com", "network/nslookup", "network-dns"),
    ("traceroute example.com", "network/traceroute", "network-route"),
    ("ffmpeg -i input.mov -vf scale=1280:-1 output.mp4", "media/ffmpeg", "media-cli"),
    ("mediainfo output.mp4", "media/mediainfo", "media-cli"),
    ("swift test", "tests/swift-test", "test-results"),
    ("swift test --filter ParserTests", "tests/swift-test", "test-results"),
    ("xcodebuild test -scheme App", "build/xcodebuild", "build-xcode"),
    ("msbuild App.sln", "build/msbuild", "build-dotnet"),
    ("flyctl status", "cloud/flyctl", "deploy-cli"),
    ("fly deploy", "cloud/flyctl", "deploy-cli"),
    ("gh issue list --json number,title", "cloud/gh", "developer-cli"),
    ("gh pr view 12 --json title --jq .title", "cloud/gh", "developer-cli"),
    ("vercel deploy --prod", "cloud/vercel", "deploy-cli"),
    ("mongosh --quiet", "database/mongosh", "database-cli"),
    ("pulumi up", "devops/pulumi", "iac-cli"),
    ("fnm install 22.14.0", "package/fnm", "runtime-manager"),
    ("launchctl list", "service/launchctl", "service-state"),
    ("pm2 list", "service/pm2", "service-process-manager"),
    ("service nginx status", "service/service", "service-state"),
    ("mise run check", "task/mise", "task-runner"),
]
# Commands that look alike but belong to another rule.
NOT_CHOSEN = [
    ("node --test", "task/node"),
    ("python3 -m pytest -q", "task/python"),
    ("python -m unittest discover", "task/python"),
    ("env FOO=1 node build.js", "task/env"),
    ("env -u NODE_OPTIONS python3 x.py", "task/env"),
    ("npm install", "package/npm-ls"),
    ("git log --oneline", "search/git-grep"),
    ("swift build", "tests/swift-test"),
    ("xcodebuild -version", "build/xcodebuild"),
    ("gh api repos/acme/shop --jq .name", "cloud/gh"),
    ("gh pr list", "cloud/gh"),
]


@pytest.mark.parametrize(("command", "rule_id", "family"), CHOSEN)
def test_rule_chosen_with_the_typescript_id_and_family(command: str, rule_id: str, family: str) -> None:
    red = reducer().reduce_run(ToolRun(command=command, combined="ok\n", exit_code=0))
    assert (red.rule_id, red.family) == (rule_id, family)


@pytest.mark.parametrize(("command", "rule_id"), NOT_CHOSEN)
def test_rule_not_chosen_for_another_tools_command(command: str, rule_id: str) -> None:
    red = reducer().reduce_run(ToolRun(command=command, combined="ok\n", exit_code=0))
    assert red.rule_id != rule_id


SERVICE_LOG = "".join(
    f"2026-03-0{1 + k % 9} 10:0{k % 10}:00,{k:03d} {'ERROR' if k == 50 else 'INFO'} worker: processed batch {k}\n"
    for k in range(120)
)
CRASH = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/load.py", line 9, in <module>\n'
    "    main()\n"
    '  File "/srv/app/load.py", line 6, in main\n'
    "    raise RuntimeError('settings.json is not valid JSON')\n"
    "RuntimeError: settings.json is not valid JSON\n"
)


def test_a_crash_at_the_end_is_the_scripts_rule_path() -> None:
    out = "".join(f"row {k}: imported {k * 3 % 17} fields\n" for k in range(200)) + CRASH
    red = reducer().reduce_run(ToolRun(command="python3 load.py", combined=out, exit_code=1))
    assert (red.rule_id, red.mode) == ("task/python", "rule")
    assert "RuntimeError: settings.json is not valid JSON" in red.text
    assert 'File "/srv/app/load.py", line 6, in main' in red.text


def test_output_without_a_crash_takes_the_generic_path_under_the_scripts_id() -> None:
    out = "asset pipeline\n" + "waiting for build lock ...\n" * 300 + "done: 212 assets\n"
    red = reducer().reduce_run(ToolRun(command="python3 build.py", combined=out, exit_code=0))
    assert red.rule_id == "task/python"
    assert red.mode == "generic"
    assert "done: 212 assets" in red.text


def test_a_script_yields_to_a_rule_that_claims_its_output() -> None:
    # A service log with a traceback in the middle: the log rule, not the script's.
    out = SERVICE_LOG[: len(SERVICE_LOG) // 2] + CRASH + SERVICE_LOG[len(SERVICE_LOG) // 2 :]
    red = reducer().reduce_run(ToolRun(command="python3 service.py", combined=out, exit_code=0))
    assert red.rule_id == "generic/service-log"
    red = reducer().reduce_run(ToolRun(command="node server.js", combined=SERVICE_LOG, exit_code=0))
    assert red.rule_id == "generic/service-log"


def test_a_broken_generic_unless_pattern_is_reported(tmp_path: Path) -> None:
    from tokenjuice.paths import config_dir
    from tokenjuice.rules.verify import verify_rules

    rules = Path(config_dir()) / "rules"
    rules.mkdir(parents=True)
    rule = {"id": "x/y", "family": "x", "match": {"argv0": ["y"]}, "genericUnless": {"pattern": "(unclosed"}}
    (rules / "y.json").write_text(json.dumps(rule))
    report = verify_rules(str(tmp_path))
    assert any("x/y" in str(p) and "genericUnless" in str(p) for p in report.problems)
