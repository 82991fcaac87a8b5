"""Rule patterns: JavaScript-style regex syntax, compiled safely.

Rule files are shared with the TypeScript tokenjuice, so patterns are written in
JavaScript syntax. `translate_js` rewrites the constructs that differ
(`(?<name>…)`, `\\k<name>`, `[^]`, `\\u{…}`, `\\cX`) into Python's.

Python's `re` cannot be interrupted, so a pattern that can backtrack
catastrophically (nested quantifiers, bounded ones included, a quantified
alternation, backreferences, several overlapping repeats) would hang the agent.
`risk()` runs in `re` only the patterns `tokenjuice.backtrack` proves safe; every
other one (any pattern the proof cannot read, too) is compiled with the `regex`
module and matched under a per-reduction time budget (`Budget`): when a pattern
exhausts it, it is abandoned with a warning and treated as not matching.
"""

from __future__ import annotations

from tokenjuice import _log, _recache
from tokenjuice import _re as re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    class Matcher(Protocol):
        def search(self, string: str, /) -> Any: ...


DEFAULT_PATTERN_BUDGET_S = 0.1

_FLAG_MAP = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "u": 0, "g": 0, "y": 0, "d": 0, "v": 0}


class PatternError(ValueError):
    """A pattern that cannot be compiled; `where` names the rule field."""


def parse_flags(flags: str) -> int:
    value = 0
    for ch in flags or "":
        if ch not in _FLAG_MAP:
            raise PatternError(f"unknown regex flag {ch!r}")
        value |= _FLAG_MAP[ch]
    return value


def inline_flags(flags: int) -> str:
    letters = ""
    if flags & re.IGNORECASE:
        letters += "i"
    if flags & re.MULTILINE:
        letters += "m"
    if flags & re.DOTALL:
        letters += "s"
    return letters


def translate_js(pattern: str) -> str:
    """Rewrite JavaScript-only regex syntax into Python `re` syntax."""
    if "\\" not in pattern and "(?<" not in pattern and "[^]" not in pattern and "[]" not in pattern:
        return pattern
    out: list[str] = []
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt == "k" and pattern.startswith("<", i + 2) and not in_class:
                end = pattern.find(">", i + 3)
                if end > 0:
                    out.append(f"(?P={pattern[i + 3 : end]})")
                    i = end + 1
                    continue
            if nxt == "u" and pattern.startswith("{", i + 2):
                end = pattern.find("}", i + 3)
                if end > 0:
                    code = pattern[i + 3 : end]
                    out.append(f"\\U{int(code, 16):08x}" if _is_hex(code) else pattern[i : end + 1])
                    i = end + 1
                    continue
            if nxt == "c" and i + 2 < n and pattern[i + 2].isalpha():
                out.append(f"\\x{ord(pattern[i + 2].upper()) % 32:02x}")
                i += 3
                continue
            if nxt == "/":
                out.append("/")
                i += 2
                continue
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            if pattern.startswith("[^]", i):
                out.append("[\\s\\S]")
                i += 3
                continue
            if pattern.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            in_class = True
            out.append(c)
            i += 1
            # A `]` right after `[` or `[^` is literal in Python but closes the class in JS;
            # both cases were handled above, so nothing more to do here.
            continue
        if c == "(" and pattern.startswith("(?<", i) and i + 3 < n and pattern[i + 3] not in "=!":
            out.append("(?P<")
            i += 3
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _is_hex(s: str) -> bool:
    return bool(s) and all(ch in "0123456789abcdefABCDEF" for ch in s)


# ----------------------------------------------------------------------- risk check


def risk(pattern: str, flags: int = 0) -> str | None:
    """Why `pattern` could backtrack catastrophically, or None when it provably cannot
    (see `tokenjuice.backtrack`; a pattern the proof cannot read is risky)."""
    # Its own fact name: an earlier check's answers, kept by the cache, do not count.
    why: str | None = _recache.fact("backtrack", pattern, flags, _risk)
    return why


def _risk(pattern: str, flags: int) -> str | None:
    from tokenjuice.backtrack import risk as proof

    return proof(pattern, flags)


# --------------------------------------------------------------------------- compile


class Budget:
    """Time allowance for guarded patterns during one reduction."""

    __slots__ = ("per_pattern",)

    def __init__(self, per_pattern_s: float = DEFAULT_PATTERN_BUDGET_S) -> None:
        self.per_pattern = per_pattern_s


class GuardedPattern:
    """A risky pattern matched with the `regex` module under a time budget."""

    __slots__ = ("abandoned", "compiled", "remaining", "source", "where")

    def __init__(self, compiled: Any, source: str, where: str, budget_s: float) -> None:
        self.compiled = compiled
        self.source = source
        self.where = where
        self.remaining = budget_s
        self.abandoned = False

    def search(self, string: str, /) -> Any:
        if self.abandoned:
            return None
        import time

        t0 = time.perf_counter()
        try:
            m = self.compiled.search(string, timeout=max(self.remaining, 0.001))
        except TimeoutError:
            self._abandon()
            return None
        self.remaining -= time.perf_counter() - t0
        if self.remaining <= 0:
            self._abandon()
        return m

    def _abandon(self) -> None:
        self.abandoned = True
        self.remaining = 0.0
        _log.warn(
            f"pattern {self.where} ({self.source[:60]!r}) ran too long on this output and was abandoned",
            key=f"abandon:{self.where}:{self.source}",
        )


class PatternSpec:
    """A compiled-on-demand rule pattern (safe → `re`, risky → guarded `regex`)."""

    __slots__ = ("_compiled", "_python", "_risky", "flags", "source", "where")

    def __init__(self, source: str, flags: str, where: str) -> None:
        self.source = source
        self.where = where
        self.flags = parse_flags(flags)
        # Translation and the risk analysis wait until the pattern is first used:
        # a process loads every rule but applies one.
        self._python: str | None = None
        self._risky: str | bool | None = False
        self._compiled: Any = None

    @property
    def python(self) -> str:
        if self._python is None:
            self._python = translate_js(self.source)
        return self._python

    @property
    def risky(self) -> str | None:
        if self._risky is False:
            self._risky = risk(self.python, self.flags)
        return self._risky  # type: ignore[return-value]

    @risky.setter
    def risky(self, value: str | None) -> None:
        self._risky = value

    def compile(self) -> Any:
        """The compiled pattern (`re.Pattern`, or a `regex` pattern when risky)."""
        if self._compiled is None:
            if self.risky:
                self._compiled = _compile_regex_module(self.python, self.flags, self.where)
            else:
                try:
                    self._compiled = re.compile(self.python, self.flags)
                except re.error as exc:
                    # `re` lacks some JS features (\p{…}, variable-length lookbehind);
                    # the `regex` module has them. Anything matched there is guarded.
                    try:
                        self._compiled = _compile_regex_module(self.python, self.flags, self.where)
                        self.risky = "needs the regex module"
                    except PatternError:
                        raise PatternError(f"{self.where}: invalid regex {self.source!r}: {exc}") from None
        return self._compiled

    def matcher(self, budget: Budget | None) -> Matcher:
        compiled = self.compile()
        if self.risky:
            return GuardedPattern(compiled, self.source, self.where, (budget or Budget()).per_pattern)
        return compiled  # type: ignore[no-any-return]


def _compile_regex_module(pattern: str, flags: int, where: str) -> Any:
    try:
        import regex
    except ImportError:  # pragma: no cover - regex is a declared dependency
        raise PatternError(f"{where}: pattern needs the 'regex' package, which is not installed") from None
    rflags = 0
    if flags & re.IGNORECASE:
        rflags |= regex.IGNORECASE
    if flags & re.MULTILINE:
        rflags |= regex.MULTILINE
    if flags & re.DOTALL:
        rflags |= regex.DOTALL
    try:
        return regex.compile(pattern, rflags | regex.VERSION0)
    except Exception as exc:  # noqa: BLE001 - regex raises its own error type
        raise PatternError(f"{where}: invalid regex {pattern!r}: {exc}") from None


def compile_any(specs: list[PatternSpec], budget: Budget | None) -> list[Matcher]:
    """Matchers for "does any of these patterns match a line".

    Safe patterns are joined into alternations, so a line costs one search per group:
    those with required literals in one (the alternation requires one of their
    literals, so it is searched only on the lines holding one, see `linematch`); of
    the rest, those anchored at the line start in another (one `match` per line) and
    the others in a third. One pattern without literals joined with the first group
    would cost it its literal check. Risky ones stay separate so each keeps its own
    time budget. Patterns that fail to compile are skipped with a warning naming the
    rule field. The grouping is worked out once per set of specs (every reduction
    asks again).
    """
    key = tuple(map(id, specs))
    got = _any_cache.get(key)
    if got is None:
        got = _group(specs)
        if len(_any_cache) >= _ANY_CACHE_MAX:
            _any_cache.clear()
        _any_cache[key] = got
    _, safe, risky = got
    return safe + [spec.matcher(budget) for spec in risky] if risky else list(safe)


# specs (held, so their ids stay theirs) -> (specs, joined safe matchers, risky specs)
_any_cache: dict[tuple[int, ...], tuple[tuple[PatternSpec, ...], list[Matcher], list[PatternSpec]]] = {}
_ANY_CACHE_MAX = 1024


def _has_literals(pattern: str, flags: int) -> bool:
    # The pattern-facts cache answers without importing the prefilter (first call).
    got = _recache.known("required", pattern, flags & re.IGNORECASE)
    if got is _recache.MISSING:
        from tokenjuice import prefilter

        return prefilter.required(pattern, flags) is not None
    return bool(got)


def _anchored(pattern: str, flags: int) -> bool:
    got = _recache.known("anchored", pattern, flags)
    if got is _recache.MISSING:
        from tokenjuice import prefilter

        return prefilter.anchored(pattern, flags)
    return bool(got)


def _group(specs: list[PatternSpec]) -> tuple[tuple[PatternSpec, ...], list[Matcher], list[PatternSpec]]:
    with_literals: list[PatternSpec] = []
    anchored: list[PatternSpec] = []
    other: list[PatternSpec] = []
    risky: list[PatternSpec] = []
    for spec in specs:
        try:
            spec.compile()
        except PatternError as exc:
            _log.warn(f"{exc}; pattern skipped")
            continue
        flags = int(spec.flags) & ~re.MULTILINE  # lines hold no newline
        if spec.risky:
            risky.append(spec)
        elif _has_literals(spec.python, flags):
            with_literals.append(spec)
        elif _anchored(spec.python, flags):
            anchored.append(spec)
        else:
            other.append(spec)
    safe: list[Matcher] = []
    for group in (with_literals, anchored, other):
        safe += _joined(group)
    return tuple(specs), safe, risky


def _joined(specs: list[PatternSpec]) -> list[Matcher]:
    """One alternation for safe patterns (no time budget needed)."""
    if len(specs) <= 1:
        return [spec.matcher(None) for spec in specs]
    parts = []
    for spec in specs:
        letters = inline_flags(int(spec.flags) & ~re.MULTILINE)
        parts.append(f"(?{letters}:{spec.python})" if letters else f"(?:{spec.python})")
    try:
        return [re.compile("|".join(parts))]
    except re.error:
        # Duplicate group names across patterns: one search each.
        return [spec.matcher(None) for spec in specs]
