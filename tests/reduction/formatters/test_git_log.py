"""git log formatter: one line per commit however long the log."""

from __future__ import annotations

import re

from tests.helpers import lost, reduce_fixture


def test_full_log_is_one_line_per_commit() -> None:
    fx, red = reduce_fixture("git-log", "git-log-long-history")
    assert not lost(fx, red.text)
    commits = len(re.findall(r"^commit [0-9a-f]{40}", fx["combined"], re.M))
    assert commits == 2000
    # Past the budget times its factor the middle commits are left out, by stated range.
    shown = len(re.findall(r"^[0-9a-f]{10} ", red.text, re.M))
    assert 0 < shown < commits
    assert len(red.text) <= 4 * 12_000 + 500
    assert re.search(r"omitted \(lines \d+-\d+", red.text)
    assert "Author:" not in red.text
    assert "Date:" not in red.text


def test_patch_log_keeps_changed_lines() -> None:
    fx, red = reduce_fixture("git-log", "git-log-patch")
    assert not lost(fx, red.text)
    assert "index " not in red.text


def test_format_log_passes_every_line() -> None:
    fx, red = reduce_fixture("git-log", "git-log-format")
    assert red.text.splitlines()[-1] == fx["combined"].splitlines()[-1]
    assert not lost(fx, red.text)


def test_stat_files_are_named_on_the_summary_with_directories_written_once() -> None:
    from tokenjuice.reduction.formatters.git_log import _grouped

    names = ["README.md", "src/{old.py => new.py}", "src/app/a.py", "src/app/b.py", "src/c.py", "docs/x.md"]
    assert _grouped(names) == "README.md, src/{old.py => new.py}, src/app/{a.py, b.py}, src/c.py, docs/x.md"
    assert _grouped(["a/b.py"]) == "a/b.py"
    assert _grouped([]) == ""
