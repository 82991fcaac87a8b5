"""git show formatter: compact header, whole message, every changed line; file reads pass."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture


def test_commit_header_message_and_changes() -> None:
    fx, red = reduce_fixture("git-show", "git-show-scattered-edits")
    assert not lost(fx, red.text)
    out = red.text.splitlines()
    head = out[1] if out[0][0].isdigit() and "file" in out[0] else out[0]
    assert head.endswith("Clamp negative values and log give-ups at info level")
    assert any(ln.startswith("Author: Dana Dev <dana@example.com> · ") for ln in out)
    assert "  Refs: #412" in out
    # Context lines of the hunks are gone, the changed ones stay.
    assert "        attempt += 1" not in out
    assert '+    LOG.info("metrics step 6 gave up after %d attempts", attempt)' in out


def test_combined_diff_of_a_merge_keeps_parent_columns() -> None:
    fx, red = reduce_fixture("git-show", "git-show-merge-resolution")
    assert not lost(fx, red.text)
    assert ' -    "endpoint": "https://api.example.com/v3",' in red.text
    assert '      "timeout": 60,' not in red.text  # combined-diff context


def test_annotated_tag_keeps_tag_and_message() -> None:
    fx, red = reduce_fixture("git-show", "git-show-annotated-tag")
    assert not lost(fx, red.text)
    assert red.text.startswith("tag v2.0.0 · Tagger: Dana Dev")


def test_file_read_passes_content_through() -> None:
    fx, red = reduce_fixture("git-show", "git-show-file-at-rev")
    assert red.rule_id == "git/show-file"
    for line in fx["combined"].splitlines():
        if line.strip():
            assert line in red.text


def test_errors_stay() -> None:
    for fid in ("git-show-unknown-revision", "git-show-not-a-repo"):
        fx, red = reduce_fixture("git-show", fid)
        assert red.text.startswith("exit 128")
        assert not lost(fx, red.text)
