"""Secret redaction: before reduction, before anything is stored, listed or recorded.

A detected secret becomes `[REDACTED:<kind>]`; what surrounds it (the variable name,
`Bearer`, the URL's user and host, the key block's BEGIN/END lines) stays, so the
output still reads. What is detected, and how each detector avoids ordinary code
and output, is in `tokenjuice.detectors`: provider tokens by structure and checksum,
JWTs, private-key blocks, AWS key pairs, URL and header credentials, passwords given
on well-known command lines, and name-based assignments of literal secret values.

Guarantees: a masked span never crosses a line break; the cost grows linearly with
the text (one Aho-Corasick pass finds every trigger literal, each detector looks only
at a bounded window around its triggers); text that is not valid UTF-8 is handled
(bytes go through `surrogateescape`); and redaction never raises: if a detector
fails, each line that holds a trigger is scanned on its own and a line that still
fails is masked whole (`[REDACTED:unscanned]`).

Configuration (`$XDG_CONFIG_HOME/tokenjuice/config.toml`):

    [redaction]
    enabled = true
    extra_patterns = ["internal-[0-9a-f]{32}"]     # redacted as [REDACTED:custom]
    allow = ["AKIAIOSFODNN7EXAMPLE"]               # exact values never redacted
"""

from __future__ import annotations

from tokenjuice import _log
from tokenjuice.detectors import REGISTRY, Detector, Span, load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    from tokenjuice.model import ToolRun

UNSCANNED = "unscanned"
CUSTOM = "custom"
# The text is scanned for triggers this many characters at a time (bounded memory:
# a piece and its projected copy).
_SCAN_CHUNK = 1 << 14
# Below this, each trigger is looked for on its own, which costs less than building
# the automata ...
_AC_MIN_CHARS = 512
# ... for the first texts of a process: a process that redacts many (an agent's tool
# loop) soon pays for the automata, a one-shot CLI call on a short output does not.
_SHORT_SCANS_BEFORE_AC = 16
# An automaton of at most 64 literals runs with a SIMD prefilter (Teddy) at about a
# gigabyte a second (past it, a byte at a time, five times slower); its fingerprints
# are as long as its shortest literal, so literals shorter than 4 bytes (`sk-`, `://`),
# which would make it stop everywhere, get an automaton of their own.
_PER_AUTOMATON = 60
_SHORT = 4
# The scan's copy of the text: ASCII lower case, and every character that separates a
# name from its value folded into one byte, so `password=`, `password:`, `password"`
# … are one literal. Characters that are not ASCII become `?` (one byte each, so
# offsets in the copy are offsets in the text).
_SEPARATORS = b"=:\"' \t\\\n\r"
_PROJECTION = bytes.maketrans(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZ" + _SEPARATORS, b"abcdefghijklmnopqrstuvwxyz" + b"\x01" * len(_SEPARATORS)
)


def _project(text: str) -> bytes:
    return text.encode("ascii", "replace").translate(_PROJECTION)


def _split(indexes: list[int]) -> list[list[int]]:
    """Contiguous runs (literals in sorted order share their first bytes, so the
    prefilter's fingerprints stay selective) of at most `_PER_AUTOMATON`."""
    n = -(-len(indexes) // _PER_AUTOMATON)
    return [indexes[len(indexes) * i // n : len(indexes) * (i + 1) // n] for i in range(n)]


class _Triggers:
    """Every occurrence of the trigger literals (in the projection above: a detector
    checks the exact characters at the positions it is given).

    The automata report leftmost-first matches, which never start inside one another;
    for each, the literals that could start inside it are checked at the offsets where
    they could (listed once per literal), so no occurrence is missed.
    """

    def __init__(self, keys: Iterable[str]) -> None:
        by_pattern: dict[bytes, list[int]] = {}
        self.keys = sorted(set(keys))
        for i, k in enumerate(self.keys):
            by_pattern.setdefault(_project(k), []).append(i)
        self.patterns = sorted(by_pattern)
        self.keys_of = [by_pattern[p] for p in self.patterns]
        self.longest = max(map(len, self.patterns))
        longer = [i for i, p in enumerate(self.patterns) if len(p) >= _SHORT]
        shorter = [i for i, p in enumerate(self.patterns) if len(p) < _SHORT]
        self.groups = [g for g in (*_split(longer), *_split(shorter)) if g]
        self._automata: list[Any] | None = None
        self._loaded = False
        self._short_scans = 0
        self._overlaps: dict[int, list[tuple[int, int]]] = {}

    def _ac(self) -> list[Any] | None:
        if not self._loaded:
            self._loaded = True
            try:
                import ahocorasick_rs
            except ImportError:  # pragma: no cover - a declared dependency; the slow path still works
                return None
            kind = ahocorasick_rs.MATCHKIND_LEFTMOST_FIRST
            # The quickest to build; the prefilter does nearly all of the scanning anyway.
            impl = ahocorasick_rs.Implementation.NoncontiguousNFA
            self._automata = [
                ahocorasick_rs.BytesAhoCorasick([self.patterns[i] for i in g], matchkind=kind, implementation=impl)
                for g in self.groups
            ]
        return self._automata

    def scan(self, text: str) -> list[tuple[int, int]]:
        """(position, key index) for every occurrence, ascending."""
        n = len(text)
        automata = None
        if n >= _AC_MIN_CHARS or self._loaded:
            automata = self._ac()
        else:
            self._short_scans += 1
            if self._short_scans > _SHORT_SCANS_BEFORE_AC:
                automata = self._ac()
        found: set[tuple[int, int]] = set()
        for c in range(0, n, _SCAN_CHUNK):
            low = _project(text[c : c + _SCAN_CHUNK + self.longest - 1])
            last = c + _SCAN_CHUNK >= n
            if automata is None:
                hits = self._find_each(low)
            else:
                hits = []
                for g, ac in zip(self.groups, automata, strict=True):
                    for k, s, _ in ac.find_matches_as_indexes(low):
                        hits.append((s, g[k]))
                        for b, off in self._overlaps_of(g[k], g):
                            if low.startswith(self.patterns[b], s + off):
                                hits.append((s + off, b))
            for s, p in hits:
                if last or s < _SCAN_CHUNK:
                    found.update((c + s, k) for k in self.keys_of[p])
        return sorted(found)

    def _find_each(self, low: bytes) -> list[tuple[int, int]]:
        hits = []
        for p, pattern in enumerate(self.patterns):
            i = low.find(pattern)
            while i >= 0:
                hits.append((i, p))
                i = low.find(pattern, i + 1)
        return hits

    def _overlaps_of(self, a: int, group: list[int]) -> list[tuple[int, int]]:
        """(b, offset) for each literal b of the same automaton that could start
        `offset` bytes into a match of literal a."""
        got = self._overlaps.get(a)
        if got is None:
            pa = self.patterns[a]
            got = []
            for off in range(len(pa)):
                rest = pa[off:]
                for b in group:
                    pb = self.patterns[b]
                    if (off or b != a) and (pb.startswith(rest) or rest.startswith(pb)):
                        got.append((b, off))
            self._overlaps[a] = got
        return got


class Redactor:
    """Replaces detected secrets with `[REDACTED:<kind>]`; built once, reused."""

    def __init__(self, extra_patterns: Iterable[str] = (), allow: Iterable[str] = ()) -> None:
        self.allow = frozenset(allow)
        self._detectors: list[Detector | None] = [None] * len(REGISTRY)
        self._triggers: _Triggers | None = None
        self._route: list[list[int]] = []
        self._extra: list[_Extra] = []
        for p in extra_patterns:
            from tokenjuice.patterns import PatternError

            try:
                self._extra.append(_Extra(p))
            except PatternError as exc:
                _log.warn(f"redaction: extra pattern {p!r} is not a valid regex ({exc}); skipped")

    # ------------------------------------------------------------------ text

    def redact(self, text: str) -> tuple[str, dict[str, int]]:
        """The text with secrets replaced, and how many of each kind were found."""
        if not text:
            return text, {}
        try:
            spans = self.spans(text)
        except Exception as exc:  # noqa: BLE001 - fail safe: never the text unscanned, never an error
            _log.warn(
                f"redaction failed ({type(exc).__name__}); scanning line by line, masking any line that fails",
                key=f"redact-failed:{type(exc).__name__}",
            )
            return self._line_by_line(text)
        return _apply(text, spans)

    def spans(self, text: str) -> list[Span]:
        """The spans to mask, ascending, none overlapping, none holding a line break."""
        triggers = self._scanner()
        hits: dict[int, list[tuple[int, str]]] = {}
        keys_ = triggers.keys
        for pos, k in triggers.scan(text):
            for d in self._route[k]:
                hits.setdefault(d, []).append((pos, keys_[k]))
        found: list[tuple[int, int, str, bool, int]] = []
        for d in sorted(hits):
            det = self._detectors[d]
            if det is None:
                det = self._detectors[d] = load(d)
            out: list[Span] = []
            det.find(text, hits[d], out)  # ascending: the scan's order
            found += [(s, e, kind, counted, d) for s, e, kind, counted in out]
        last = len(REGISTRY)
        for extra in self._extra:
            found += [(s, e, CUSTOM, counted, last) for s, e, counted in extra.spans(text)]
        return self._merge(text, found)

    def _scanner(self) -> _Triggers:
        if self._triggers is None:
            keys: dict[str, list[int]] = {}
            for i, (_, _, triggers) in enumerate(REGISTRY):
                for t in triggers:
                    keys.setdefault(t, []).append(i)
            self._triggers = _Triggers(keys)
            self._route = [keys[k] for k in self._triggers.keys]
        return self._triggers

    def _merge(self, text: str, found: list[tuple[int, int, str, bool, int]]) -> list[Span]:
        """Overlapping spans become one, named by the most specific detector."""
        allow = self.allow
        cleaned = []
        for s, e, kind, counted, prio in found:
            if e <= s:
                continue
            value = text[s:e]
            if allow and (value in allow or value.strip("\"'") in allow):
                continue
            if "\n" in value:
                cleaned += [(a, b, kind, counted and i == 0, prio) for i, (a, b) in enumerate(_lines(text, s, e))]
            else:
                cleaned.append((s, e, kind, counted, prio))
        cleaned.sort()
        merged: list[Span] = []
        best = 0
        for s, e, kind, counted, prio in cleaned:
            if merged and s < merged[-1][1]:
                ps, pe, pkind, pcounted = merged[-1]
                if prio < best:
                    pkind, best = kind, prio
                merged[-1] = (ps, max(pe, e), pkind, pcounted or counted)
            else:
                merged.append((s, e, kind, counted))
                best = prio
        return merged

    def _line_by_line(self, text: str) -> tuple[str, dict[str, int]]:
        """Each line holding a trigger redacted on its own; one that fails, masked whole.
        Alone, a line of a key block has no trigger: a line that is one long base64 run
        is masked too."""
        found: dict[str, int] = {}
        out: list[str] = []
        try:
            patterns = self._scanner().patterns
            for line in text.split("\n"):
                low = _project(line)
                if not any(p in low for p in patterns):
                    blob = line.strip(" \t\r+-\"',")
                    if len(blob) >= 32 and _BASE64.issuperset(blob):
                        line = f"[REDACTED:{UNSCANNED}]"
                        found[UNSCANNED] = found.get(UNSCANNED, 0) + 1
                    out.append(line)
                    continue
                try:
                    new, n = _apply(line, self.spans(line))
                except Exception:  # noqa: BLE001 - the line cannot be scanned: it is masked
                    new, n = f"[REDACTED:{UNSCANNED}]", {UNSCANNED: 1}
                out.append(new)
                for k, v in n.items():
                    found[k] = found.get(k, 0) + v
        except Exception:  # noqa: BLE001 - nothing is known to be safe: every line is masked
            masked = [f"[REDACTED:{UNSCANNED}]" if line.strip() else line for line in text.split("\n")]
            return "\n".join(masked), {UNSCANNED: sum(1 for line in text.split("\n") if line.strip())}
        return "\n".join(out), found

    # ------------------------------------------------------ bytes and argv

    def redact_bytes(self, data: bytes) -> tuple[bytes, dict[str, int]]:
        """`redact` for bytes that may not be UTF-8: undecodable bytes round-trip."""
        text = data.decode("utf-8", "surrogateescape")
        out, found = self.redact(text)
        if not found:
            return data, found
        return out.encode("utf-8", "surrogateescape"), found

    def redact_argv(self, argv: Sequence[str]) -> tuple[list[str], dict[str, int]]:
        """The arguments with secrets replaced. They are read as one command line, so a
        flag's value in the next argument (`--password X`, `sshpass -p X`) is found."""
        from tokenjuice.command import shell_quote

        args = list(argv)
        quoted = [shell_quote(a) for a in args]
        line = " ".join(quoted)
        try:
            spans = self.spans(line)
        except Exception:  # noqa: BLE001 - each argument alone, fail safe
            pairs = [self.redact(a) for a in args]
            return [p[0] for p in pairs], _sum(p[1] for p in pairs)
        if not spans:
            return args, {}
        found: dict[str, int] = {}
        start = 0
        for k, q in enumerate(quoted):
            end = start + len(q)
            mine = [
                (max(s, start) - start, min(e, end) - start, kind) for s, e, kind, _ in spans if s < end and e > start
            ]
            if mine:
                if q == args[k]:
                    args[k] = _apply(args[k], [(s, e, kind, False) for s, e, kind in mine])[0]
                else:
                    alone, _ = self.redact(args[k])
                    args[k] = alone if alone != args[k] else f"[REDACTED:{mine[0][2]}]"
            start = end + 1
        for _, _, kind, counted in spans:
            if counted:
                found[kind] = found.get(kind, 0) + 1
        return args, found


_BASE64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


# A user's pattern that cannot be proven free of catastrophic backtracking runs line by
# line with a time bound: a line it cannot finish is masked whole, and once its time for
# one text is spent, every line after it too (unscanned is never shown).
EXTRA_LINE_S = 0.1
EXTRA_TEXT_S = 1.0


class _Extra:
    """One `extra_patterns` entry of config.toml (user-supplied: bounded unless proven safe)."""

    def __init__(self, pattern: str) -> None:
        from tokenjuice.patterns import PatternSpec

        spec = PatternSpec(pattern, "", "config.toml [redaction] extra_patterns")
        self.rx: Any = spec.compile()
        self.guarded = bool(spec.risky)
        self.source = pattern

    def spans(self, text: str) -> list[tuple[int, int, bool]]:
        """(start, end, counted) of each match, never across a line break."""
        out: list[tuple[int, int, bool]] = []
        if not self.guarded:
            for m in self.rx.finditer(text):
                out += [(s, e, i == 0) for i, (s, e) in enumerate(_lines(text, *m.span()))]
            return out
        import time

        left = EXTRA_TEXT_S
        start = 0
        for line in text.split("\n"):
            end = start + len(line)
            t0 = time.perf_counter()
            try:
                if left <= 0:
                    raise TimeoutError
                for m in self.rx.finditer(line, timeout=min(EXTRA_LINE_S, left)):
                    if m.end() > m.start():
                        out.append((start + m.start(), start + m.end(), True))
            except TimeoutError:
                if left > 0:
                    _log.warn(
                        f"redaction: extra pattern {self.source[:60]!r} ran too long; masking the lines it cannot scan",
                        key=f"redact-extra-timeout:{self.source}",
                    )
                if end > start:
                    out.append((start, end, True))
            left -= time.perf_counter() - t0
            start = end + 1
        return out


def _lines(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """The pieces of [s, e) between line breaks."""
    out = []
    while s < e:
        nl = text.find("\n", s, e)
        stop = e if nl < 0 else nl
        if stop > s:
            out.append((s, stop - 1 if text[stop - 1] == "\r" and stop - 1 > s else stop))
        s = stop + 1
    return out


def _apply(text: str, spans: list[Span]) -> tuple[str, dict[str, int]]:
    if not spans:
        return text, {}
    found: dict[str, int] = {}
    pieces = []
    pos = 0
    for s, e, kind, counted in spans:
        pieces.append(text[pos:s])
        pieces.append(f"[REDACTED:{kind}]")
        pos = e
        if counted:
            found[kind] = found.get(kind, 0) + 1
    pieces.append(text[pos:])
    return "".join(pieces), found


def _joined(argv: Sequence[str]) -> str:
    from tokenjuice.command import shell_quote

    return " ".join(map(shell_quote, argv))


def _sum(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for c in counts:
        for k, v in c.items():
            total[k] = total.get(k, 0) + v
    return total


# ------------------------------------------------------------------- tool runs


def redact_run(redactor: Redactor, run: ToolRun) -> tuple[ToolRun, dict[str, int]]:
    """The run with secrets replaced in its output (text and kept bytes) and its command
    line, and how many of each kind; never raises."""
    try:
        return _redact_run(redactor, run)
    except Exception as exc:  # noqa: BLE001 - fail safe: the text, masked line by line
        _log.warn(f"redaction failed ({type(exc).__name__}); the raw bytes are not kept", key="redact-run-failed")
        text, found = redactor._line_by_line(run.combined)
        from tokenjuice.model import ToolRun

        masked = ToolRun(
            tool_name=run.tool_name,
            command=redactor._line_by_line(run.command_text())[0] if run.command or run.argv else None,
            cwd=run.cwd,
            combined=text,
            exit_code=run.exit_code,
            duration_ms=run.duration_ms,
            session_id=run.session_id,
            metadata=run.metadata,
        )
        return masked, found


def _redact_run(redactor: Redactor, run: ToolRun) -> tuple[ToolRun, dict[str, int]]:
    from tokenjuice.model import ToolRun

    original = run.combined
    combined, found = redactor.redact(original)
    stdout, stderr = run.stdout, run.stderr
    if found or (stdout and stdout != original) or (stderr and stderr != original):
        streams: dict[str, int] = {}
        if stdout:
            stdout, n = (combined, {}) if stdout == original else redactor.redact(stdout)
            streams = _sum((streams, n))
        if stderr:
            stderr, n = (combined, {}) if stderr == original else redactor.redact(stderr)
            streams = _sum((streams, n))
        # A secret split between the streams' chunks in arrival order is still found.
        found = {k: max(found.get(k, 0), streams.get(k, 0)) for k in {*found, *streams}}
    raw_bytes = run.raw_bytes
    if raw_bytes is not None:
        try:
            same = raw_bytes.decode("utf-8") == original
        except UnicodeDecodeError:
            same = False
        if same:
            raw_bytes = combined.encode("utf-8") if combined is not original else raw_bytes
        else:
            raw_bytes, n = redactor.redact_bytes(raw_bytes)
            found = {k: max(found.get(k, 0), n.get(k, 0)) for k in {*found, *n}}
    command = run.command
    argv: Sequence[str] = run.argv
    line: dict[str, int] = {}
    if command:
        command, line = redactor.redact(command)
    if argv and (line or not command or command != _joined(argv)):
        argv, n = redactor.redact_argv(argv)
        line = line or n  # the same secrets: counted once
    for k, v in line.items():
        found[k] = found.get(k, 0) + v
    if not found:
        return run, found
    redacted = ToolRun(
        tool_name=run.tool_name,
        command=command,
        argv=argv,
        cwd=run.cwd,
        stdout=stdout,
        stderr=stderr,
        combined=combined,
        exit_code=run.exit_code,
        duration_ms=run.duration_ms,
        session_id=run.session_id,
        metadata=run.metadata,
        interleave=None if len(combined) != len(original) else run.interleave,
        raw_bytes=raw_bytes,
    )
    return redacted, found


# ---------------------------------------------------------------- configuration

_default: Redactor | None = None


def default_redactor() -> Redactor | None:
    """The redactor configured in config.toml (None when redaction is turned off)."""
    global _default
    if _default is None:
        import os

        if os.environ.get("TOKENJUICE_REDACT", "1") in ("0", "false", "no", "off"):
            return None
        conf = _config()
        if conf.get("enabled", True) is False:
            return None
        _default = Redactor(_strings(conf.get("extra_patterns")), _strings(conf.get("allow")))
    return _default


def _strings(value: object) -> list[str]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    if value is not None:
        _log.warn(f"config.toml [redaction]: expected a list of strings, got {value!r}; ignored")
    return []


def _config() -> dict[str, object]:
    from tokenjuice import config

    return config.section("redaction")


def reset() -> None:
    global _default
    _default = None
    from tokenjuice import config

    config.reset()
