"""_install_common: the error and warning word checks the install formatters share."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import load
from tokenjuice.reduction.formatters._install_common import ERRORISH_RE, WARNISH_RE, errorish, warnish

# Pieces that put the words at, after and inside other words, and next to the digits,
# colons and underscores that `\b` and `\w` look at.
PIECES = [
    "Error", "error", "ERROR", "Errors", "xError", "Error:", "KeyError:", "_Error:", "Exception:", "fatal",
    "FAILED", "failed", "Traceback", "denied", "cannot", "Could", "could not", "not", "found", "not found",
    "Unable to", "panic", "E", "E1", "E123", "E1234x", "Warn", "warnings", "WARNING", "Deprecated", "DEPRECATION",
    "deprecat_", "é", "Ü", "_", "1", ":", " ", "-", "/", "x",
]  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(line=st.lists(st.sampled_from(PIECES), max_size=8).map("".join))
def test_word_checks_answer_as_their_patterns(line: str) -> None:
    assert errorish(line) == (ERRORISH_RE.search(line) is not None)
    assert warnish(line) == (WARNISH_RE.search(line) is not None)


CAPTURED = [
    ("pip-install", "pip-install-verbose-sdist"),
    ("pip-install", "pip-install-build-failure"),
    ("npm-install", "npm-install-verbose-large"),
    ("npm-install", "npm-install-audit-deprecations"),
]


def test_word_checks_answer_as_their_patterns_on_captured_lines() -> None:
    lines = [ln for family, fid in CAPTURED for ln in load(family, fid)["combined"].splitlines()]
    errors = [ERRORISH_RE.search(ln) is not None for ln in lines]
    warnings = [WARNISH_RE.search(ln) is not None for ln in lines]
    assert list(map(errorish, lines)) == errors
    assert list(map(warnish, lines)) == warnings
    assert any(errors)
    assert any(warnings)
