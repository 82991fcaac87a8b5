"""The formatter registry: every name it lists resolves, every rule's formatter is in
it, and helper modules are not formatters."""

from __future__ import annotations

import pkgutil

import pytest

from tests.helpers import reducer
from tokenjuice.reduction import formatters


def _modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(formatters.__path__))


@pytest.mark.parametrize("name", formatters.available())
def test_every_listed_formatter_resolves(name: str) -> None:
    fn = formatters.get(name)
    assert callable(fn)
    assert fn.__module__ == f"{formatters.__name__}.{name.replace('-', '_')}"


def test_every_rule_formatter_is_registered() -> None:
    used = {r.formatter for r in reducer().ruleset().rules if r.formatter}
    assert used, "no built-in rule names a formatter"
    assert used <= set(formatters.available()), sorted(used - set(formatters.available()))


def test_every_formatter_module_is_registered_and_no_helper_is() -> None:
    modules = _modules()
    helpers = [m for m in modules if m.startswith("_")]
    assert "_testrun" in helpers
    assert {m.replace("_", "-") for m in modules if not m.startswith("_")} == set(formatters.available())
    for helper in helpers:
        assert helper.replace("_", "-") not in formatters.available()
        assert helper.lstrip("_").replace("_", "-") not in formatters.available()


@pytest.mark.parametrize("name", ["testrun-common", "testrun", "_testrun", "common", "", "Git-Status", "git_status"])
def test_names_outside_the_registry_are_unknown(name: str) -> None:
    with pytest.raises(formatters.UnknownFormatter):
        formatters.get(name)
    assert formatters.get_batch_reader(name) is None
