"""git diff formatter: changed lines kept, context folded, other shapes whole."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def _changed(raw: str) -> list[str]:
    return [ln for ln in raw.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


def test_patch_keeps_every_change_and_drops_context() -> None:
    fx, red = reduce_fixture("git-diff", "git-diff-unstaged")
    assert not lost(fx, red.text)
    out = red.text.splitlines()
    for line in _changed(fx["combined"]):
        assert line.rstrip() in out
    context = [ln for ln in fx["combined"].splitlines() if ln.startswith(" ") and ln.strip()]
    assert context
    assert not any(c.rstrip() in out for c in context if c.rstrip() not in _changed(fx["combined"]))
    assert not any(ln.startswith(("index ", "--- a/", "+++ b/")) for ln in out)


def test_deleted_file_keeps_header_and_every_removed_line() -> None:
    fx, red = reduce_fixture("git-diff", "git-diff-deleted-file")
    assert not lost(fx, red.text)
    assert "deleted file mode 100644" in red.text
    assert red.text.count("\n-") >= len([ln for ln in _changed(fx["combined"]) if ln.strip() != "-"]) - 1


def test_word_diff_keeps_marked_lines_only() -> None:
    fx, red = reduce_fixture("git-diff", "git-diff-word-diff")
    assert not lost(fx, red.text)
    out = red.text.splitlines()
    assert "Paragraph 3 [-explains-]{+describes+} the http layer in plain words." in out
    # Unchanged paragraphs are context, not changes.
    assert "Paragraph 2 explains the store layer in plain words." not in out


def test_name_status_is_kept_whole() -> None:
    fx, red = reduce_fixture("git-diff", "git-diff-name-status")
    for line in fx["combined"].splitlines():
        assert line in red.text


def test_stat_bars_become_counts() -> None:
    fx, red = reduce_fixture("git-diff", "git-diff-stat")
    assert not lost(fx, red.text)
    assert "+++" not in red.text
    assert "---" not in red.text
    assert "src/app/metrics.py | 5" in red.text
