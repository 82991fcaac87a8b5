"""path-listing (find, fd, ls, tree, git ls-files, rg --files): grouped by directory."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import lost, reduce_fixture
from tokenjuice.reduction.engine import Reducer
from tokenjuice.reduction.formatters import path_listing


@pytest.mark.parametrize(
    ("family", "fid"),
    [
        ("find", "find-type-f-large"),
        ("find", "fd-extension-large"),
        ("git-ls-files", "git-ls-files-large"),
        ("rg", "rg-files-inventory"),
        ("ls", "ls-recursive-large"),
        ("tree", "tree-large"),
    ],
)
def test_big_inventories_become_directory_counts(family: str, fid: str) -> None:
    fx, red = reduce_fixture(family, fid)
    assert not lost(fx, red.text)
    assert red.reduced_chars < red.raw_chars * 0.15
    assert "by extension:" in red.text


@pytest.mark.parametrize(("family", "fid"), [("find", "find-type-f-large"), ("git-ls-files", "git-ls-files-large")])
def test_header_counts_every_file(family: str, fid: str) -> None:
    fx, red = reduce_fixture(family, fid)
    n = len([ln for ln in str(fx["stdout"]).splitlines() if ln])
    assert red.text.splitlines()[0].startswith(f"{n:,} files in ")
    # Directory lines account for every path: their counts add up to the total.
    counted = 0
    for line in red.text.splitlines()[1:]:
        m = re.match(r"^\S+/ \((\d[\d,]*)", line)
        if m:
            counted += int(m.group(1).replace(",", ""))
    assert counted == n


def test_short_listing_passes_unchanged() -> None:
    fx, red = reduce_fixture("find", "find-name-small")
    assert red.text == str(fx["stdout"]).strip()


def test_medium_listing_names_every_entry_grouped() -> None:
    fx, red = reduce_fixture("ls", "ls-la-large-dir")
    names = [ln.rsplit(" ", 1)[-1] for ln in str(fx["stdout"]).splitlines()[1:]]
    words = set(red.text.split())
    missing = [n for n in names if n not in (".", "..") and n not in words]
    assert not missing
    assert red.reduced_chars < red.raw_chars * 0.3


@pytest.mark.parametrize(
    ("family", "fid"),
    [("find", "find-permission-denied"), ("ls", "ls-recursive-permission-denied"), ("tree", "tree-error-opening-dir")],
)
def test_permission_errors_survive(family: str, fid: str) -> None:
    fx, red = reduce_fixture(family, fid)
    assert not lost(fx, red.text)
    assert red.text.startswith(f"exit {fx['exitCode']}")


def test_tree_report_line_becomes_the_facts_line() -> None:
    fx, red = reduce_fixture("tree", "tree-large")
    report = str(fx["stdout"]).rstrip().splitlines()[-1]
    assert red.text.splitlines()[0] == report
    assert "── " not in red.text


def test_ls_errors_kept_with_listing() -> None:
    fx, red = reduce_fixture("ls", "ls-missing-file")
    assert not lost(fx, red.text)
    assert "exit 2" in red.text


def test_files_right_under_the_root_keep_their_whole_names() -> None:
    """`find / -maxdepth 2`: a file whose directory is `/` itself (`/.dockerenv`) was
    once listed without its first character."""
    import tokenjuice

    root_files = ["/.dockerenv", "/container_info.json", "/pyenv-installer"]
    etc = [f"/etc/conf-{i:02d}.d" for i in range(60)]
    red = tokenjuice.reduce("\n".join(["/", *root_files, *etc]) + "\n", command="find / -maxdepth 2")
    assert red.rule_id == "filesystem/find"
    words = set(red.text.replace("/ (", " ").split())
    assert {".dockerenv", "container_info.json", "pyenv-installer"} <= words, red.text


def test_a_long_listing_keeps_what_only_the_long_format_shows() -> None:
    """Rare modes with their entries, link targets and the largest files: the names
    alone would not tell the agent that a key is private or where `current` points."""
    fx, red = reduce_fixture("ls", "ls-la-mixed-metadata")
    assert not lost(fx, red.text)
    lines = red.text.splitlines()
    modes = next(ln for ln in lines if ln.startswith("modes: "))
    assert modes.startswith("modes: -rw-r--r-- 50 · ")  # the common mode counted, not named
    assert "-rw------- signing.key" in modes
    assert any(ln.startswith("owners: root:root (all ") for ln in lines)
    assert red.reduced_chars < red.raw_chars * 0.5


def _ls(tmp_path: Path, *flags: str) -> str:
    top = tmp_path / "t"
    (top / "a").mkdir(parents=True)
    for i in range(30):
        (top / "a" / f"f{i:02d}.log").write_text("x" * (i + 1) * 1000)
    (top / "b").mkdir()
    for i in range(20):
        (top / "b" / f"g{i:02d}.txt").write_text("y")
    run = subprocess.run(["ls", *flags, "t"], cwd=tmp_path, capture_output=True, text=True, check=True)
    return run.stdout


def test_human_sizes_and_sections_of_ls_lR(tmp_path: Path) -> None:
    text = _ls(tmp_path, "-lhR")
    red = Reducer(user_rules=False, project_rules=False).reduce(text, command="ls -lhR t")
    largest = next(ln for ln in red.text.splitlines() if ln.startswith("largest: "))
    # `-h` sizes ranked by what they mean: 30K, 29K, 28K, ... with the section's path.
    assert largest.startswith("largest: t/a/f29.log 30K · t/a/f28.log 29K · t/a/f27.log 28K"), largest
    modes = next(ln for ln in red.text.splitlines() if ln.startswith("modes: "))
    assert re.search(r"-rw-r--r-- 50\b", modes), modes


@pytest.mark.parametrize(
    ("size", "expected"), [("12070", 12070), ("4.0K", 4096), ("1,5M", 1.5 * 1024**2), ("8, 1", None)]
)
def test_size_column_in_bytes(size: str, expected: float | None) -> None:
    assert path_listing._bytes(size) == expected


@settings(max_examples=500, deadline=None)
@given(
    line=st.lists(
        st.sampled_from(
            ["│\u00a0\u00a0 ", "|   ", "    ", " ", "\u00a0", "│", "|", "├── ", "└── ", "|-- ", "`-- ", "─", "a"]
        ),
        max_size=8,
    ).map("".join)
)
def test_tree_line_pattern_reads_indents_as_four_character_levels(line: str) -> None:
    # The indent as tree writes it: each level `│` or `|` and three blanks, or four
    # blanks, then the branch. TREE_RE spells the level as one character class.
    spelled = re.compile(r"^((?:[│|][\u00a0 ]{3}|[\u00a0 ]{4})*)(?:[├└]── |[|`]-- )(.*)$")
    want = spelled.match(line)
    got = path_listing.TREE_RE.match(line)
    assert (got and got.groups()) == (want and want.groups())


def test_a_long_listing_of_directories_names_them(tmp_path: Path) -> None:
    """`ls -la` of a package folder: its subdirectories are entries as much as its files."""
    import subprocess

    import tokenjuice

    for i in range(58):
        (tmp_path / f"package_{i:02d}-1.{i}.0.dist-info").mkdir()
    for i in range(10):
        (tmp_path / f"module_{i}.py").write_text("x\n")
    listing = subprocess.run(["ls", "-la", str(tmp_path)], capture_output=True, text=True, check=True).stdout
    red = tokenjuice.reduce(listing, command=f"ls -la {tmp_path}")
    names = [p.name for p in tmp_path.iterdir()]
    assert all(n in red.text for n in names), red.text
