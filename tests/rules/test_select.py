"""Rule selection: every criterion must hold, the most specific match wins, ties are deterministic."""

from __future__ import annotations

from typing import Any

from tokenjuice.command import analyze
from tokenjuice.rules.loader import RuleSet, load_rules
from tokenjuice.rules.rule import Rule
from tokenjuice.rules.select import MatchInput, match, rank


def mk(rule_id: str, layer: str = "user", **m: Any) -> Rule:
    priority = m.pop("priority", 0)
    return Rule({"id": rule_id, "family": "t", "priority": priority, "match": m}, layer, f"{rule_id}.json")


def mi(command: str, exit_code: int = 0, output: str = "", tool: str = "exec") -> MatchInput:
    return MatchInput(tool, analyze(command), exit_code, output)


def chosen(rules: list[Rule], command: str, **kw: Any) -> str | None:
    rs = RuleSet()
    for r in rules:
        rs.add(r)
    ranked = rank(rs, mi(command, **kw))
    return ranked[0].rule.id if ranked else None


def test_every_criterion_must_hold() -> None:
    r = mk("x", argv0=["git"], gitSubcommands=["diff"], argvIncludes=[["--stat"]], exitCodes=[0])
    assert match(r, mi("git diff --stat")) is not None
    assert match(r, mi("git diff")) is None
    assert match(r, mi("git log --stat")) is None
    assert match(r, mi("git diff --stat", exit_code=1)) is None


def test_argv_matching() -> None:
    r = mk("x", argv0=["pytest"], argvIncludesAny=[["-k", "--lf"], ["-x"]], argvExcludes=["--co"])
    assert match(r, mi("pytest -x")) is not None
    assert match(r, mi("pytest -k slow --lf")) is not None
    assert match(r, mi("pytest -k slow")) is None
    assert match(r, mi("pytest -x --co")) is None
    opt = mk("y", argv0=["git"], argvIncludes=[["--format"]])
    assert match(opt, mi("git log --format=%h")) is not None


def test_command_includes_is_case_insensitive_and_word_bounded() -> None:
    r = mk("x", commandIncludes=["pytest"])
    assert match(r, mi("python -m PyTest -q")) is not None
    assert match(r, mi("pytest-watch")) is not None  # a hyphen is a word boundary
    assert match(r, mi("mypytest")) is None
    any_ = mk("y", commandIncludesAny=["lint", "check"])
    assert match(any_, mi("ruff check .")) is not None
    assert match(any_, mi("ruff format .")) is None


def test_regex_and_output_criteria() -> None:
    r = mk("x", commandRegex=r"\bnpm (?:i|install|ci)\b")
    assert match(r, mi("npm ci")) is not None
    assert match(r, mi("npm run ci-check")) is None
    o = mk("y", outputRegex={"pattern": "^Traceback", "flags": "m"})
    assert match(o, mi("python x.py", output="boom\nTraceback (most recent call last):\n")) is not None
    assert match(o, mi("python x.py", output="fine")) is None


def test_most_specific_rule_wins() -> None:
    plain = mk("git-diff", gitSubcommands=["diff"])
    stat = mk("git-diff-stat", gitSubcommands=["diff"], argvIncludes=[["--stat"]])
    assert chosen([plain, stat], "git diff --stat") == "git-diff-stat"
    assert chosen([plain, stat], "git diff") == "git-diff"


def test_priority_beats_specificity_and_ties_are_deterministic() -> None:
    vague = mk("vague", argv0=["git"], priority=10)
    exact = mk("exact", gitSubcommands=["diff"], argvIncludes=[["--stat"]])
    assert chosen([exact, vague], "git diff --stat") == "vague"
    a = mk("b-rule", argv0=["tool"], layer="builtin")
    b = mk("a-rule", argv0=["tool"], layer="builtin")
    assert chosen([a, b], "tool") == "a-rule"  # same score and layer: by id
    c = mk("z-rule", argv0=["tool"], layer="project")
    assert chosen([a, b, c], "tool") == "z-rule"  # higher layer before id


def test_compound_commands_only_get_output_rules() -> None:
    by_cmd = mk("by-cmd", argv0=["git"])
    by_output = mk("by-output", outputRegex="^fatal: ")
    assert chosen([by_cmd, by_output], "git diff | grep x", output="fatal: bad") == "by-output"
    assert chosen([by_cmd], "cd a && git diff && git status") is None


def test_builtin_selection_sees_through_runners() -> None:
    rs = load_rules(None, user=False, project=False)
    for command, rule_id in [
        ("python -m pytest -q", "tests/pytest"),
        ("uv run pytest", "tests/pytest"),
        ("git -C repo --no-pager log --oneline", "git/log-oneline"),
        ("/usr/bin/git status", "git/status"),
        ("cd proj && git diff --cached", "git/diff"),
        ("cargo +nightly build --release", "build/cargo-build"),
    ]:
        ranked = rank(rs, mi(command))
        assert ranked, command
        assert ranked[0].rule.id == rule_id, (command, ranked)
