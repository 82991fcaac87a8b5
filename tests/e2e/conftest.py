"""Fixtures of the end-to-end tests: the installed hosts, their homes, the workspaces.

The hosts are installed (once, into the cache) when the first test needs them. If npm
or a host cannot be installed, every e2e test errors with the reason; they are skipped
only when TOKENJUICE_E2E_HOSTS=0 says the hosts are unavailable on purpose.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e import workspace
from tests.e2e.hosts import PINNED, Host, HostUnavailable, hosts_off, load

HOST_NAMES = list(PINNED)


@pytest.fixture(scope="session")
def e2e_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("e2e")


@pytest.fixture(scope="session")
def template(e2e_root: Path) -> Path:
    return workspace.build(e2e_root / "template")


@pytest.fixture(scope="session")
def workspaces(e2e_root: Path, template: Path) -> Callable[[], Path]:
    """A fresh copy of the project for each host session (all under one root the hosts trust)."""
    root = e2e_root / "ws"
    root.mkdir()
    counter = itertools.count()
    lock = threading.Lock()

    def make() -> Path:
        with lock:
            n = next(counter)
        return workspace.copy(template, root / f"w{n:03d}")

    return make


_loaded: dict[str, Host | str] = {}
_load_lock = threading.Lock()


def get_host(name: str) -> Host:
    """The installed host (installing it the first time); a failure is kept, not retried."""
    reason = hosts_off()
    if reason:
        pytest.skip(reason)
    with _load_lock:
        if name not in _loaded:
            try:
                _loaded[name] = load(name)
            except HostUnavailable as exc:
                _loaded[name] = f"{name}: {exc} (set TOKENJUICE_E2E_HOSTS=0 to declare the hosts unavailable)"
        found = _loaded[name]
    if isinstance(found, str):
        pytest.fail(found)
    return found


@pytest.fixture(scope="session", params=HOST_NAMES)
def host(request: pytest.FixtureRequest) -> Host:
    return get_host(request.param)


@pytest.fixture(scope="session")
def claude_code() -> Host:
    return get_host("claude-code")


@pytest.fixture(scope="session")
def codex() -> Host:
    return get_host("codex")


@pytest.fixture(scope="session")
def gemini_cli() -> Host:
    return get_host("gemini-cli")


class Homes:
    """Host homes by kind, made once per session: `bare` (no tokenjuice), `hooked`
    (`tokenjuice install HOST`, reviewed and trusted where the host asks), `mcp`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.made: dict[tuple[str, str], Path] = {}
        self.lock = threading.Lock()

    def get(self, host: Host, kind: str) -> Path:
        with self.lock:
            key = (host.name, kind)
            if key not in self.made:
                self.made[key] = self.make(host, kind)
            return self.made[key]

    def make(self, host: Host, kind: str, **options: bool) -> Path:
        home = host.home(self.root, hooked=kind == "hooked", mcp=kind == "mcp", **options)
        host.trust_workspace(home, self.root / "ws")
        return home


@pytest.fixture(scope="session")
def homes(e2e_root: Path) -> Homes:
    return Homes(e2e_root)


# Gaps these tests found between tokenjuice and a host, not fixed yet: (host, case) ->
# what goes wrong. Each is a strict xfail, so the fix makes its test fail until its line
# here goes.
KNOWN_GAPS: dict[tuple[str, str], str] = {}


@pytest.fixture
def known_gap(request: pytest.FixtureRequest) -> Callable[[str, str], None]:
    """Mark this test as a known gap's strict xfail when (host, case) is one."""

    def check(host: str, case: str) -> None:
        reason = KNOWN_GAPS.get((host, case))
        if reason:
            request.applymarker(pytest.mark.xfail(strict=True, reason=reason))

    return check
