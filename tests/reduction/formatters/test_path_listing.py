"""path-listing (find, fd, ls, tree, git ls-files, rg --files): grouped by directory."""

from __future__ import annotations

import re

import pytest

from tests.helpers import lost, reduce_fixture


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
    assert red.rule_id == "files/find"
    words = set(red.text.replace("/ (", " ").split())
    assert {".dockerenv", "container_info.json", "pyenv-installer"} <= words, red.text
