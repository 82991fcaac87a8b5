"""Secret redaction: before reduction, before anything is stored or recorded.

Detectors cover cloud access keys, provider API keys (OpenAI, Anthropic, GitHub,
GitLab, Slack, Stripe, Google, Hugging Face, npm, PyPI, SendGrid, DigitalOcean),
private-key blocks, JWTs, bearer and basic authorization values, passwords in URLs,
and `*_TOKEN` / `*_SECRET` / `*_KEY` / `PASSWORD` style assignments. A detected value
becomes `[REDACTED:<kind>]`; the surrounding text (the variable name, `Bearer`, the
URL's user and host) stays, so the output still makes sense.

Speed: every detector starts with a literal (a provider prefix, `=`/`:` after a
secret-ish name, `://`, `-----BEGIN`), so one pass of `str.find`-style checks decides
which detectors can match at all; on ordinary build and test output usually none run.

Configuration (`$XDG_CONFIG_HOME/tokenjuice/config.toml`):

    [redaction]
    enabled = true
    extra_patterns = ["internal-[0-9a-f]{32}"]     # redacted as [REDACTED:custom]
    allow = ["AKIAIOSFODNN7EXAMPLE"]               # exact values never redacted
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

# (kind, trigger literals, pattern, group holding the secret; 0 = the whole match)
_VALUE = r"""(?:"[^"\s]{4,}"|'[^'\s]{4,}'|[^\s"',;&<>|`]{4,})"""
_DETECTORS: list[tuple[str, tuple[str, ...], str, int]] = [
    (
        "private-key",
        ("-----BEGIN",),
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,20000}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY"
        r"(?: BLOCK)?-----",
        0,
    ),
    ("private-key", ("-----BEGIN",), r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[A-Za-z0-9+/=\s]{16,}", 0),
    (
        "aws-access-key",
        ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "A3T"),
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
        0,
    ),
    ("anthropic-key", ("sk-ant-",), r"\bsk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_\-]{40,}", 0),
    # Legacy keys are 48 letters and digits; project/service keys carry their kind.
    ("openai-key", ("sk-",), r"\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}|[A-Za-z0-9]{48}\b)", 0),
    ("github-token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"\bgh[pousr]_[A-Za-z0-9]{36,255}\b", 0),
    ("github-token", ("github_pat_",), r"\bgithub_pat_[A-Za-z0-9_]{50,255}\b", 0),
    (
        "gitlab-token",
        ("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "gloas-"),
        r"\bgl(?:pat|dt|rt|ptt|cbt|imt|oas)-[A-Za-z0-9_\-.]{20,}",
        0,
    ),
    ("slack-token", ("xox",), r"\bxox[abprse]-[A-Za-z0-9\-]{10,}", 0),
    (
        "slack-webhook",
        ("hooks.slack.com",),
        r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]{20,}",
        0,
    ),
    (
        "stripe-key",
        ("sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"),
        r"\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})\b",
        0,
    ),
    ("google-api-key", ("AIza",), r"\bAIza[0-9A-Za-z_\-]{35}\b", 0),
    ("google-oauth", ("GOCSPX-", "ya29."), r"\b(?:GOCSPX-[A-Za-z0-9_\-]{20,}|ya29\.[0-9A-Za-z_\-]{20,})", 0),
    ("huggingface-token", ("hf_",), r"\bhf_[A-Za-z0-9]{30,}\b", 0),
    ("npm-token", ("npm_",), r"\bnpm_[A-Za-z0-9]{36}\b", 0),
    ("pypi-token", ("pypi-",), r"\bpypi-AgE[A-Za-z0-9_\-]{50,}", 0),
    ("sendgrid-key", ("SG.",), r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}", 0),
    ("digitalocean-token", ("dop_v1_", "doo_v1_", "dor_v1_"), r"\bdo[opr]_v1_[a-f0-9]{64}\b", 0),
    ("jwt", ("eyJ",), r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", 0),
    ("bearer-token", ("earer", "EARER"), r"(?i:\bbearer)\s+([A-Za-z0-9\-._~+/]{16,}=*)", 1),
    ("basic-auth", ("asic ", "ASIC "), r"(?i:\bauthorization:\s*basic)\s+([A-Za-z0-9+/]{8,}=*)", 1),
    ("url-password", ("://",), r"\b[a-zA-Z][a-zA-Z0-9+.\-]{1,20}://[^\s:/@\"']{1,128}:([^\s@/\"']{1,256})@", 1),
    (
        "secret-assignment",
        ("TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "PWD", "CREDENTIAL"),
        rf"\b[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|_KEY|PASSWORD|PASSWD|_PWD|CREDENTIALS?)\s*[:=]\s*({_VALUE})",
        1,
    ),
    (
        "secret-assignment",
        ("assword", "asswd", "ecret", "oken", "pi_key", "pi-key", "pikey", "ccess_key", "rivate_key", "lient_secret"),
        # Anchored on the keyword (a leading `[\w.-]*` made this quadratic on long
        # words); the rest of the name is looked at in `_name_before`.
        rf"(?i:password|passwd|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key)"
        rf"[\"']?\s*[:=]\s*({_VALUE})",
        1,
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


class Redactor:
    """Replaces detected secrets with `[REDACTED:<kind>]`; compiled once, reused."""

    def __init__(self, extra_patterns: Iterable[str] = (), allow: Iterable[str] = ()) -> None:
        self.allow = frozenset(allow)
        self._detectors = _DETECTORS
        # Case-insensitive keyword patterns are slow in `re` (no literal prefix to skip
        # to); on ASCII text their candidates are found in the lowercased copy instead,
        # which has the same offsets, and each is then matched for real.
        self._fast: dict[int, str] = {}
        for i, (_, _, pattern, _) in enumerate(_DETECTORS):
            if pattern.startswith("(?i:") and ")" in pattern:
                self._fast[i] = f"(?:{pattern[4 : pattern.index(')')]})"
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
        lowered: str | None = None
        # Trigger literals are looked for once each, in the lowercased text (many
        # detectors share them, in several cases); a detector whose triggers are all
        # absent is skipped. A lowercase hit is re-checked in the original case.
        low_all = text.lower() if text.isascii() else None
        seen: dict[str, bool] = {}

        def present(trigger: str) -> bool:
            if low_all is None:
                return trigger in text
            key = trigger.lower()
            hit = seen.get(key)
            if hit is None:
                hit = seen[key] = key in low_all
            return hit and (key == trigger or trigger in text)

        for i, (kind, triggers, pattern, group) in enumerate(self._detectors):
            if not any(present(t) for t in triggers):
                continue
            rx = re.compile(pattern)
            fast_pattern = self._fast.get(i)
            fast = re.compile(fast_pattern) if fast_pattern is not None else None
            if fast is not None and text.isascii():
                if lowered is None:
                    lowered = text.lower()
                new = self._sub_at(rx, fast, text, lowered, self._replacer(kind, group, found))
                if new is not text:
                    text, lowered = new, None
            else:
                text = rx.sub(self._replacer(kind, group, found), text)
                lowered = None
        for rx in self._extra:
            text = rx.sub(self._replacer("custom", 0, found), text)
        return text, found

    @staticmethod
    def _sub_at(
        rx: re.Pattern[str], fast: re.Pattern[str], text: str, lowered: str, repl: Callable[[re.Match[str]], str]
    ) -> str:
        """`rx.sub(repl, text)`, trying `rx` only where `fast` finds a keyword in `lowered`."""
        out: list[str] = []
        pos = 0
        for cand in fast.finditer(lowered):
            start = cand.start()
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
