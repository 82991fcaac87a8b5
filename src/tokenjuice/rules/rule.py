"""A loaded rule: its JSON data, pre-processed match criteria and lazily compiled patterns.

Patterns are compiled the first time a rule is used, not at load: compiling every
pattern of every built-in rule would cost far more than a whole reduction.
"""

from __future__ import annotations

from tokenjuice import _log
from tokenjuice.patterns import PatternError, PatternSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from tokenjuice.patterns import Budget, Matcher

LAYER_RANK = {"builtin": 0, "user": 1, "project": 2, "inline": 3}
FALLBACK_ID = "generic/fallback"
GENERIC_UNLESS_CHARS = 65536
_CONTENT_KEYS = frozenset({"toolNames", "exitCodes", "outputRegex"})


def _strings(value: Any) -> frozenset[str] | None:
    return frozenset(value) if value else None


def _groups(value: Any) -> tuple[tuple[str, ...], ...] | None:
    return tuple(tuple(g) for g in value if g) if value else None


def _regex(value: Any, where: str) -> PatternSpec | None:
    if not value:
        return None
    if isinstance(value, str):
        return PatternSpec(value, "", where)
    return PatternSpec(value["pattern"], value.get("flags", ""), where)


class Rule:
    """A rule. From the loader's cache its full data stays marshalled until first used:
    choosing a rule reads only the match criteria of all of them."""

    __slots__ = (
        "_blob",
        "_data",
        "_pipeline",
        "aliases",
        "argv0",
        "argv_excludes",
        "argv_includes",
        "argv_includes_any",
        "command_includes",
        "command_includes_any",
        "command_regex",
        "content_only",
        "exit_codes",
        "family",
        "git_subcommands",
        "id",
        "is_empty_match",
        "layer",
        "match",
        "output_regex",
        "path",
        "priority",
        "subcommands",
        "tool_names",
    )

    def __init__(self, data: dict[str, Any], layer: str, path: str, blob: bytes | None = None) -> None:
        """`data` is the rule's JSON object, or only its `head` (see `head`) when the
        whole of it is in `blob` (marshalled)."""
        self._data: dict[str, Any] | None = data if blob is None else None
        self._blob = blob
        self.id: str = data["id"]
        self.family: str = data["family"]
        self.priority: float = data.get("priority", 0)
        # Other ids this rule answers to: a higher layer's rule with one of them replaces it.
        self.aliases: tuple[str, ...] = tuple(data.get("aliases") or ())
        self.layer = layer
        self.path = path
        self.match: dict[str, Any] = data.get("match") or {}
        self._pipeline: RulePipeline | None = None

    _CRITERIA = frozenset(
        {
            "tool_names",
            "argv0",
            "git_subcommands",
            "subcommands",
            "argv_includes",
            "argv_includes_any",
            "argv_excludes",
            "command_includes",
            "command_includes_any",
            "exit_codes",
            "command_regex",
            "output_regex",
            "is_empty_match",
            "content_only",
        }
    )

    def __getattr__(self, name: str) -> Any:
        # The match criteria are worked out when first asked for: a process loads every
        # rule, but choosing one looks closely at only the few its command could match.
        if name not in Rule._CRITERIA:
            raise AttributeError(name)
        self._criteria()
        return object.__getattribute__(self, name)

    def _criteria(self) -> None:
        m = self.match
        path = self.path
        self.tool_names = _strings(m.get("toolNames"))
        self.argv0 = _strings(m.get("argv0"))
        self.git_subcommands = _strings(m.get("gitSubcommands"))
        self.subcommands = _strings(m.get("subcommands"))
        self.argv_includes = _groups(m.get("argvIncludes"))
        self.argv_includes_any = _groups(m.get("argvIncludesAny"))
        self.argv_excludes = _strings(m.get("argvExcludes"))
        self.command_includes = tuple(t.lower() for t in m.get("commandIncludes") or () if t)
        self.command_includes_any = tuple(t.lower() for t in m.get("commandIncludesAny") or () if t)
        self.exit_codes = frozenset(m["exitCodes"]) if m.get("exitCodes") else None
        where = f"{path}: rule {self.id!r}: match"
        self.command_regex = _regex(m.get("commandRegex"), f"{where}.commandRegex")
        self.output_regex = _regex(m.get("outputRegex"), f"{where}.outputRegex")
        present = {k for k, v in m.items() if v}
        self.is_empty_match = not present
        # Rules that look only at the output (and tool name / exit code) can safely
        # apply to compound commands: they do not assume which program ran.
        self.content_only = bool(present) and present <= _CONTENT_KEYS and "outputRegex" in present

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            import marshal

            self._data = marshal.loads(self._blob or b"")
            self._blob = None
        return self._data

    @property
    def is_fallback(self) -> bool:
        return self.id == FALLBACK_ID

    @property
    def formatter(self) -> str | None:
        return self.data.get("formatter")

    def pipeline(self) -> RulePipeline:
        if self._pipeline is None:
            self._pipeline = RulePipeline(self)
        return self._pipeline

    def __repr__(self) -> str:
        return f"Rule({self.id!r}, layer={self.layer!r})"


def head(data: dict[str, Any]) -> dict[str, Any]:
    """What choosing a rule reads: its id, family, aliases, priority and match criteria."""
    return {k: data[k] for k in ("id", "family", "aliases", "priority", "match") if k in data}


class RulePipeline:
    """Pattern specs of a rule's filters, counters and matchOutput entries."""

    __slots__ = ("counters", "diagnostics", "generic_unless", "keep", "match_output", "protect", "skip")

    def __init__(self, rule: Rule) -> None:
        d = rule.data
        filters = d.get("filters") or {}
        at = f"{rule.path}: rule {rule.id!r}:"
        # Skip patterns grouped by the reason the footer reports (default "noise").
        self.skip: dict[str, list[PatternSpec]] = {}
        for i, entry in enumerate(filters.get("skipPatterns") or ()):
            pattern, reason = (
                (entry, "noise") if isinstance(entry, str) else (entry["pattern"], entry.get("reason", "noise"))
            )
            spec = _spec(pattern, "", f"{at} filters.skipPatterns[{i}]")
            if spec is not None:
                self.skip.setdefault(reason, []).append(spec)
        self.keep = _specs(filters.get("keepPatterns"), f"{at} filters.keepPatterns")
        self.protect = _specs(filters.get("protectPatterns"), f"{at} filters.protectPatterns")
        # Open-ended output (a script's own prints): error and file:line lines stay even
        # when the run succeeded, as they do on the generic path.
        self.diagnostics = bool(filters.get("protectDiagnostics"))
        self.counters: list[tuple[str, PatternSpec]] = []
        for i, c in enumerate(d.get("counters") or ()):
            spec = _spec(c["pattern"], c.get("flags", ""), f"{at} counters[{i}].pattern")
            if spec is not None:
                self.counters.append((c["name"], spec))
        gu = d.get("genericUnless")
        self.generic_unless = (
            _spec(gu, "", f"{at} genericUnless")
            if isinstance(gu, str)
            else _spec(gu["pattern"], gu.get("flags", ""), f"{at} genericUnless")
            if isinstance(gu, dict)
            else None
        )
        self.match_output: list[tuple[PatternSpec, str]] = []
        for i, mo in enumerate(d.get("matchOutput") or ()):
            spec = _spec(mo["pattern"], mo.get("flags", ""), f"{at} matchOutput[{i}].pattern")
            if spec is not None:
                self.match_output.append((spec, mo["message"]))

    def counter_matchers(self, budget: Budget | None) -> list[tuple[str, Matcher | None]]:
        out: list[tuple[str, Matcher | None]] = []
        for name, spec in self.counters:
            try:
                out.append((name, spec.matcher(budget)))
            except PatternError as exc:
                _log.warn(f"{exc}; counter skipped")
                out.append((name, None))
        return out

    def all_specs(self) -> list[PatternSpec]:
        return [
            *(s for specs in self.skip.values() for s in specs),
            *self.keep,
            *self.protect,
            *(s for _, s in self.counters),
            *(s for s, _ in self.match_output),
            *((self.generic_unless,) if self.generic_unless is not None else ()),
        ]

    def generic_for(self, output: str) -> bool:
        """Whether the rule yields the output: `genericUnless` is set and its pattern is
        not in the output's last 64 KiB, where a run's crash report ends (a pattern
        that fails counts as not found)."""
        spec = self.generic_unless
        if spec is None:
            return False
        try:
            return spec.matcher(None).search(output[-GENERIC_UNLESS_CHARS:]) is None
        except PatternError as exc:
            _log.warn(f"{exc}; genericUnless treated as not matching")
            return True


def _spec(pattern: str, flags: str, where: str) -> PatternSpec | None:
    try:
        return PatternSpec(pattern, flags, where)
    except PatternError as exc:
        _log.warn(f"{where}: {exc}; pattern skipped")
        return None


def _specs(patterns: Any, where: str) -> list[PatternSpec]:
    out = []
    for i, p in enumerate(patterns or ()):
        spec = _spec(p, "", f"{where}[{i}]")
        if spec is not None:
            out.append(spec)
    return out
