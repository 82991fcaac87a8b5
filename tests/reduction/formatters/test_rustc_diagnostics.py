"""rustc-diagnostics (cargo build/check, cargo clippy): one line per diagnostic, labels and
helps kept for errors, lint names for clippy, identical warnings grouped."""

from __future__ import annotations

import random
import re

import pytest

from tests.reduction.formatters._build import UNRELATED, accounted, raw, reduced, run_formatter, signals
from tokenjuice.reduction.formatters import FormatOutput

BUILD = [
    "cargo-build-errors",
    "cargo-check-errors",
    "cargo-check-many-errors",
    "cargo-build-warnings",
    "cargo-build-warnings-color",
    "cargo-build-warnings-short",
    "cargo-build-release-clean",
]
CLIPPY = ["cargo-clippy-warnings", "cargo-clippy-deny-warnings", "cargo-clippy-large-color"]


@pytest.mark.parametrize("fid", BUILD)
def test_cargo_build_keeps_every_signal(fid: str) -> None:
    reduced("cargo-build", fid, "build/cargo-build")


@pytest.mark.parametrize("fid", CLIPPY)
def test_cargo_clippy_keeps_every_signal(fid: str) -> None:
    reduced("cargo-clippy", fid, "build/cargo-clippy")


def test_errors_fold_location_into_the_header_and_drop_snippets() -> None:
    fx, red = reduced("cargo-build", "cargo-build-errors", "build/cargo-build")
    for loc in signals(fx, "error_location"):
        assert re.search(rf"^{re.escape(loc)}: error\[E\d+\]: ", red.text, re.M), loc
    assert "-->" not in red.text
    assert not re.search(r"^\s*\d+ \|\s{2,}\S", red.text, re.M)  # no source excerpts
    assert not re.search(r"^\s*\|\s*[\^-]", red.text, re.M)  # no caret lines


def test_errors_keep_their_labels_notes_and_fix() -> None:
    fx, red = reduced("cargo-build", "cargo-build-errors", "build/cargo-build")
    text = raw(fx)
    # Every span label of the raw output survives, tagged with its source line.
    labels = re.findall(r"^\s*\d*\s*\|\s+[\^-]+ (\S.*)$", text, re.M)
    assert labels
    for label in labels:
        assert label in red.text, label
    assert "src/lib.rs:25:8: note: function defined here" in red.text
    # The fix a help suggests (added line of its diff) stays, the removed line goes.
    added = re.search(r"^(\d+) \+\s+(\S.*)$", text, re.M)
    assert added and f"{added.group(1)} + {added.group(2)}" in red.text
    removed = re.search(r"^\d+ -\s+(\S.*)$", text, re.M)
    assert removed and removed.group(0) not in red.text


def test_identical_warnings_are_listed_once_with_every_location() -> None:
    fx, red = reduced("cargo-build", "cargo-build-warnings", "build/cargo-build")
    n = raw(fx).count("warning: variable does not need to be mutable")
    assert n > 3
    assert red.text.count("variable does not need to be mutable") == 1
    assert f"warning: variable does not need to be mutable ({n}×):" in red.text
    # Warnings keep no help or notes.
    assert "help: if this is intentional" not in red.text
    assert "#[warn(" not in red.text
    assert red.reduced_chars < red.raw_chars * 0.3


def test_colour_and_plain_runs_reduce_to_the_same_text() -> None:
    _, plain = reduced("cargo-build", "cargo-build-warnings", "build/cargo-build")
    _, color = reduced("cargo-build", "cargo-build-warnings-color", "build/cargo-build")
    assert "\x1b[" not in color.text
    strip = lambda t: re.sub(r"\d+\.\d+s", "", t)  # noqa: E731 - the timings differ
    assert strip(plain.text) == strip(color.text)


def test_short_format_drops_the_appended_help_and_groups() -> None:
    fx, red = reduced("cargo-build", "cargo-build-warnings-short", "build/cargo-build")
    assert ": help: " in raw(fx)
    assert ": help: " not in red.text
    assert "(40×)" in red.text


def test_many_identical_errors_group_with_the_first_ones_details() -> None:
    fx, red = reduced("cargo-build", "cargo-check-many-errors", "build/cargo-build")
    n = raw(fx).count("no method named `balance_of`")
    first = signals(fx, "error_location")[0]
    assert f"(×{n})" not in red.text
    header = next(ln for ln in red.text.splitlines() if "no method named `balance_of`" in ln)
    assert header.endswith(f"({n}×), first at {first}:")
    assert "there is a method `balance` with a similar name" in red.text
    assert red.reduced_chars < red.raw_chars * 0.15


def test_clippy_lint_names_from_the_help_url_and_suggestions_kept() -> None:
    fx, red = reduced("cargo-clippy", "cargo-clippy-warnings", "build/cargo-clippy")
    lints = set(re.findall(r"index\.html#(\w+)", raw(fx)))
    assert lints
    for lint in lints:
        assert f"[clippy::{lint}]" in red.text
    assert "for further information visit" not in red.text
    assert "help: remove `return`" in red.text


def test_clippy_deny_warnings_drops_the_lint_level_boilerplate() -> None:
    fx, red = reduced("cargo-clippy", "cargo-clippy-deny-warnings", "build/cargo-clippy")
    assert "implied by `-D warnings`" in raw(fx)
    assert "implied by `-D warnings`" not in red.text
    assert "to override `-D warnings`" not in red.text
    assert red.text.startswith("exit 101")


def test_large_clippy_run_groups_each_lint_with_all_locations() -> None:
    fx, red = reduced("cargo-clippy", "cargo-clippy-large-color", "build/cargo-clippy")
    for lint in set(re.findall(r"index\.html#(\w+)", raw(fx))):
        n = raw(fx).count(f"index.html#{lint}")
        assert re.search(rf"\[clippy::{lint}\] \({n}×\):", red.text), lint
    assert red.reduced_chars < red.raw_chars * 0.05


def test_accounting_adds_up_and_unrelated_output_is_left_alone() -> None:
    fx, _ = reduced("cargo-build", "cargo-build-errors", "build/cargo-build")
    lines = raw(fx).splitlines()
    out = run_formatter("rustc-diagnostics", raw(fx), exit_code=101)
    assert out is not None and accounted(out, len(lines))
    assert run_formatter("rustc-diagnostics", UNRELATED) is None
    assert run_formatter("rustc-diagnostics", "    Finished `dev` profile in 0.1s\n") is None


# A plain warning block, then a line that belongs to it (a `note:` sub-diagnostic): the
# block's compact record must turn back into a diagnostic that takes the note.
_CONTINUED = """\
warning: unused variable: `spare`
 --> src/lib.rs:4:9
  |
4 |     let spare = 1;
  |         ^^^^^ help: if this is intentional, prefix it with an underscore: `_spare`
  |
  = note: `#[warn(unused_variables)]` on by default
note: the lint level is defined here
 --> src/lib.rs:1:9
  |
1 | #![warn(unused)]
  |         ^^^^^^
"""


def _feed_in_batches(lines: list[str], weights: list[int], sizes: list[int]) -> FormatOutput | None:
    from tokenjuice.model import ToolRun
    from tokenjuice.reduction.formatters import FormatContext, rustc_diagnostics

    run = ToolRun(tool_name="exec", command="cargo build", combined="", exit_code=0)
    st = rustc_diagnostics.BatchReader(FormatContext(run, None, {}))  # type: ignore[arg-type]
    pos = 0
    for n in sizes:
        st.feed(lines[pos : pos + n], weights[pos : pos + n])
        pos += n
    st.feed(lines[pos:], weights[pos:])
    return st.finish()


def _shape(out: FormatOutput | None) -> tuple[object, ...] | None:
    if out is None:
        return None
    return (out.lines, out.weights, out.protected, list(out.omitted.items()))


@pytest.mark.parametrize("fid", ["cargo-build-warnings", "cargo-build-errors", "cargo-check-many-errors"])
def test_warning_blocks_read_whole_give_what_reading_line_by_line_gives(
    fid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain warning blocks are read in one regex step and kept as compact records;
    cut into batches anywhere, with lines repeated past 255 (wider weights) and a block
    that a later line continues, the output equals the line-by-line reading."""
    from tokenjuice.reduction.formatters import rustc_diagnostics

    fx, _ = reduced("cargo-build", fid, "build/cargo-build")
    # Three copies, so that warnings repeat and group across batches; distinct ones too.
    block = _CONTINUED.split("note: the lint", maxsplit=1)[0]
    distinct = "".join(block.replace("spare", f"spare_{k}") for k in range(150))
    lines = (raw(fx) * 3 + distinct + _CONTINUED + raw(fx) + distinct.replace("spare", "other")).splitlines()
    rng = random.Random(fid)
    weights = [0 if not ln.strip() else 1 for ln in lines]
    for i in rng.sample(range(len(lines)), 5):
        if weights[i]:
            weights[i] = rng.choice([2, 300, 70_000])
    # A header repeated 300 times (shown as such), late enough to widen the weights.
    weights[max(i for i, ln in enumerate(lines) if ln.startswith(("warning", "error")))] = 300
    monkeypatch.setattr(rustc_diagnostics, "_BLOCK_RE", re.compile(r"(?!)"))
    expected = _shape(_feed_in_batches(lines, weights, []))
    monkeypatch.undo()
    assert expected is not None and any(ln.endswith("(×300)") for ln in expected[0])  # type: ignore[attr-defined]
    assert _shape(_feed_in_batches(lines, weights, [])) == expected
    for _ in range(20):
        sizes = [rng.randint(1, 40) for _ in range(len(lines) // 20)]
        assert _shape(_feed_in_batches(lines, weights, sizes)) == expected


def test_compact_warning_records_give_back_the_last_one_sealed_or_not() -> None:
    from tokenjuice.reduction.formatters._compiler_diag import Plain

    weights = [1, 1, 2, 1]
    run = Plain(weights)
    run.add(0, "warning: a", "src/a.rs:1:1", "", 1, (("snippets", 3),))
    run.add(2, "warning: b", "src/b.rs:2:2", " [clippy::b]", 1, ())
    run.seal()
    run.add(3, "warning: c", "src/c.rs:3:3", "", 0, ())
    for expected in ("c", "b"):
        d = run.pop()
        assert d.message == f"warning: {expected}" and d.header().startswith(f"src/{expected}.rs")
        assert len(run.fields()) == 3 * len(run)
    assert run.pop().header() == "src/a.rs:1:1: warning: a" and not run and run.fields() == []
