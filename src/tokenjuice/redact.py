"""Secret redaction: before reduction, before anything is stored or recorded.

Detectors cover cloud access keys, provider API keys (OpenAI, Anthropic, GitHub,
GitLab, Slack, Stripe, Google, Hugging Face, npm, PyPI, SendGrid, DigitalOcean),
private-key blocks, JWTs, bearer and basic authorization values, passwords in URLs,
and `*_TOKEN` / `*_SECRET` / `*_KEY` / `PASSWORD` style assignments. A detected value
becomes `[REDACTED:<kind>]`; the surrounding text (the variable name, `Bearer`, the
URL's user and host) stays, so the output still makes sense.

Speed: every match of a detector contains one of its trigger literals (a provider
prefix, a secret-ish name, `://`, `-----BEGIN`). One Aho-Corasick pass finds where all
triggers occur, and a detector's pattern is then tried only where a match containing
one of them could start, instead of at every position: on ordinary build and test
output no pattern runs at all, and on output full of URLs only a few characters
around each `://` are looked at. The result is the same as `pattern.sub` over the
whole text.

Configuration (`$XDG_CONFIG_HOME/tokenjuice/config.toml`):

    [redaction]
    enabled = true
    extra_patterns = ["internal-[0-9a-f]{32}"]     # redacted as [REDACTED:custom]
    allow = ["AKIAIOSFODNN7EXAMPLE"]               # exact values never redacted
"""

from __future__ import annotations

import _operator as operator  # `operator` re-exports it, at a cost
from _bisect import bisect_left
from _operator import itemgetter
from itertools import compress, repeat

from tokenjuice import _re as re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

# (kind, trigger literals, pattern, group holding the secret (0: the whole match), where
# a match starts relative to a trigger it contains: at most N characters before it, or
# at the start of the word holding it (WORD)). Every match contains a trigger (checked
# by the tests on generated matches); a lower-case trigger is looked for in any case.
WORD = -1


class _Detector:
    """`near` = (literal, n): every match also holds `literal` within n characters after
    the trigger; a trigger without it is skipped before the pattern is tried."""

    __slots__ = ("group", "kind", "near", "pattern", "start", "triggers")

    def __init__(
        self,
        kind: str,
        triggers: tuple[str, ...],
        pattern: str,
        group: int = 0,
        start: int = 0,
        near: tuple[str, int] | None = None,
    ) -> None:
        self.kind = kind
        self.triggers = triggers
        self.pattern = pattern
        self.group = group
        self.start = start
        self.near = near


_VALUE = r"""(?:"[^"\s]{4,}"|'[^'\s]{4,}'|[^\s"',;&<>|`]{4,})"""
_DETECTORS: list[_Detector] = [
    _Detector(
        "private-key",
        ("-----BEGIN",),
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,20000}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY"
        r"(?: BLOCK)?-----",
    ),
    _Detector("private-key", ("-----BEGIN",), r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[A-Za-z0-9+/=\s]{16,}"),
    _Detector(
        "aws-access-key",
        ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "A3T"),
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
    ),
    _Detector("anthropic-key", ("sk-ant-",), r"\bsk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_\-]{40,}"),
    # Legacy keys are 48 letters and digits; project/service keys carry their kind.
    _Detector("openai-key", ("sk-",), r"\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}|[A-Za-z0-9]{48}\b)"),
    _Detector("github-token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"\bgh[pousr]_[A-Za-z0-9]{36,255}\b"),
    _Detector("github-token", ("github_pat_",), r"\bgithub_pat_[A-Za-z0-9_]{50,255}\b"),
    _Detector(
        "gitlab-token",
        ("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "gloas-"),
        r"\bgl(?:pat|dt|rt|ptt|cbt|imt|oas)-[A-Za-z0-9_\-.]{20,}",
    ),
    _Detector("slack-token", ("xox",), r"\bxox[abprse]-[A-Za-z0-9\-]{10,}"),
    _Detector(
        "slack-webhook",
        ("https://hooks.slack.com/",),
        r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]{20,}",
    ),
    _Detector(
        "stripe-key",
        ("sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"),
        r"\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})\b",
    ),
    _Detector("google-api-key", ("AIza",), r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    _Detector("google-oauth", ("GOCSPX-", "ya29."), r"\b(?:GOCSPX-[A-Za-z0-9_\-]{20,}|ya29\.[0-9A-Za-z_\-]{20,})"),
    _Detector("huggingface-token", ("hf_",), r"\bhf_[A-Za-z0-9]{30,}\b"),
    _Detector("npm-token", ("npm_",), r"\bnpm_[A-Za-z0-9]{36}\b"),
    _Detector("pypi-token", ("pypi-AgE",), r"\bpypi-AgE[A-Za-z0-9_\-]{50,}"),
    _Detector("sendgrid-key", ("SG.",), r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"),
    _Detector("digitalocean-token", ("dop_v1_", "doo_v1_", "dor_v1_"), r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    _Detector("jwt", ("eyJ",), r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    _Detector("bearer-token", ("bearer",), r"(?i:\bbearer)\s+([A-Za-z0-9\-._~+/]{16,}=*)", 1),
    _Detector("basic-auth", ("authorization",), r"(?i:\bauthorization:\s*basic)\s+([A-Za-z0-9+/]{8,}=*)", 1),
    # The scheme is 2 to 21 characters before `://`; the `@` after the password follows.
    _Detector(
        "url-password",
        ("://",),
        r"\b[a-zA-Z][a-zA-Z0-9+.\-]{1,20}://[^\s:/@\"']{1,128}:([^\s@/\"']{1,256})@",
        1,
        21,
        ("@", 3 + 128 + 1 + 256 + 1),
    ),
    _Detector(
        "secret-assignment",
        ("TOKEN", "SECRET", "_KEY", "PASSWORD", "PASSWD", "_PWD", "CREDENTIAL"),
        rf"\b[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|_KEY|PASSWORD|PASSWD|_PWD|CREDENTIALS?)\s*[:=]\s*({_VALUE})",
        1,
        WORD,
    ),
    _Detector(
        "secret-assignment",
        (
            "password",
            "passwd",
            "secret",
            "token",
            "api_key",
            "api-key",
            "apikey",
            "access_key",
            "access-key",
            "accesskey",
            "private_key",
            "private-key",
            "privatekey",
        ),
        # Anchored on the keyword (a leading `[\w.-]*` made this quadratic on long
        # words); the rest of the name is looked at in `_name_before`.
        rf"(?i:password|passwd|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key)"
        rf"[\"']?\s*[:=]\s*({_VALUE})",
        1,
        0,
    ),
]

# Values that look like assignments or URL passwords but are not secrets: references,
# placeholders, booleans, numbers (token counts, sizes), UUIDs (request/idempotency ids),
# and the placeholder names documentation uses.
_NOT_SECRET = (
    r"""(?i)^["']?(?:\$\{?[A-Za-z_]|\{\{|<|\[|\*{3}|\[REDACTED|%\(|x{4,}|\.{3}|https?://|"""
    r"""(?:true|false|null|none|nil|undefined|yes|no|passwd|password|pass|pwd|secret|token|changeme|redacted)"""
    r"""\W*$|\d+(?:\.\d+)?(?:[kmgKMG]i?[bB]?|ms|s)?["']?$|"""
    r"""[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}["']?$|"""
    # Documentation placeholders: YOUR_API_KEY, my-token, example_secret, dummy…
    r"""(?:your|my)[_\-][\w\-]*["']?$|(?:example|sample|dummy|fake|placeholder)[\w\-]*["']?$)"""
)
# Token-named fields that are pagination or idempotency handles, not credentials.
_NOT_SECRET_NAME = (
    r"(?i)(?:client|next|page|pagination|continuation|sync|idempotency|request|max|prev|previous)_?tokens?\b"
)
# Patterns are compiled when first needed (`re` keeps them): most outputs trigger none.


_first = itemgetter(0)
_second = itemgetter(1)
# Outputs are scanned for triggers in pieces of this many characters (bounded memory:
# a piece and its lower-cased copy).
_SCAN_CHUNK = 1 << 14
# Below this, each trigger is looked for on its own (no automaton to load).
_AC_MIN_CHARS = 1 << 13
# Short texts scanned one trigger at a time before the automaton is built anyway (it
# costs about what 10-20 such scans do, and is ten times faster on them after).
_SHORT_SCANS_BEFORE_AC = 16
# A word longer than this before its trigger: the detector scans the whole text instead.
_MAX_WORD = 128
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


class _Triggers:
    """Where the trigger literals occur: one Aho-Corasick pass over the lower-cased text.

    `ahocorasick_rs` (a dependency, in Rust) finds all of them in one pass at about a
    gigabyte a second; without it each trigger is looked for with `str.__contains__`,
    one pass each. Leftmost-first matching reports no match that starts inside another
    one, so for each reported match the triggers that could overlap it are checked at
    the offsets where they could start: the positions are complete.
    """

    def __init__(self, triggers: Iterable[str]) -> None:
        self.keys = sorted({t.lower() for t in triggers})
        self.longest = max(map(len, self.keys))
        # Per key, built when it is first found (most outputs hold none of them).
        self._overlaps: dict[int, list[tuple[int, int]]] = {}
        self._by_first: dict[str, list[int]] | None = None
        self._ac_bytes: Any = None
        self._ac_str: Any = None  # for text that is not ASCII, built when first needed
        self._loaded = False
        self._short_scans = 0  # short texts scanned without the automaton

    def _automata(self) -> bool:
        if not self._loaded:
            self._loaded = True
            try:
                import ahocorasick_rs

                kind = ahocorasick_rs.MATCHKIND_LEFTMOST_FIRST
                self._ac_bytes = ahocorasick_rs.BytesAhoCorasick([k.encode() for k in self.keys], matchkind=kind)
            except ImportError:  # pragma: no cover - a declared dependency; the slow path still works
                return False
        return self._ac_bytes is not None

    def _str_automaton(self) -> Any:
        if self._ac_str is None:
            import ahocorasick_rs

            kind = ahocorasick_rs.MATCHKIND_LEFTMOST_FIRST
            self._ac_str = ahocorasick_rs.AhoCorasick(self.keys, matchkind=kind)
        return self._ac_str

    def _overlaps_of(self, k: int) -> list[tuple[int, int]]:
        got = self._overlaps.get(k)
        if got is None:
            if self._by_first is None:
                self._by_first = _by_first(self.keys)
            got = self._overlaps[k] = _overlaps_of(self.keys[k], self.keys, self._by_first)
        return got

    def scan(self, text: str) -> tuple[set[str], dict[str, list[int]] | None]:
        """The triggers present (lower-cased), and where each occurs (None when unknown:
        a short text before the automaton is loaded, when looking for each trigger is
        cheaper than loading it; once loaded, it is ten times faster on those too)."""
        if len(text) < _AC_MIN_CHARS and self._ac_bytes is None:
            # A process that reduces many outputs (an agent's tool loop) soon pays for
            # the automaton; a one-shot CLI call does not.
            self._short_scans += 1
            short = self._short_scans <= _SHORT_SCANS_BEFORE_AC
        else:
            short = False
        if short or not self._automata():
            low = text.lower()
            return {k for k in self.keys if k in low}, None
        found: dict[int, list[int]] = {}
        aligned = True
        n = len(text)
        for c in range(0, n, _SCAN_CHUNK):
            seg = text[c : c + _SCAN_CHUNK + self.longest - 1]
            # `İ` is the one character whose lower case is two: as `i` (what `re`'s
            # case-insensitive match takes it for) the offsets stay the text's.
            low = (seg.replace("\u0130", "i") if "\u0130" in seg else seg).lower()
            if low.isascii():
                matches = self._ac_bytes.find_matches_as_indexes(low.encode("ascii"))
            else:
                matches = self._str_automaton().find_matches_as_indexes(low)
                # Lower-casing changed lengths (`İ`): offsets no longer match the text.
                aligned = aligned and len(low) == len(seg)
            if c + _SCAN_CHUNK < n:
                # Matches starting in the overlap are the next piece's.
                matches = matches[: bisect_left(matches, _SCAN_CHUNK, key=_second)]
            if not matches:
                continue
            keys = list(map(_first, matches))
            starts = list(map(_second, matches))
            for k in set(keys):
                at = list(compress(starts, map(operator.eq, keys, repeat(k)))) if len(keys) > 1 else starts
                found.setdefault(k, []).extend(map(operator.add, at, repeat(c)))
                for b, off in self._overlaps_of(k):
                    shifted = list(map(operator.add, at, repeat(off)))
                    hit = compress(shifted, map(low.startswith, repeat(self.keys[b]), shifted))
                    found.setdefault(b, []).extend(map(operator.add, hit, repeat(c)))
        present = {self.keys[k] for k, v in found.items() if v}
        if not aligned:
            return present, None
        return present, {self.keys[k]: sorted(set(v)) for k, v in found.items() if v}


def _by_first(keys: list[str]) -> dict[str, list[int]]:
    index: dict[str, list[int]] = {}
    for bi, b in enumerate(keys):
        index.setdefault(b[0], []).append(bi)
    return index


def _overlaps_of(a: str, keys: list[str], by_first: dict[str, list[int]]) -> list[tuple[int, int]]:
    """(b, offset) for each key b that could start `offset` characters into a match of
    key a (a suffix of a and b begin alike, or b lies inside a)."""
    pairs = []
    for off in range(len(a)):
        rest = a[off:]
        for bi in by_first.get(rest[0], ()):
            b = keys[bi]
            if (off or b != a) and (b.startswith(rest) or rest.startswith(b)):
                pairs.append((bi, off))
    return pairs


class Redactor:
    """Replaces detected secrets with `[REDACTED:<kind>]`; compiled once, reused."""

    def __init__(self, extra_patterns: Iterable[str] = (), allow: Iterable[str] = ()) -> None:
        self.allow = frozenset(allow)
        self._detectors = _DETECTORS
        self._triggers: _Triggers | None = None
        self._extra: list[re.Pattern[str]] = []
        for p in extra_patterns:
            try:
                self._extra.append(re.compile(p))
            except re.error as exc:
                from tokenjuice import _log

                _log.warn(f"redaction: extra pattern {p!r} is not a valid regex ({exc}); skipped")

    def redact(self, text: str) -> tuple[str, dict[str, int]]:
        """The text with secrets replaced, and how many of each kind were found."""
        found: dict[str, int] = {}
        if not text:
            return text, found
        if self._triggers is None:
            self._triggers = _Triggers(t for det in self._detectors for t in det.triggers)
        present, where = self._triggers.scan(text)
        for det in self._detectors:
            if not present:
                break
            starts = _starts(text, det, present, where)
            if starts is not None and not starts:
                continue
            rx = re.compile(det.pattern)
            repl = self._replacer(det.kind, det.group, found)
            # Positions unknown (a short text): the whole text is scanned.
            new = _sub_at(rx, text, starts, repl) if starts is not None else rx.sub(repl, text)
            if new is not text:
                # Offsets after a replacement moved: find the triggers again (rare).
                text = new
                present, where = self._triggers.scan(text)
        for rx in self._extra:
            text = rx.sub(self._replacer("custom", 0, found), text)
        return text, found

    def _replacer(self, kind: str, group: int, found: dict[str, int]) -> Callable[[re.Match[str]], str]:
        allow = self.allow

        def repl(m: re.Match[str]) -> str:
            value = m.group(group)
            if value is None or value in allow or value.strip("\"'") in allow:
                return m.group(0)
            # Already replaced by an earlier detector (`https://[REDACTED:github-token]@…`).
            if "[REDACTED:" in value or ("[REDACTED:" in m.group(0) and kind == "url-password"):
                return m.group(0)
            if kind in ("secret-assignment", "url-password") and re.match(_NOT_SECRET, value):
                return m.group(0)
            if kind == "secret-assignment" and re.search(
                _NOT_SECRET_NAME, _name_before(m) + m.group(0)[: m.start(group) - m.start(0)]
            ):
                return m.group(0)
            found[kind] = found.get(kind, 0) + 1
            if group == 0:
                return f"[REDACTED:{kind}]"
            start, end = m.span(group)
            base = m.start(0)
            whole = m.group(0)
            return whole[: start - base] + f"[REDACTED:{kind}]" + whole[end - base :]

        return repl


def _starts(text: str, det: _Detector, present: set[str], where: dict[str, list[int]] | None) -> list[int] | None:
    """Every position where a match of the detector could start, ascending; [] when none
    can, None when the whole text has to be scanned."""
    hits: list[int] = []
    for t in det.triggers:
        key = t.lower()
        if key not in present:
            continue
        if where is None:
            if key == t or t in text:
                return None
            continue
        occ = where[key]
        if key != t:
            occ = list(compress(occ, map(text.startswith, repeat(t), occ)))
        hits.extend(occ)
    if hits and det.near is not None:
        lit, span = det.near
        hits = [p for p in hits if text.find(lit, p, p + span) >= 0]
    if not hits:
        return []
    if det.start == WORD:
        out = []
        for p in hits:
            j = p
            while j > 0 and text[j - 1] in _WORD_CHARS:
                j -= 1
                if p - j > _MAX_WORD:
                    return None
            out.append(j)
        return sorted(set(out))
    if det.start == 0:
        return sorted(set(hits))
    return sorted({s for p in hits for s in range(max(0, p - det.start), p + 1)})


def _sub_at(rx: re.Pattern[str], text: str, starts: Iterable[int], repl: Callable[[re.Match[str]], str]) -> str:
    """`rx.sub(repl, text)` when every match starts at one of `starts` (ascending): the
    pattern is tried only there, with the whole text as context (`\\b` sees before it)."""
    out: list[str] = []
    pos = 0
    for start in starts:
        if start < pos:
            continue
        m = rx.match(text, start)
        if m is None:
            continue
        out.append(text[pos : m.start()])
        out.append(repl(m))
        pos = m.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def _name_before(m: re.Match[str]) -> str:
    """The word characters just before a match (`next_` of `next_token=…`), at most 64."""
    text, i = m.string, m.start()
    j = i
    while j > 0 and i - j < 64 and text[j - 1] in _NAME_CHARS:
        j -= 1
    return text[j:i]


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
        from tokenjuice import _log

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
