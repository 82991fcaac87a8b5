"""The guidance block: printed, inserted between markers once, removed cleanly."""

from __future__ import annotations

from pathlib import Path

from tokenjuice.guidance import BEGIN, END, TEXT, install_block, remove_block


def test_insert_is_idempotent_and_removal_restores(tmp_path: Path) -> None:
    f = tmp_path / "AGENTS.md"
    original = "# Project\n\nRun `make test`.\n"
    f.write_text(original)
    assert install_block(str(f)) == "added"
    text = f.read_text()
    assert text.startswith(original) and text.count(BEGIN) == 1 and text.count(END) == 1
    assert TEXT in text
    assert install_block(str(f)) == "unchanged"
    assert f.read_text() == text
    assert remove_block(str(f)) == "removed"
    assert f.read_text() == original
    assert remove_block(str(f)) == "absent"


def test_an_old_block_is_replaced_in_place(tmp_path: Path) -> None:
    f = tmp_path / "CLAUDE.md"
    f.write_text(f"intro\n{BEGIN}\nold advice\n{END}\noutro\n")
    assert install_block(str(f)) == "updated"
    text = f.read_text()
    assert "old advice" not in text and TEXT in text
    assert text.startswith("intro\n") and text.endswith("outro\n")


def test_created_file_is_deleted_on_removal(tmp_path: Path) -> None:
    f = tmp_path / "AGENTS.md"
    assert install_block(str(f)) == "created"
    assert remove_block(str(f)) == "removed"
    assert not f.exists()


def test_guidance_mentions_how_to_read_back() -> None:
    assert "tokenjuice cat ID" in TEXT and "TOKENJUICE_RAW=1" in TEXT
