"""Property tests (Hypothesis) over random outputs, commands, exit codes and rules.

For every input: the reducer never raises; never returns more than the input plus a
bounded header; states a non-zero exit code first; gives the same bytes twice; and
accounts for every line (kept + omitted = total). With the built-in rules, every promise
of `tests/promises.py` holds (no silent drop, exact ranges, never worse, the budget).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import promises
from tokenjuice.reduction.engine import Reducer
from tokenjuice.rules.loader import RuleSet
from tokenjuice.rules.rule import Rule

# A header (`exit N (note)`, a facts line) and a footer may be added to tiny outputs,
# but never more than this.
HEADER_BOUND = 200

COMMANDS = [
    "pytest -q",
    "git status",
    "git diff",
    "cargo build",
    "npm install",
    "make -j4",
    "tsc --noEmit",
    "docker ps -a",
    "kubectl get pods",
    "cat notes.txt",
    "grep -rn TODO src",
    "some-unknown-tool --flag",
    "cd sub && npm test",
    "python3 build.py | tee log",
]

LINE = st.one_of(
    st.text(min_size=0, max_size=60),
    st.sampled_from(
        [
            "",
            "ok",
            "error: something broke",
            "src/app.py:12:3: error: bad type",
            "FAILED tests/test_x.py::test_y - AssertionError",
            "warning: unused variable `x`",
            "Traceback (most recent call last):",
            "   Compiling foo v0.1.0",
            "\x1b[32mPASS\x1b[0m test ok",
            "downloading 10%\rdownloading 50%\rdownloading 100%",
            "\x00binary\x00",
            "🎉 done in 3s",
            "a" * 300,
        ]
    ),
)
OUTPUT = st.lists(st.one_of(LINE, LINE.map(lambda s: s + "\n" + s)), max_size=120).map("\n".join)
EXIT = st.sampled_from([0, 0, 1, 2, 127, 130])

_REDUCER = Reducer(user_rules=False, project_rules=False, store=False, record=False, redactor=False)


def check(red: Any, output: str, exit_code: int) -> None:
    assert len(red.text) <= len(output) + HEADER_BOUND
    if exit_code:
        assert red.text.startswith(f"exit {exit_code}")
    else:
        assert not red.text.startswith("exit ")
    assert red.lines_kept + red.lines_omitted == red.lines_total
    assert all(n > 0 for n in red.omitted.values())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(output=OUTPUT, command=st.sampled_from(COMMANDS), exit_code=EXIT)
def test_builtin_rules(output: str, command: str, exit_code: int) -> None:
    red = _REDUCER.reduce(output, command=command, exit_code=exit_code)
    check(red, output, exit_code)
    factor = promises.FILE_READ_FACTOR if red.family == "file-read" else promises.FACTOR
    promises.check(output, red, exit_code=exit_code, factor=factor)


# Long outputs: the ones a rule really reduces (windows, markers, folded templates).
LONG = st.lists(LINE, min_size=200, max_size=1500).map("\n".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(output=LONG, command=st.sampled_from(COMMANDS), exit_code=EXIT)
def test_builtin_rules_keep_their_promises_on_long_outputs(output: str, command: str, exit_code: int) -> None:
    red = _REDUCER.reduce(output, command=command, exit_code=exit_code)
    check(red, output, exit_code)
    factor = promises.FILE_READ_FACTOR if red.family == "file-read" else promises.FACTOR
    promises.check(output, red, exit_code=exit_code, factor=factor)
    again = Reducer(user_rules=False, project_rules=False, store=False, record=False, redactor=False)
    assert again.reduce(output, command=command, exit_code=exit_code).text == red.text


PATTERNS = st.sampled_from(["^ok$", "error", "^\\s*$", "(?i)warn", "^[a-z]+$", "\\d+", "FAILED", "^\\x1b"])

RULE = st.fixed_dictionaries(
    {"id": st.just("prop/rule"), "match": st.just({"argv0": ["prop"]})},
    optional={
        "filters": st.fixed_dictionaries(
            {},
            optional={"skipPatterns": st.lists(PATTERNS, max_size=3), "keepPatterns": st.lists(PATTERNS, max_size=2)},
        ),
        "counters": st.lists(
            st.fixed_dictionaries({"name": st.sampled_from(["error", "hit"]), "pattern": PATTERNS}), max_size=2
        ),
        "summarize": st.fixed_dictionaries({}, optional={"head": st.integers(0, 20), "tail": st.integers(0, 20)}),
        "failure": st.fixed_dictionaries(
            {}, optional={"preserveOnFailure": st.booleans(), "head": st.integers(0, 20), "tail": st.integers(0, 20)}
        ),
        "transforms": st.fixed_dictionaries(
            {},
            optional={k: st.booleans() for k in ("stripAnsi", "trimEmptyEdges", "dedupeAdjacent", "collapseBlankRuns")},
        ),
        "matchOutput": st.lists(
            st.fixed_dictionaries({"pattern": PATTERNS, "message": st.just("all good")}), max_size=1
        ),
        "counterSource": st.sampled_from(["preKeep", "postKeep"]),
        "onEmpty": st.just("(nothing)"),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule=RULE, output=OUTPUT, exit_code=EXIT)
def test_random_rules(rule: dict[str, Any], output: str, exit_code: int) -> None:
    rs = RuleSet()
    rs.add(Rule({"family": "prop", **rule}, "user", "prop.json"))
    reducer = Reducer(rules=rs, store=False, record=False, redactor=False)
    red = reducer.reduce(output, command="prop run", exit_code=exit_code)
    check(red, output, exit_code)
    if exit_code and red.mode == "summarized":
        raise AssertionError("a matchOutput summary replaced a failing run")
    assert reducer.reduce(output, command="prop run", exit_code=exit_code).text == red.text
