"""json-records: `gh … --json` arrays as one row per record, every value kept."""

from __future__ import annotations

import json
from typing import Any

from tests.helpers import formatting_reducer, lost, reduce_fixture
from tests.reduction.formatters._devops import fi_text
from tokenjuice.model import ToolRun
from tokenjuice.reduction.formatters import gh_api, json_records


def _scalars(v: Any) -> list[str]:
    if isinstance(v, dict):
        return [s for x in v.values() for s in _scalars(x)]
    if isinstance(v, list):
        return [s for x in v for s in _scalars(x)]
    return [v if isinstance(v, str) else json.dumps(v)]


def test_every_value_of_every_record_stays_on_its_row() -> None:
    fx, red = reduce_fixture("gh-json", "gh-pr-list-json")
    assert red.rule_id == "cloud/gh"
    assert not lost(fx, red.text)
    records = json.loads(fx["combined"])
    lines = red.text.splitlines()
    for rec in records:
        row = next(ln for ln in lines if ln.startswith(f"{rec['number']} | "))
        for value in _scalars(rec):
            if value and value != "false":  # is_bot is false in every record: the same-for-all line
                assert value in row, (value, row)
    assert "same for all: author.is_bot=false" in lines
    assert red.reduced_chars < red.raw_chars * 0.7


def test_one_object_per_line_is_a_list_too() -> None:
    recs = [{"number": n, "title": f"issue {n}", "labels": ["bug", f"p{n % 3}"]} for n in range(1, 30)]
    text = "\n".join(json.dumps(r) for r in recs) + "\n"
    red = formatting_reducer().reduce_run(
        ToolRun(command="gh issue list --json number,title,labels --jq '.[]'", combined=text, exit_code=0)
    )
    assert red.text.splitlines()[0] == "29 records; columns: number | title | labels"
    assert "7 | issue 7 | [bug, p1]" in red.text.splitlines()
    assert "29 | issue 29 | [bug, p2]" in red.text.splitlines()


def test_anything_but_a_list_of_objects_goes_to_gh_api() -> None:
    for text in (
        json.dumps({"number": 1, "title": "x", "url": "https://api.github.com/repos/a/b"}, indent=2),
        "error: not found\n",
        "[1, 2, 3]\n",
        json.dumps([{"number": 1}]),
    ):
        got, want = json_records.format(fi_text(text)), gh_api.format(fi_text(text))
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert got.lines == want.lines
