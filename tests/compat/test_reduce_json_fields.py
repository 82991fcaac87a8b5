"""`reduce-json` prints every field the TypeScript tokenjuice's `CompactResult` has.

The field names come from its `src/types.ts` when the checkout is there, else from the
list below (written from the same file), so the test runs either way.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.cli.test_cli import tj
from tests.compat._ts import TS_ROOT

TS_TYPES = TS_ROOT / "src" / "types.ts"
TS_COMPACTION = TS_ROOT / "src" / "core" / "compaction-metadata.ts"

# CompactResult's fields; `trace` and `rawRef` only appear with --trace / --store there.
WRITTEN = {
    "CompactResult": ["inlineText", "previewText", "facts", "compaction", "trace", "rawRef", "stats", "classification"],
    "stats": ["rawChars", "reducedChars", "ratio"],
    "ClassificationResult": ["family", "confidence", "matchedReducer", "matchedVia", "matchedCommand"],
    "CompactionMetadata": ["authoritative", "kinds"],
}
ON_REQUEST = {"trace", "rawRef"}
# Optional in the TypeScript type and printed there only when known; we print them
# whenever a rule was chosen.
CLASSIFICATION_OPTIONAL = {"matchedReducer", "matchedVia", "matchedCommand"}
TS_KINDS = {
    "head-tail-omission",
    "middle-truncation",
    "tail-truncation",
    "hashed-middle-clip",
    "git-diff-hunk-clip",
}


def _type_fields(source: str, name: str) -> list[str]:
    """Top-level field names of `export type <name> = { … };`."""
    m = re.search(rf"export type {name} = \{{\n(.*?)\n\}};", source, re.S)
    assert m, f"type {name} not found"
    return re.findall(r"^  (\w+)\??:", m.group(1), re.M)


def _nested_fields(source: str, name: str, field: str) -> list[str]:
    m = re.search(rf"export type {name} = \{{\n(.*?)\n\}};", source, re.S)
    assert m
    inner = re.search(rf"^  {field}\??: \{{\n(.*?)\n  \}};", m.group(1), re.S | re.M)
    assert inner, f"{name}.{field} not found"
    return re.findall(r"^    (\w+)\??:", inner.group(1), re.M)


def ts_fields() -> dict[str, list[str]]:
    if not (TS_TYPES.is_file() and TS_COMPACTION.is_file()):
        return WRITTEN
    types = TS_TYPES.read_text(encoding="utf-8")
    return {
        "CompactResult": _type_fields(types, "CompactResult"),
        "stats": _nested_fields(types, "CompactResult", "stats"),
        "ClassificationResult": _type_fields(types, "ClassificationResult"),
        "CompactionMetadata": _type_fields(TS_COMPACTION.read_text(encoding="utf-8"), "CompactionMetadata"),
    }


def test_the_written_list_matches_the_typescript_types() -> None:
    if not TS_TYPES.is_file():
        pytest.skip(f"TypeScript tokenjuice checkout not at {TS_ROOT} (set TOKENJUICE_TS_CHECKOUT)")
    assert ts_fields() == WRITTEN


def reduce_json(payload: dict[str, Any]) -> dict[str, Any]:
    p = tj("reduce-json", stdin=json.dumps(payload))
    assert p.returncode == 0, p.stderr
    out: dict[str, Any] = json.loads(p.stdout)
    return out


def assert_typescript_fields(d: dict[str, Any]) -> None:
    f = ts_fields()
    for name in f["CompactResult"]:
        if name not in ON_REQUEST:
            assert name in d, name
    assert set(f["stats"]) <= set(d["stats"])
    assert set(f["ClassificationResult"]) - CLASSIFICATION_OPTIONAL <= set(d["classification"])
    assert set(d["compaction"]) == set(f["CompactionMetadata"])
    assert isinstance(d["compaction"]["authoritative"], bool)
    assert isinstance(d["previewText"], str)
    assert all(isinstance(v, int) for v in d["facts"].values())


MAKE_FAIL = "cc -c a.c\na.c:3:1: error: expected ';'\nmake: *** [Makefile:2: a.o] Error 1\n"


def test_pass_through_keeps_the_rule_facts_and_says_nothing_was_compacted() -> None:
    d = reduce_json({"toolName": "exec", "command": "make", "combinedText": MAKE_FAIL, "exitCode": 2})
    assert_typescript_fields(d)
    assert d["mode"] == "original"
    assert d["inlineText"] == "exit 2\n" + MAKE_FAIL
    assert d["previewText"] == MAKE_FAIL  # the text without its `exit N` line
    assert d["facts"]["error"] == 1  # counted though the output passes whole
    assert d["compaction"] == {"authoritative": False, "kinds": []}


def test_a_windowed_reduction_names_its_omission_kind() -> None:
    lines = [f"step {i}: compiling module_{i}.c" for i in range(3000)]
    text = "\n".join([*lines[:1500], "a.c:9:2: error: boom", *lines[1500:]]) + "\n"
    d = reduce_json({"toolName": "exec", "command": "make all", "combinedText": text, "exitCode": 2})
    assert_typescript_fields(d)
    assert d["lossy"] is True
    assert d["compaction"]["authoritative"] is True
    assert d["compaction"]["kinds"], d["omitted"]
    assert set(d["compaction"]["kinds"]) <= TS_KINDS | {"line-filter"}
    # The preview is the text without its `exit N` line and accounting footer.
    assert d["inlineText"].startswith("exit 2\n")
    assert not d["previewText"].startswith("exit 2")
    assert "a.c:9:2: error: boom" in d["previewText"]
    footer = d["inlineText"].rsplit("\n", 1)[-1]
    assert footer.startswith("[") and footer not in d["previewText"]
    assert d["previewText"] in d["inlineText"]
