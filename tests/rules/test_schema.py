"""The shipped JSON Schema, our subset validator, and agreement with `jsonschema`."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from tokenjuice.rules.loader import BUILTIN_DIR, rule_files
from tokenjuice.rules.schema import rule_schema, validate

TS_RULE: dict[str, Any] = {
    # A rule in the TypeScript tokenjuice format, every field it knows.
    "id": "team/pytest-ci",
    "family": "test-results",
    "description": "pytest in CI",
    "priority": 5,
    "onEmpty": "no output",
    "match": {
        "toolNames": ["exec"],
        "argv0": ["pytest"],
        "gitSubcommands": [],
        "argvIncludes": [["-q"]],
        "argvIncludesAny": [["--ci"], ["-x"]],
        "commandIncludes": ["pytest"],
        "commandIncludesAny": ["tests", "test"],
    },
    "transforms": {"stripAnsi": True, "trimEmptyEdges": True, "dedupeAdjacent": True, "prettyPrintJson": False},
    "filters": {"skipPatterns": ["^platform "], "keepPatterns": ["FAILED", "passed"]},
    "matchOutput": [{"pattern": "^no tests ran", "message": "pytest: no tests ran", "flags": "m"}],
    "counters": [{"name": "failed test", "pattern": "^FAILED", "flags": "m"}],
    "counterSource": "preKeep",
    "summarize": {"head": 10, "tail": 10},
    "failure": {"preserveOnFailure": True, "head": 20, "tail": 30},
}

BAD: list[tuple[dict[str, Any], str]] = [
    ({"family": "x", "match": {}}, "missing required field 'id'"),
    ({"id": "", "family": "x", "match": {}}, "id: must not be empty"),
    ({"id": "a", "family": "x", "match": {"argv0": "git"}}, "match.argv0: must be an array"),
    ({"id": "a", "family": "x", "match": {"argv0": [1]}}, "match.argv0[0]: must be a string"),
    ({"id": "a", "family": "x", "match": {"argvIncludes": ["x"]}}, "match.argvIncludes[0]: must be an array"),
    ({"id": "a", "family": "x", "match": {"bogus": 1}}, "match.bogus: unknown field"),
    ({"id": "a", "family": "x", "match": {}, "summarize": {"head": -1}}, "summarize.head: must be at least 0"),
    ({"id": "a", "family": "x", "match": {}, "counterSource": "later"}, "counterSource: must be one of"),
    ({"id": "a", "family": "x", "match": {}, "counters": [{"name": "n"}]}, "missing required field 'pattern'"),
    ({"id": "a", "family": "x", "match": {"outputRegex": 5}}, "match.outputRegex: must be a pattern"),
    (
        {"id": "a", "family": "x", "match": {}, "transforms": {"stripAnsi": "yes"}},
        "transforms.stripAnsi: must be a boolean",
    ),
    ({"id": "a", "family": "x", "match": {}, "extra": True}, "extra: unknown field"),
]


def test_typescript_rule_format_is_valid_unchanged() -> None:
    assert validate(TS_RULE) == []


@pytest.mark.parametrize(("rule", "message"), BAD)
def test_errors_name_the_field(rule: dict[str, Any], message: str) -> None:
    errors = validate(rule)
    assert errors, rule
    assert any(message in e for e in errors), errors


def test_every_builtin_rule_is_valid() -> None:
    for path in rule_files(BUILTIN_DIR):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for rule in data if isinstance(data, list) else [data]:
            assert validate(rule) == [], path


def _mutations() -> list[dict[str, Any]]:
    out = [copy.deepcopy(r) for r, _ in BAD] + [copy.deepcopy(TS_RULE)]
    for key in ("summarize", "failure", "filters", "match", "counters"):
        r = copy.deepcopy(TS_RULE)
        r[key] = "oops"
        out.append(r)
    r = copy.deepcopy(TS_RULE)
    r["match"]["exitCodes"] = [0, 1.5]
    out.append(r)
    r = copy.deepcopy(TS_RULE)
    r["match"]["commandRegex"] = {"pattern": "x", "flags": "i"}
    out.append(r)
    return out


def test_subset_validator_agrees_with_jsonschema() -> None:
    """The fast validator and the reference implementation accept and reject the same rules."""
    checker = jsonschema.Draft202012Validator(rule_schema())
    builtin = []
    for path in rule_files(BUILTIN_DIR):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        builtin.extend(data if isinstance(data, list) else [data])
    for rule in _mutations() + builtin:
        assert (validate(rule) == []) == checker.is_valid(rule), rule
