"""The seeded corpus: at least 30 kinds, well formed, each found with its own kind in
its output line and in its command line, the same for the same seed."""

from __future__ import annotations

import pytest

from tokenjuice.detectors.samples import samples
from tokenjuice.redact import Redactor

SAMPLES = samples()


def test_the_corpus_covers_at_least_30_kinds_and_is_deterministic() -> None:
    assert len({s.kind for s in SAMPLES}) >= 30
    assert [(s.name, s.secret) for s in samples()] == [(s.name, s.secret) for s in SAMPLES]
    assert [s.secret for s in samples(seed=1)] != [s.secret for s in SAMPLES]
    assert len({s.name for s in SAMPLES}) == len(SAMPLES)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_each_sample_is_found_in_its_output_and_its_command(sample: object) -> None:
    r = Redactor()
    for text in (sample.output, sample.command):  # type: ignore[attr-defined]
        out, found = r.redact(text)
        assert sample.core not in out and sample.secret not in out, out  # type: ignore[attr-defined]
        assert sample.kind in found, found  # type: ignore[attr-defined]
