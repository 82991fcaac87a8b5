"""The instruction block for agents (`tokenjuice guidance`, `tokenjuice install agents-md`).

It is inserted between two marker comments, so installing again replaces the block in
place (no duplicates), and uninstalling removes exactly it and nothing else.
"""

from __future__ import annotations

import os

from tokenjuice.reduction.formatters.file_content import PART_CHARS, WHOLE_CHARS

BEGIN = "<!-- tokenjuice:begin -->"
END = "<!-- tokenjuice:end -->"

TEXT = f"""\
## Command output is reduced by tokenjuice

Shell output you read here has been shortened by tokenjuice: errors, failing tests,
`file:line` locations, changed diff lines, summary counts and the exit code are
always kept; repeated and noisy lines are dropped or folded (`300× WARNING … id=1009–9979
(lines 898-3000)`), and every gap states the exact raw lines it stands for, such as
`… 90 lines omitted (lines 120-209) …` and the footer
`[… 240 of 1,000 lines omitted (…) · full output: tokenjuice cat 3f2a9c1b7d4e]`.
Lines are numbered as the raw output's own, blank lines included. An output too small
to be worth reducing comes back exactly as it was.

- Ask for less: run the one failing test (`pytest tests/test_x.py::test_y -q`,
  `cargo test name`, `npx jest path -t name`), use quiet flags (`-q`, `--quiet`,
  `--silent`, `--no-progress`), and bound history (`git log -n 20 --oneline`).
- Read omitted lines back instead of re-running the command, with the range a marker
  states: `tokenjuice cat ID --lines 120-209`, `tokenjuice cat ID --tail 50`,
  `tokenjuice grep ID 'PATTERN' -C 3`.
- For one command's exact, unreduced output, prefix it with `TOKENJUICE_RAW=1`
  (for example `TOKENJUICE_RAW=1 npm test`).
- File reads (`cat`, `head`, `tail`, `sed -n`) come back exactly as the file is, whole,
  up to {WHOLE_CHARS:,} characters; a longer read shows its first and last lines
  ({PART_CHARS:,} characters in all) and the exact range left out, which
  `tokenjuice cat ID --lines A-B` (or `sed -n 'A,Bp' FILE`) returns.
"""


def block() -> str:
    return f"{BEGIN}\n{TEXT}{END}\n"


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _write(path: str, text: str) -> None:
    from tokenjuice._fs import write_atomic

    write_atomic(path, text.encode("utf-8"))


def _span(text: str) -> tuple[int, int] | None:
    start = text.find(BEGIN)
    if start < 0:
        return None
    end = text.find(END, start)
    if end < 0:
        return None
    end += len(END)
    if text[end : end + 1] == "\n":
        end += 1
    return start, end


def install_block(path: str, *, dry_run: bool = False) -> str:
    """Insert or refresh the block in `path`; returns "created", "added", "updated" or "unchanged"."""
    text = _read(path)
    if text is None:
        if not dry_run:
            _write(path, block())
        return "created"
    span = _span(text)
    if span is not None:
        new = text[: span[0]] + block() + text[span[1] :]
        if new == text:
            return "unchanged"
        action = "updated"
    else:
        sep = "" if not text else "\n" if text.endswith("\n") else "\n\n"
        new = text + sep + block()
        action = "added"
    if not dry_run:
        _write(path, new)
    return action


def remove_block(path: str, *, dry_run: bool = False) -> str:
    """Remove the block from `path`; returns "removed" or "absent"."""
    text = _read(path)
    span = _span(text) if text is not None else None
    if text is None or span is None:
        return "absent"
    before, after = text[: span[0]], text[span[1] :]
    # Drop the blank line install put before the block.
    if before.endswith("\n\n") and not after:
        before = before[:-1]
    if not dry_run:
        if before + after:
            _write(path, before + after)
        else:
            os.unlink(path)  # install created it for the block alone
    return "removed"
