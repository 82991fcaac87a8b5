"""Credentials recognisable by their own structure: a provider's prefix, a length, an
alphabet, and the checksum where the format has one.

GitHub's classic tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`) and npm's (`npm_`)
end with six base62 digits that encode the CRC32 of the random part before them. A
valid checksum makes the string a token whatever it looks like; with a wrong one it
is still masked unless it is a placeholder (`ghp_xxxx…`, `ghp_YOURTOKENHERE…`): a
token altered by hand or a test's made-up one is treated as the secret it stands for
(leaking costs more than masking a fake). JWTs are three (or five) base64url parts
whose first part decodes to a JSON object (the JOSE header).
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.detectors import Detector, Hits, Span, boundary_before, values

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
WORD = -1  # a format whose match starts at the beginning of the word before its trigger


def crc32_tail(body: str) -> bool:
    """The last six base62 characters are the CRC32 of the rest (GitHub's, npm's)."""
    if len(body) < 7:
        return False
    n = 0
    for ch in body[-6:]:
        i = _BASE62.find(ch)
        if i < 0:
            return False
        n = n * 62 + i
    import zlib  # an extension module to load: only for a token to check

    return zlib.crc32(body[:-6].encode("ascii", "replace")) == n


def checksum_or_made_up(body: str) -> bool:
    """A valid checksum, or a body that is not a placeholder (see the module's docstring)."""
    return crc32_tail(body) or not values.is_placeholder(body)


class Format:
    """One token format. `pattern` is matched where the trigger (or, with `start=WORD`,
    the word before it) begins; group 1, when the pattern has one, is the secret and
    `check` validates it; otherwise the whole match is."""

    __slots__ = ("_rx", "check", "kind", "pattern", "prefixes", "start", "triggers")

    def __init__(
        self,
        kind: str,
        prefixes: tuple[str, ...],
        pattern: str,
        *,
        check: object = None,
        start: int = 0,
        triggers: tuple[str, ...] | None = None,
    ) -> None:
        self.kind = kind
        self.prefixes = prefixes  # exact case; () when only the pattern decides
        self.pattern = pattern
        self.check = check
        self.start = start
        self.triggers = triggers or tuple(p.lower() for p in prefixes)
        self._rx: re.Pattern[str] | None = None

    def rx(self) -> re.Pattern[str]:
        if self._rx is None:
            self._rx = re.compile(self.pattern)
        return self._rx


_B64URL = "A-Za-z0-9_\\-"
FORMATS: tuple[Format, ...] = (
    Format(
        "github-token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        r"gh[pousr]_([A-Za-z0-9]{36,251})(?![A-Za-z0-9_])",
        check=checksum_or_made_up,
    ),
    Format("github-token", ("github_pat_",), r"github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}(?![A-Za-z0-9_])"),
    Format(
        "gitlab-token",
        ("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "gloas-", "glsoat-", "glft-", "glagent-", "glwt-"),
        r"gl(?:pat|dt|rt|ptt|cbt|imt|oas|soat|ft|agent|wt)-[A-Za-z0-9_\-]{20,}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?"
        r"(?![A-Za-z0-9_\-])",
    ),
    Format("gitlab-token", ("GR1348941",), r"GR1348941[A-Za-z0-9_\-]{20,}(?![A-Za-z0-9_\-])"),
    Format(
        "slack-token",
        ("xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxe.xox"),
        r"xox(?:[abprse]|e\.xox[bp])-\d+-[0-9A-Za-z\-]{8,}",
    ),
    Format("slack-token", ("xapp-",), r"xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]{16,}"),
    Format(
        "slack-webhook",
        ("hooks.slack.com/",),
        r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/\-]{20,})",
    ),
    Format(
        "stripe-key", ("sk_live_", "sk_test_", "rk_live_", "rk_test_"), r"[sr]k_(?:live|test)_[A-Za-z0-9]{20,247}\b"
    ),
    Format("stripe-key", ("whsec_",), r"whsec_[A-Za-z0-9+/=]{32,}"),
    Format("anthropic-key", ("sk-ant-",), r"sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_\-]{32,}"),
    Format("openrouter-key", ("sk-or-v1-",), r"sk-or-v1-[a-f0-9]{64}(?![a-f0-9])"),
    Format(
        "openai-key",
        ("sk-",),
        r"sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}|[A-Za-z0-9]{32,})(?![A-Za-z0-9_\-])",
    ),
    Format("google-api-key", ("AIza",), r"AIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])"),
    Format("google-oauth", ("GOCSPX-",), r"GOCSPX-[A-Za-z0-9_\-]{24,}"),
    Format("google-oauth", ("ya29.",), r"ya29\.[0-9A-Za-z_\-]{30,}"),
    Format("google-oauth", ("1//0",), r"1//0[0-9A-Za-z_\-]{40,}"),
    Format("huggingface-token", ("hf_",), r"hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9_])"),
    Format("npm-token", ("npm_",), r"npm_([A-Za-z0-9]{36})(?![A-Za-z0-9_])", check=checksum_or_made_up),
    Format("pypi-token", ("pypi-AgE",), r"pypi-AgE[A-Za-z0-9_\-]{50,}"),
    Format("sendgrid-key", ("SG.",), r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}(?![A-Za-z0-9_\-])"),
    Format("digitalocean-token", ("dop_v1_", "doo_v1_", "dor_v1_"), r"do[opr]_v1_[a-f0-9]{64}(?![a-f0-9])"),
    Format("shopify-token", ("shpat_", "shpca_", "shppa_", "shpss_"), r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"),
    Format("databricks-token", ("dapi",), r"dapi[a-f0-9]{32}(?:-\d)?\b"),
    Format("atlassian-token", ("ATATT3",), r"ATATT3[A-Za-z0-9_\-=]{100,}"),
    Format("linear-key", ("lin_api_",), r"lin_api_[A-Za-z0-9]{40}\b"),
    Format(
        "doppler-token",
        ("dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."),
        r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_\-]{1,40}\.)?[A-Za-z0-9]{40,}",
    ),
    Format("age-secret-key", ("AGE-SECRET-KEY-1",), r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    Format("vault-token", ("hvs.", "hvb.", "hvr."), r"hv[sbr]\.[A-Za-z0-9_\-]{24,}"),
    Format(
        "terraform-token", (), r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,}", start=WORD, triggers=(".atlasv1.",)
    ),
    Format("grafana-token", ("glc_",), r"glc_[A-Za-z0-9+/]{32,}={0,2}"),
    Format("grafana-token", ("glsa_",), r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b"),
    Format("sentry-token", ("sntrys_",), r"sntrys_[A-Za-z0-9+/=_\-]{40,}"),
    Format("sentry-token", ("sntryu_",), r"sntryu_[a-f0-9]{64}\b"),
    Format("newrelic-key", ("NRAK-",), r"NRAK-[A-Z0-9]{27}\b"),
    Format("postman-key", ("PMAK-",), r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"),
    Format("pulumi-token", ("pul-",), r"pul-[a-f0-9]{40}\b"),
    Format("mailgun-key", ("key-",), r"key-[a-f0-9]{32}\b"),
    Format("dropbox-token", ("sl.",), r"sl\.(?:u\.)?[A-Za-z0-9_\-]{130,}"),
    Format(
        "telegram-token",
        (),
        r"(?:bot)?(\d{8,10}:AA[A-Za-z0-9_\-]{33})(?![A-Za-z0-9_\-])",
        start=WORD,
        triggers=(":aa",),
    ),
    Format(
        "discord-webhook",
        ("discord.com/api/webhooks/", "discordapp.com/api/webhooks/"),
        r"discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_\-]{60,})",
    ),
    Format("square-token", ("sq0atp-", "sq0csp-"), r"sq0(?:atp-[0-9A-Za-z_\-]{22}|csp-[0-9A-Za-z_\-]{43})\b"),
    Format(
        "azure-key",
        (),
        r"(?i:accountkey|sharedaccesskey)=([A-Za-z0-9+/]{40,86}={1,2})",
        triggers=("accountkey=", "sharedaccesskey="),
    ),
)
# Formats whose secret is only part of what the pattern matches (a URL's path, the
# value after `AccountKey=`, a bot token after `/bot`): group 1 is masked.
_PARTIAL = frozenset({"slack-webhook", "discord-webhook", "azure-key", "telegram-token"})


class Tokens(Detector):
    """Every format above, dispatched on the trigger found."""

    def __init__(self) -> None:
        self.kinds = tuple(dict.fromkeys(f.kind for f in FORMATS))
        self._by_trigger: dict[str, list[Format]] = {}
        for f in FORMATS:
            for t in f.triggers:
                self._by_trigger.setdefault(t, []).append(f)

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        done = -1
        for pos, trigger in hits:
            if pos < done:
                continue
            for f in self._by_trigger.get(trigger, ()):
                span = _match(f, text, pos)
                if span is not None:
                    out.append((span[0], span[1], f.kind, True))
                    done = span[1]
                    break


def _match(f: Format, text: str, pos: int) -> tuple[int, int] | None:
    if f.start == WORD:
        start = pos
        while start > 0 and start > pos - 16 and (text[start - 1].isalnum() and text[start - 1].isascii()):
            start -= 1
    else:
        start = pos
        if f.prefixes and not any(text.startswith(p, pos) for p in f.prefixes):
            return None  # the trigger in another case (`SK-` is not `sk-`)
    if f.kind not in _PARTIAL and not boundary_before(text, start):
        return None
    m = f.rx().match(text, start, min(len(text), start + 1024))
    if m is None:
        return None
    if m.re.groups:
        s, e = m.span(1)
        if f.check is not None and not f.check(m.group(1)):  # type: ignore[operator]
            return None
        if f.kind not in _PARTIAL:
            s = m.start()
    else:
        s, e = m.span()
    body = text[s:e]
    tail = body.split("_", 1)[-1] if "_" in body[:12] else body
    if values.is_placeholder(tail[-24:]):
        return None
    return s, e


class Jwt(Detector):
    """`header.payload.signature` (or a five-part JWE) in base64url, the header a JSON
    object; an unsigned token (empty third part) is still a bearer credential."""

    kinds = ("jwt",)
    _rx: re.Pattern[str] | None = None

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        done = -1
        for pos, _ in hits:
            if pos < done or not text.startswith("eyJ", pos) or not boundary_before(text, pos, "-"):
                continue
            if self._rx is None:
                seg = f"[{_B64URL}]"
                Jwt._rx = re.compile(
                    f"eyJ{seg}{{6,}}={{0,2}}\\.{seg}{{2,}}={{0,2}}\\.{seg}*={{0,2}}"
                    f"(?:\\.{seg}+\\.{seg}+)?(?![{_B64URL}])"
                )
            assert self._rx is not None
            m = self._rx.match(text, pos, min(len(text), pos + 16384))
            if m is None or not _json_header(m.group(0).split(".", 1)[0]):
                continue
            out.append((m.start(), m.end(), "jwt", True))
            done = m.end()


def _json_header(part: str) -> bool:
    import binascii

    raw = part.rstrip("=").replace("-", "+").replace("_", "/")
    try:
        data = binascii.a2b_base64(raw + "=" * (-len(raw) % 4))
        header = data.decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    if not header.startswith("{"):
        return False
    import json

    try:
        obj = json.loads(header)
    except ValueError:
        return False
    return isinstance(obj, dict) and bool(obj)


DETECTORS: tuple[Detector, ...] = (Tokens(), Jwt())
