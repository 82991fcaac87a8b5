"""Every captured fixture: right rule, every signal kept, exit code stated, never
longer than the output, and the text equal to its golden file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import promises
from tests.helpers import FIXTURES, all_fixture_paths, reducer
from tokenjuice.rules.fixtures import check_fixture, fixture_run

PATHS = all_fixture_paths()


@pytest.mark.parametrize("path", PATHS, ids=[str(p.relative_to(FIXTURES)) for p in PATHS])
def test_fixture(path: Path) -> None:
    result = check_fixture(path, reducer())
    assert not result.failures, "\n".join(result.failures)
    # The engine's promises, on every built-in rule's captured output.
    run = fixture_run(result.fixture)
    factor = promises.FILE_READ_FACTOR if result.reduction.family == "file-read" else promises.FACTOR
    promises.check(run.combined, result.reduction, exit_code=run.exit_code, factor=factor)


def test_every_builtin_rule_has_a_fixture() -> None:
    from tokenjuice.rules.fixtures import load_fixture

    covered = {load_fixture(p).get("rule") for p in PATHS}
    missing = sorted(r.id for r in reducer().ruleset().rules if r.id not in covered)
    assert not missing, f"rules without a fixture: {missing}"
