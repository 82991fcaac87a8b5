"""Named formatters: the logic a JSON rule cannot express.

A rule refers to a formatter by name (`"formatter": "git-status"`); the engine never
looks at rule ids. `NAMES` lists every formatter; `git-status` is the module
`tokenjuice.reduction.formatters.git_status`, imported only when a rule uses it. Each
module defines `format(fi: FormatInput) -> FormatOutput | None`; returning None means
"not the shape I expected", and the rule's plain pipeline result is used instead.

A formatter that can read its input in batches also defines `BatchReader`: a class built
from a `FormatContext`, fed the surviving lines batch by batch (`feed(lines,
weights)`), and asked for the result at the end (`finish()`, None as for `format`).
The engine then never holds the whole output: a huge build log costs memory in
proportion to what the formatter keeps, not to the log. Until the reader's `accepted`
is true the engine also gathers the plain result, for a None from `finish()`; once it
is, `finish()` must give a result, and a failure fails the reduction open. Such a
module's `format` is `read_at_once(BatchReader, fi)`, so both ways give the same result.

Accounting contract: `weights[i]` is how many input lines output line i stands for
(0 for a synthetic heading), and `omitted` counts, by reason, the input lines the
formatter dropped. The engine checks the two add up and reports any difference, so
nothing disappears silently.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any, Protocol

    from tokenjuice.command import CommandInfo
    from tokenjuice.model import ToolRun

    class BatchReader(Protocol):
        """A formatter reading its input in batches (see the module docstring)."""

        def __init__(self, ctx: FormatContext) -> None: ...

        def feed(self, lines: list[str], weights: list[int]) -> None: ...

        def finish(self) -> FormatOutput | None: ...

        @property
        def accepted(self) -> bool: ...


# Every formatter shipped, by the name rules use: `git-status` is the module
# `git_status`, imported when a rule first uses it. Modules whose names start with an
# underscore are helpers the formatters share, never formatters.
NAMES = frozenset(
    (
        "apt-install",
        "apt-list",
        "archive-listing",
        "biome",
        "bun-test",
        "cargo-nextest",
        "cargo-test",
        "cloud-json",
        "cmake",
        "composer-install",
        "ctest",
        "df-table",
        "dig-records",
        "disk-usage",
        "docker-build",
        "docker-logs",
        "docker-table",
        "dotnet-build",
        "dotnet-test",
        "esbuild",
        "eslint",
        "file-content",
        "flake8",
        "gcc-diagnostics",
        "gcloud",
        "gh-api",
        "gh-checks",
        "gh-run-log",
        "gh-table",
        "gh-view",
        "git-blame",
        "git-branch",
        "git-commit",
        "git-diff",
        "git-log",
        "git-merge",
        "git-remote",
        "git-show",
        "git-stash",
        "git-status",
        "git-sync",
        "go-test",
        "golangci-lint",
        "gradle",
        "gradle-test",
        "helm-template",
        "help-text",
        "http-response",
        "javac",
        "jest",
        "json-records",
        "kubectl-describe",
        "kubectl-table",
        "lsof-table",
        "maven",
        "maven-test",
        "mocha",
        "mypy",
        "node-test",
        "npm-install",
        "path-listing",
        "phpunit",
        "pip-install",
        "playwright",
        "process-table",
        "pyfmt-diff",
        "pylint",
        "pyright",
        "pytest",
        "redis-reply",
        "rspec",
        "ruff",
        "rustc-diagnostics",
        "search-matches",
        "service-log",
        "shellcheck",
        "socket-table",
        "sql-result",
        "stack-trace",
        "stylelint",
        "terraform-plan",
        "tsc",
        "unittest",
        "vitest",
        "wc-counts",
        "webpack",
    )
)


class FormatContext:
    """What a formatter knows besides its lines: the run, the command, the rule's options."""

    __slots__ = ("cmd", "failed", "options", "run")

    def __init__(self, run: ToolRun, cmd: CommandInfo, options: dict[str, Any]) -> None:
        self.run = run
        self.cmd = cmd
        self.options = options
        self.failed = bool(run.exit_code)


class FormatInput(FormatContext):
    """The context and all the lines (with the weights dedupe gave them)."""

    __slots__ = ("lines", "weights")

    def __init__(
        self,
        lines: list[str],
        weights: list[int],
        run: ToolRun,
        cmd: CommandInfo,
        options: dict[str, Any],
    ) -> None:
        super().__init__(run, cmd, options)
        self.lines = lines
        self.weights = weights


def read_at_once(cls: type[BatchReader], fi: FormatInput) -> FormatOutput | None:
    """`format` for a formatter that reads in batches: all lines as one batch."""
    reader = cls(fi)
    reader.feed(fi.lines, fi.weights)
    return reader.finish()


class FormatOutput:
    """What a formatter returns.

    `protected[i]` marks lines the head/tail window must keep (failing test ids,
    changed diff lines). `final` says the formatter already chose what to show, so no
    head/tail window applies (the character budget still does). `essential` says every
    protected line is the point of the output (one line per commit, every changed diff
    line): they are then only trimmed far beyond the usual signal allowance. `headline` is an
    optional facts line such as `3 failed, 297 passed`; `headline_weight` is how many input
    lines it replaces (e.g. the summary line moved to the top).
    """

    __slots__ = (
        "essential",
        "facts",
        "final",
        "headline",
        "headline_weight",
        "lines",
        "omitted",
        "protected",
        "weights",
    )

    def __init__(
        self,
        lines: list[str],
        weights: list[int] | None = None,
        *,
        protected: list[bool] | None = None,
        facts: dict[str, int] | None = None,
        headline: str | None = None,
        headline_weight: int = 0,
        omitted: dict[str, int] | None = None,
        final: bool = False,
        essential: bool = False,
    ) -> None:
        self.lines = lines
        self.weights = weights if weights is not None else [1] * len(lines)
        self.protected = protected
        self.facts = facts
        self.headline = headline
        self.headline_weight = headline_weight  # input lines the headline stands for
        self.omitted = omitted or {}
        self.final = final
        self.essential = essential


_cache: dict[str, Callable[[FormatInput], FormatOutput | None] | None] = {}


class UnknownFormatter(LookupError):
    pass


def get(name: str) -> Callable[[FormatInput], FormatOutput | None]:
    """The formatter function called `name`; UnknownFormatter when there is none."""
    if name in _cache:
        fn = _cache[name]
        if fn is None:
            raise UnknownFormatter(name)
        return fn
    fn = None
    if name in NAMES:
        fn = _import(f"{__name__}.{name.replace('-', '_')}").format
    _cache[name] = fn
    if fn is None:
        raise UnknownFormatter(name)
    return fn  # type: ignore[no-any-return]


def get_batch_reader(name: str) -> type[BatchReader] | None:
    """The `BatchReader` class of formatter `name`, when it reads in batches (None otherwise,
    and for unknown names: `get` reports those)."""
    try:
        fn = get(name)
    except UnknownFormatter:
        return None
    module = sys.modules[fn.__module__]
    cls = getattr(module, "BatchReader", None)
    return cls if isinstance(cls, type) else None


def _import(name: str) -> ModuleType:
    """`importlib.import_module(name)`, without importing `importlib` (and `warnings`
    with it) on every process's first reduction."""
    __import__(name)
    return sys.modules[name]


def available() -> list[str]:
    """Names of all formatters shipped with tokenjuice."""
    return sorted(NAMES)
