"""git blame formatter: runs for short blames, a per-commit index for long ones."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import lost, reduce_fixture
from tokenjuice.reduction.formatters import git_blame


def test_long_blame_becomes_one_line_per_commit_covering_every_line() -> None:
    fx, red = reduce_fixture("git-blame", "git-blame-long-file")
    assert not lost(fx, red.text)
    index = [ln for ln in red.text.splitlines() if " · " in ln and " line" in ln]
    hashes = {ln.split()[0].lstrip("^")[:7] for ln in fx["combined"].splitlines()}
    assert len(index) == len(hashes)
    covered = 0
    for ln in index:
        for a, b in re.findall(r"(\d+)(?:-(\d+))?", ln.split(": ", 1)[1].replace(",", " ")):
            covered += (int(b) - int(a) + 1) if b else 1
    assert covered == len(fx["combined"].splitlines())
    assert "def handler_" not in red.text  # the code is the file's, not repeated


def test_short_blame_keeps_code_under_run_headers() -> None:
    fx, red = reduce_fixture("git-blame", "git-blame-line-range")
    assert not lost(fx, red.text)
    out = red.text.splitlines()
    assert "2c7d35b6 Sam Ortiz 2023-11-16 (app/routes.py) · 200-201" in out
    assert "2c7d35b6 · 205-206" in out  # the author is said once per commit
    assert "+0000" not in red.text


def test_porcelain_is_parsed_with_summaries() -> None:
    fx, red = reduce_fixture("git-blame", "git-blame-porcelain")
    assert not lost(fx, red.text)
    assert '"Route change 31"' in red.text
    assert "author-mail" not in red.text
    assert "committer-time" not in red.text


@settings(max_examples=1500, deadline=None)
@given(
    line=st.lists(st.sampled_from(["(", ")", " ", "1", "42", "٣", "a", "x)", "12) ", ")(", "-"]), max_size=10).map(
        "".join
    ),
    pos=st.integers(0, 6),
)
def test_line_number_is_found_as_the_pattern_finds_it(line: str, pos: int) -> None:
    m = git_blame.LINENO_RE.search(line, pos)
    assert git_blame._lineno(line, pos) == ((m.start(), m.group(1), m.end()) if m else None)
