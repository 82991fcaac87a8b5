"""The rule pipeline on real captured output: order of steps, failure window, accounting."""

from __future__ import annotations

import re
from typing import Any

from tests.helpers import load, lost, reduce_fixture
from tokenjuice.model import ToolRun
from tokenjuice.reduction.engine import Reducer
from tokenjuice.rules.fixtures import fixture_run
from tokenjuice.rules.loader import RuleSet
from tokenjuice.rules.rule import Rule


def reducer_with(*rules: dict[str, Any], **kw: Any) -> Reducer:
    rs = RuleSet()
    for r in rules:
        rs.add(Rule({"family": "t", **r}, "user", f"{r['id']}.json"))
    kw.setdefault("store", False)
    kw.setdefault("record", False)
    # What the rule makes of these small outputs, not the raw output they would get back.
    kw.setdefault("min_saved_tokens", -1)
    return Reducer(rules=rs, **kw)


def count_omitted(text: str) -> int:
    m = re.search(r"\[… ([\d,]+) (?:of [\d,]+ )?lines? omitted", text)
    return int(m.group(1).replace(",", "")) if m else 0


def test_every_line_is_accounted_for_on_real_outputs() -> None:
    """kept + omitted = total lines (as `tokenjuice cat` numbers them), and the footer
    states the omitted total."""
    for family, fid in [
        ("pytest", "pytest-failures-default"),
        ("cargo-build", "cargo-build-warnings"),
        ("git-log", "git-log-full"),
        ("make", "make-c-errors"),
        ("generic", "failing-run-streams"),
    ]:
        _, red = reduce_fixture(family, fid)
        assert red.lines_kept + red.lines_omitted == red.lines_total, (fid, red)
        assert count_omitted(red.text) == red.lines_omitted, fid
        # Reasons count the non-blank lines that went; the total counts blank ones too.
        assert 0 < sum(red.omitted.values()) <= red.lines_omitted


def test_skip_keep_counters_and_dedupe_order() -> None:
    out = "\n".join(["== build =="] + ["progress 1%"] * 5 + ["warn: a", "warn: a", "error: b", "note: c", "done"])
    rules = {
        "id": "t/x",
        "match": {"argv0": ["x"]},
        "filters": {"skipPatterns": ["^progress"], "keepPatterns": ["^(warn|error):"]},
        "counters": [{"name": "warning", "pattern": "^warn"}, {"name": "note", "pattern": "^note"}],
    }
    post = reducer_with(rules).reduce(out, command="x")
    # Dedupe ran before skip: 5 identical progress lines became one line of weight 5,
    # which the skip pattern then dropped; folded repeats stay visible as (×N).
    assert post.omitted == {"noise": 5, "filtered": 3}
    assert "warn: a (×2)" in post.text
    assert post.lines_kept + post.lines_omitted == post.lines_total == 11
    assert post.facts == {"warning": 2, "note": 0}  # postKeep: the note line was filtered out
    pre = reducer_with({**rules, "counterSource": "preKeep"}).reduce(out, command="x")
    assert pre.facts == {"warning": 2, "note": 1}
    assert post.text.splitlines()[0] == "2 warnings"


def test_match_output_replaces_only_successful_runs() -> None:
    rule = {
        "id": "t/x",
        "match": {"argv0": ["x"]},
        "matchOutput": [{"pattern": "^nothing to do$", "message": "x: clean", "flags": "m"}],
    }
    ok = reducer_with(rule).reduce("checking\nnothing to do\n" * 3, command="x")
    assert ok.text.startswith("x: clean")
    assert ok.mode == "summarized"
    failed = reducer_with(rule).reduce("checking\nnothing to do\nerror: disk full\n", command="x", exit_code=1)
    assert "error: disk full" in failed.text
    assert "x: clean" not in failed.text


def test_on_empty_never_stands_in_for_a_failure() -> None:
    rule = {"id": "t/x", "match": {"argv0": ["x"]}, "filters": {"skipPatterns": ["."]}, "onEmpty": "no problems"}
    assert reducer_with(rule).reduce("a\nb\nc\n" * 20, command="x").text.startswith("no problems")
    failed = reducer_with(rule).reduce("a\nb\nc\n" * 20, command="x", exit_code=3)
    assert failed.text.startswith("exit 3\n")
    assert "no problems" not in failed.text


def test_failure_window_keeps_diagnostics_from_the_middle() -> None:
    lines = [f"step {i}: ok" for i in range(400)]
    lines[200] = "src/app/models.py:41: error: Incompatible return value type"
    lines[250] = "AssertionError: totals differ"
    rule = {
        "id": "t/x",
        "match": {"argv0": ["x"]},
        "summarize": {"head": 5, "tail": 5},
        "failure": {"head": 5, "tail": 5},
    }
    red = reducer_with(rule).reduce("\n".join(lines), command="x", exit_code=1)
    assert "src/app/models.py:41: error" in red.text
    assert "AssertionError: totals differ" in red.text
    assert "step 150: ok" not in red.text
    ok = reducer_with(rule).reduce("\n".join(lines), command="x", exit_code=0)
    assert "AssertionError" not in ok.text  # success: only the rule's own window applies


def test_protect_diagnostics_keeps_them_on_success_too() -> None:
    lines = [f"step {i}: ok" for i in range(400)]
    lines[200] = "src/app/models.py:41: error: Incompatible return value type"
    lines[250] = "ERROR: could not open /etc/app/config.yaml"
    rule = {
        "id": "t/x",
        "match": {"argv0": ["x"]},
        "summarize": {"head": 5, "tail": 5},
        "filters": {"protectDiagnostics": True},
    }
    for exit_code in (0, 1):
        red = reducer_with(rule).reduce("\n".join(lines), command="x", exit_code=exit_code)
        assert "src/app/models.py:41: error" in red.text
        assert "ERROR: could not open /etc/app/config.yaml" in red.text
        assert "step 150: ok" not in red.text


def test_script_runs_keep_error_lines_of_a_successful_run() -> None:
    """A script's own output is open-ended: its rule keeps what the generic path would."""
    lines = [f"processing item {i} of 3000 ok status=done" for i in range(3000)]
    lines[1500] = "ERROR: failed to open config /etc/app/x.yaml: permission denied"
    lines[2000] = "src/app/main.py:42: UserWarning: deprecated call"
    for command in ("python3 build.py", "node build.js", "ruby build.rb", "php build.php"):
        red = Reducer(user_rules=False, project_rules=False, store=False, record=False).reduce(
            "\n".join(lines), command=command, exit_code=0
        )
        assert red.rule_id.startswith("task/"), (command, red.rule_id)
        assert lines[1500] in red.text and lines[2000] in red.text, command


def test_budget_in_characters_and_tokens() -> None:
    fx = load("pytest", "pytest-verbose-ra-failures")
    run = fixture_run(fx)
    small = Reducer(user_rules=False, project_rules=False, max_inline_chars=1500).reduce_run(run)
    big = Reducer(user_rules=False, project_rules=False).reduce_run(run)
    assert len(small.text) < len(big.text)
    by_tokens = Reducer(user_rules=False, project_rules=False, max_inline_tokens=400).reduce_run(run)
    assert len(by_tokens.text) < len(big.text)
    # Signal lines (failing ids, E lines) are kept even over a tiny budget.
    assert not lost(fx, small.text)


def test_protect_patterns_survive_the_window_on_success() -> None:
    fx, red = reduce_fixture("cargo-build", "cargo-build-warnings")
    assert fx["exitCode"] == 0
    assert not lost(fx, red.text)
    assert "Compiling" not in red.text


def test_long_lines_are_shortened_and_said_so() -> None:
    rule = {"id": "t/x", "match": {"argv0": ["x"]}}
    red = reducer_with(rule).reduce("head\n" + "x" * 50_000 + "\ntail\n", command="x")
    assert "chars]…" in red.text
    assert "1 long line shortened" in red.text
    assert len(red.text) < 5_000


def test_channel_from_interleave() -> None:
    run = ToolRun(
        command="x",
        stdout="out1\nout2\n",
        stderr="err1\n",
        combined="out1\nerr1\nout2\n",
        interleave=[(0, 5), (1, 5), (0, 5)],
        exit_code=0,
    )
    from tokenjuice.reduction.channels import line_channels

    assert line_channels(run, 3) == [0, 1, 0]


# ------------------------------------------------ formatters that read in batches


class _FakeReader:
    """A batch-reading formatter scripted per test: accepts after `accept_after` lines,
    fails in `feed` after `fail_after` lines, and `result` says what `finish` gives."""

    accept_after = 10**9
    fail_after = 10**9
    result = "lines"

    def __init__(self, ctx: Any) -> None:
        self.seen: list[str] = []

    @property
    def accepted(self) -> bool:
        return len(self.seen) >= self.accept_after

    def feed(self, lines: list[str], weights: list[int]) -> None:
        self.seen.extend(lines)
        if len(self.seen) >= self.fail_after:
            raise RuntimeError("formatter bug")

    def finish(self) -> Any:
        from tokenjuice.reduction.formatters import FormatOutput

        if self.result == "none":
            return None
        return FormatOutput([f"{len(self.seen)} lines seen"], [len(self.seen)], final=True)


def _batched(monkeypatch: Any, **script: Any) -> tuple[Reducer, Reducer]:
    """A reducer whose rule has the scripted batch reader, and the same rule
    without a formatter (what a declined formatter must come to)."""
    from tokenjuice.reduction import formatters

    cls = type("Scripted", (_FakeReader,), script)
    monkeypatch.setattr(formatters, "get_batch_reader", lambda name: cls if name == "scripted" else None)
    rule = {
        "id": "t/stream",
        "match": {"argv0": ["x"]},
        "filters": {"skipPatterns": ["^noise"]},
        "summarize": {"head": 5, "tail": 5},
    }
    return reducer_with({**rule, "formatter": "scripted"}), reducer_with(rule)


OUT = "\n".join(["noise"] * 50 + [f"line {i}" for i in range(3000)] + ["error: the end"]) + "\n"


def test_batch_reader_result(monkeypatch: Any) -> None:
    with_fmt, _ = _batched(monkeypatch, accept_after=100)
    red = with_fmt.reduce(OUT, command="x", exit_code=0)
    assert "3,001 lines seen" in red.text or "3001 lines seen" in red.text
    assert red.omitted.get("noise") == 50


def test_batch_reader_that_declines_gives_the_plain_result(monkeypatch: Any) -> None:
    with_fmt, plain = _batched(monkeypatch, result="none")
    for code in (0, 1):
        assert (
            with_fmt.reduce(OUT, command="x", exit_code=code).text
            == plain.reduce(OUT, command="x", exit_code=code).text
        )


def test_batch_reader_failing_before_it_accepts_gives_the_plain_result(monkeypatch: Any) -> None:
    with_fmt, plain = _batched(monkeypatch, fail_after=200)
    red = with_fmt.reduce(OUT, command="x", exit_code=1)
    assert red.text == plain.reduce(OUT, command="x", exit_code=1).text
    assert any("formatter bug" in w for w in red.warnings)


def test_batch_reader_failing_after_it_accepts_fails_open(monkeypatch: Any) -> None:
    """No plain result was gathered once it accepted: the agent gets the original."""
    with_fmt, _ = _batched(monkeypatch, accept_after=1, fail_after=2000)
    red = with_fmt.reduce(OUT, command="x", exit_code=1)
    assert red.mode == "fail-open"
    assert red.text.startswith("exit 1")
    assert "error: the end" in red.text
    assert any("formatter bug" in w for w in red.warnings)


def test_batch_reader_accepting_then_giving_nothing_fails_open(monkeypatch: Any) -> None:
    with_fmt, _ = _batched(monkeypatch, accept_after=1, result="none")
    red = with_fmt.reduce(OUT, command="x", exit_code=0)
    assert red.mode == "fail-open"
    assert any("gave no result" in w for w in red.warnings)
