"""Package managers and runners: `pnpm <bin>`, `pnpm -C dir exec X`, `yarn run X`,
`bundle exec X`, `bash -lc 'cd … && X'`, and scripts whose body is unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tokenjuice.command import analyze
from tokenjuice.model import ToolRun
from tokenjuice.reduction.engine import Reducer


def eff(command: str, cwd: str | None = None) -> list[str]:
    return list(analyze(command, cwd=cwd).argv)


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("pnpm tsc --noEmit", ["tsc", "--noEmit"]),
        ("pnpm esbuild src/index.ts", ["esbuild", "src/index.ts"]),
        ("pnpm tsdown", ["tsdown"]),
        ("pnpm vite build", ["vite", "build"]),
        ("pnpm webpack", ["webpack"]),
        ("pnpm biome check src", ["biome", "check", "src"]),
        ("pnpm eslint src", ["eslint", "src"]),
        ("pnpm oxlint src", ["oxlint", "src"]),
        ("pnpm prettier --check .", ["prettier", "--check", "."]),
        ("pnpm jest", ["jest"]),
        ("pnpm mocha", ["mocha"]),
        ("pnpm playwright test", ["playwright", "test"]),
        ("pnpm vitest run", ["vitest", "run"]),
        ("pnpm exec tsc -p .", ["tsc", "-p", "."]),
        ("pnpm -C web exec tsc", ["tsc"]),
        ("pnpm --filter app exec eslint .", ["eslint", "."]),
        ("pnpm --dir=web exec vitest", ["vitest"]),
        ("pnpm dlx tsc", ["tsc"]),
        ("yarn jest --ci", ["jest", "--ci"]),
        ("yarn run jest", ["jest"]),
        ("yarn --cwd web tsc", ["tsc"]),
        ("yarn exec eslint src", ["eslint", "src"]),
        ("bun x tsc", ["tsc"]),
        ("bun run vitest", ["vitest"]),
        ("npx --yes tsc", ["tsc"]),
        ("npx -y -p typescript tsc -p .", ["tsc", "-p", "."]),
        ("npm exec -- tsc", ["tsc"]),
        ("npm --prefix web exec eslint", ["eslint"]),
        ("yarn workspace web jest --ci", ["jest", "--ci"]),
        ("corepack pnpm tsc", ["tsc"]),
        ("bundle exec rspec spec/a_spec.rb", ["rspec", "spec/a_spec.rb"]),
        ("bundle exec rake test", ["rake", "test"]),
        ("bundler exec --keep-file-descriptors rubocop", ["rubocop"]),
        ("bundle exec --gemfile gems.rb rspec", ["rspec"]),
        ("bash -lc 'cd apps/ios && xcodebuild -scheme App build'", ["xcodebuild", "-scheme", "App", "build"]),
        ("sh -c 'cd web && pnpm vitest run'", ["vitest", "run"]),
        ('bash -c "cd /srv/app && bundle exec rspec"', ["rspec"]),
    ],
)
def test_runners_unwrap_to_the_tool(command: str, argv: list[str]) -> None:
    assert eff(command, cwd="/nonexistent") == argv


@pytest.mark.parametrize(
    "command",
    ["pnpm install", "pnpm add -D vitest", "yarn", "yarn add left-pad", "pnpm outdated", "bun build ./a.ts", "npm tsc"],
)
def test_the_managers_own_commands_and_unknown_npm_words_stay(command: str) -> None:
    info = analyze(command, cwd="/nonexistent")
    assert info.argv[0] == command.split(maxsplit=1)[0]
    assert info.script is None


@pytest.mark.parametrize(
    ("command", "script"),
    [
        ("pnpm build", "build"),
        ("pnpm -r build", "build"),
        ("pnpm test", "test"),
        ("yarn test", "test"),
        ("npm t", "test"),
        ("pnpm run lint", "lint"),
        ("pnpm run tsc", "tsc"),
        ("yarn workspace web test", "test"),
    ],
)
def test_script_words_without_a_package_json_stay_scripts(command: str, script: str) -> None:
    # No script body is known and the word names no tool with a rule (or pnpm/npm
    # `run`, which never falls back to a binary): the script's output header decides.
    info = analyze(command, cwd="/nonexistent")
    assert info.program in ("pnpm", "yarn", "npm")
    assert info.script == script


def test_a_script_of_the_same_name_wins_over_the_binary(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "package.json").write_text(json.dumps({"scripts": {"tsc": "vue-tsc --noEmit", "jest": "vitest run"}}))
    assert eff("pnpm tsc", cwd=str(web)) == ["vue-tsc", "--noEmit"]
    assert eff("yarn run jest", cwd=str(web)) == ["vitest", "run"]
    # -C/--dir/--cwd name the directory whose package.json applies.
    assert eff("pnpm -C web tsc", cwd=str(tmp_path)) == ["vue-tsc", "--noEmit"]
    assert eff("yarn --cwd=web jest", cwd=str(tmp_path)) == ["vitest", "run"]
    assert eff("pnpm tsc", cwd=str(tmp_path)) == ["tsc"]


REDUCER = Reducer(user_rules=False, project_rules=False, store=False, record=False)


def rule_for(command: str, output: str = "x\n", exit_code: int = 1) -> str:
    run = ToolRun(tool_name="exec", command=command, combined=output, exit_code=exit_code, cwd="/nonexistent")
    return REDUCER.select(run).rule.id


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("pnpm tsc --noEmit", "build/tsc"),
        ("pnpm vite build", "build/vite"),
        ("pnpm webpack", "build/webpack"),
        ("pnpm esbuild src/index.ts", "build/esbuild"),
        ("pnpm biome check src", "lint/biome"),
        ("pnpm eslint src", "lint/eslint"),
        ("pnpm prettier --check .", "lint/prettier-check"),
        ("pnpm jest", "tests/jest"),
        ("pnpm mocha", "tests/mocha"),
        ("pnpm playwright test", "tests/playwright"),
        ("pnpm vitest", "tests/vitest"),
        ("yarn run jest", "tests/jest"),
        ("pnpm -C dir exec tsc", "build/tsc"),
        ("npx --yes tsc", "build/tsc"),
        ("bundle exec rspec", "tests/rspec"),
        ("bash -lc 'cd web && pnpm vitest run'", "tests/vitest"),
        ("yarn workspace web jest", "tests/jest"),
        ("yarn workspaces foreach run test", "generic/fallback"),
        ("npm test", "tests/npm-test"),
        ("pnpm test", "tests/pnpm-test"),
        ("yarn test", "tests/yarn-test"),
        ("pnpm build", "build/pnpm-build"),
    ],
)
def test_runners_reach_the_tools_rule(command: str, rule: str) -> None:
    assert rule_for(command) == rule


def test_a_script_header_in_the_output_names_the_scripts_rule() -> None:
    header = "> web@1.0.0 test /repo\n> vitest run\n\n FAIL  src/a.test.ts > adds\n"
    assert rule_for("pnpm test", header) == "tests/vitest"
    assert rule_for("npm test", "> web@1.0.0 test\n> jest --ci\n\nFAIL src/a.test.js\n") == "tests/jest"
    # A chain no single rule claims leaves the script's own rule.
    chain = "> api@0.3.0 build /repo\n> rm -rf dist && tsc -p .\n\nsrc/a.ts(2,7): error TS2322: x\n"
    assert rule_for("pnpm build", chain) == "build/pnpm-build"


@pytest.mark.parametrize(
    ("command", "source"),
    [
        ("git status", "original"),
        ("pytest -q tests/a.py", "original"),
        ("cd web && pnpm tsc", "effective"),
        ("FOO=1 pytest", "effective"),
        ("uv run pytest", "effective"),
        ("pnpm exec tsc", "effective"),
        ("bash -lc 'cd apps/ios && xcodebuild build'", "shell-body"),
        ("sh -c 'npm test'", "shell-body"),
    ],
)
def test_the_match_source_names_what_was_unwrapped(command: str, source: str) -> None:
    # The TypeScript tokenjuice's classification.matchedVia.
    assert analyze(command, cwd="/nonexistent").source == source
    run = ToolRun(tool_name="exec", command=command, combined="x\n", exit_code=1, cwd="/nonexistent")
    assert REDUCER.reduce_run(run).to_dict()["classification"]["matchedVia"] == source


def test_a_script_read_from_the_output_header_is_effective() -> None:
    run = ToolRun(tool_name="exec", command="npm test", combined="> w@1 test\n> jest\n\nFAIL a.test.js\n", exit_code=1)
    cls = REDUCER.reduce_run(run).to_dict()["classification"]
    assert (cls["matchedReducer"], cls["matchedVia"], cls["selectedBy"]) == ("tests/jest", "effective", "command")
