"""The generic path: density fallback (really reached) and stream handling."""

from __future__ import annotations

from tests.helpers import load, lost, reduce_fixture
from tokenjuice.model import ToolRun
from tokenjuice.reduction.batches import prepare
from tokenjuice.reduction.engine import Reducer
from tokenjuice.reduction.generic import density
from tokenjuice.rules.fixtures import fixture_run


def test_density_formula() -> None:
    # U/L · N/C: 2 unique of 4 lines; 8 non-whitespace chars of 11.
    assert abs(density(["ab", "ab", "cd", "ab"]) - (2 / 4) * (8 / 11)) < 1e-9
    # Numbers do not make lines different shapes.
    assert density([f"shard {i} warmed" for i in range(100)]) < 0.05
    assert density([]) == 1.0


def test_low_density_output_takes_the_generic_reducer() -> None:
    fx, red = reduce_fixture("generic", "progress-low-density")
    # `python3 build.py` with no crash: task/python hands it to the generic path.
    assert red.rule_id == "task/python"
    assert red.mode == "generic"
    assert density(prepare(fixture_run(fx).combined, {}).text) < 0.3
    assert not lost(fx, red.text)
    assert red.reduced_chars < red.raw_chars / 10


def test_dense_small_output_passes_unchanged() -> None:
    fx, red = reduce_fixture("generic", "tiny-output")
    assert red.mode == "passthrough"
    assert red.text == fixture_run(fx).combined.strip()


def test_threshold_is_configurable() -> None:
    run = fixture_run(load("generic", "progress-low-density"))
    never = Reducer(user_rules=False, project_rules=False, density_threshold=0.0).reduce_run(run)
    always = Reducer(user_rules=False, project_rules=False, density_threshold=1.01).reduce_run(run)
    # Passed through, the output comes back as it was (cleaning it saves too little).
    assert never.mode in ("passthrough", "capped", "original")
    assert always.mode == "generic"


def test_huge_dense_output_is_capped_with_head_tail_and_errors() -> None:
    lines = [f"{i:05d} {'abcdefghij'[i % 10]}{i * 7919 % 104729} record {i * 31 % 997} ok" for i in range(20_000)]
    lines[9_000] = "09000 ERROR could not open /var/data/shard-17.db: permission denied"
    run = ToolRun(command="python3 export.py", combined="\n".join(lines), exit_code=0)
    red = Reducer(user_rules=False, project_rules=False, density_threshold=0.0).reduce_run(run)
    assert red.mode == "capped"
    assert "ERROR could not open /var/data/shard-17.db" in red.text
    assert lines[0] in red.text
    assert lines[-1] in red.text
    assert red.reduced_chars < 16_000


def test_failing_run_keeps_stderr_and_the_tail_of_stdout() -> None:
    fx, red = reduce_fixture("generic", "failing-run-streams")
    run = fixture_run(fx)
    assert run.exit_code == 2
    assert red.text.startswith("exit 2\n")
    err_lines = (run.stderr or "").strip().splitlines()
    for line in err_lines:
        assert line.rstrip() in red.text
    stdout_lines = (run.stdout or "").strip().splitlines()
    assert stdout_lines[-1] in red.text  # the tail of stdout
    assert stdout_lines[10] not in red.text  # not its head
    # The combined (arrival) order is kept for display.
    raw_order = run.combined.index(stdout_lines[-1]) < run.combined.index(err_lines[0])
    assert (red.text.index(stdout_lines[-1]) < red.text.index(err_lines[0])) == raw_order


def test_successful_run_prefers_stderr_warnings_over_stdout_noise() -> None:
    out = "".join(f"copied asset {i} to dist/assets/{i}.png\n" for i in range(3000))
    err = "warning: image 1732.png is larger than 2 MB\n"
    combined = out[: len(out) // 2] + err + out[len(out) // 2 :]
    run = ToolRun(
        command="python3 build.py",
        stdout=out,
        stderr=err,
        combined=combined,
        interleave=[(0, len(out) // 2), (1, len(err)), (0, len(out) - len(out) // 2)],
    )
    red = Reducer(user_rules=False, project_rules=False).reduce_run(run)
    assert (red.rule_id, red.mode) == ("task/python", "generic")
    assert "warning: image 1732.png is larger than 2 MB" in red.text
    assert "copied asset 1400 to" not in red.text
