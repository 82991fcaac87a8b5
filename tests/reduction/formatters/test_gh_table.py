"""gh list tables: rows grouped by state, times cut to the date."""

from __future__ import annotations

import re

from tests.helpers import lost, reduce_fixture


def test_pr_list_groups_by_state_and_keeps_every_pr() -> None:
    fx, red = reduce_fixture("gh", "gh-pr-list")
    assert not lost(fx, red.text)
    assert "OPEN (51):" in red.text
    assert "DRAFT (9):" in red.text
    assert not re.search(r"T\d\d:\d\d:\d\dZ", red.text)
    rows = fx["combined"].splitlines()
    assert len(re.findall(r"^#\d+ ", red.text, re.M)) == len(rows)


def test_run_list_puts_failures_first_and_shortens_successes() -> None:
    fx, red = reduce_fixture("gh", "gh-run-list")
    assert not lost(fx, red.text)
    out = red.text.splitlines()
    groups = [ln for ln in out if ln.endswith("):")]
    assert groups[-1].startswith("completed success")
    success = out[out.index(groups[-1]) + 1]
    assert re.fullmatch(r"\d+ \S+ \S+", success)


def test_logged_out_error_stays() -> None:
    fx, red = reduce_fixture("gh", "gh-pr-list-logged-out")
    assert red.text.startswith("exit 4")
    assert not lost(fx, red.text)
