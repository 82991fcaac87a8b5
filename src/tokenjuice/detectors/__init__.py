"""Secret detectors for `tokenjuice.redact`.

A detector has literals every one of its matches contains (its triggers, in
`REGISTRY`; the redactor finds them all in one Aho-Corasick pass over a projected
copy of the text) and, given where they occur, returns the spans to mask. It looks
only at a bounded window around each occurrence, so redaction costs time in
proportion to the text. A span never holds a line break: a multi-line secret (a PEM
block) is one span per line.

The order of `REGISTRY` is the priority when spans overlap: specific formats first,
the name-based assignment detector last.
"""

from __future__ import annotations

# (start, end, kind, counted): `counted` is False for the second and later spans of a
# secret that takes several (the lines of one private-key block).
Span = tuple[int, int, str, bool]
# (position, trigger) pairs, ascending by position.
Hits = list[tuple[int, str]]

# How far around a trigger a detector looks (characters, never past a line break
# unless the format spans lines).
WINDOW = 4096
WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


class Detector:
    """One kind of secret (or a family of them): `find` appends spans to `out`."""

    kinds: tuple[str, ...] = ()

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        raise NotImplementedError


# (module, class, triggers), in priority order. The triggers are listed here, not in
# the modules, so that a text holding none of a detector's triggers never imports it
# (most outputs hold none at all). A trigger is lower-case ASCII; the scan matches it
# in any case, and any one of `=`, `:`, a quote, a blank, a backslash or a line break
# where it says `=` (a detector checks the exact characters itself).
REGISTRY: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("blocks", "PrivateKeys", ("-----begin", "ls0tls1crudjti")),
    ("blocks", "AwsKeys", ("akia", "asia", "abia", "acca")),
    (
        "tokens",
        "Tokens",
        (
            *("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
            *("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "gloas-", "glsoat-", "glft-", "glagent-"),
            *("glwt-", "gr1348941", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxe.xox", "xapp-"),
            *("hooks.slack.com/", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_", "sk-ant-", "sk-or-v1-"),
            *("sk-", "aiza", "gocspx-", "ya29.", "1//0", "hf_", "npm_", "pypi-age", "sg.", "dop_v1_", "doo_v1_"),
            *("dor_v1_", "shpat_", "shpca_", "shppa_", "shpss_", "dapi", "atatt3", "lin_api_", "dp.pt.", "dp.st."),
            *("dp.sa.", "dp.ct.", "dp.scim.", "dp.audit.", "age-secret-key-1", "hvs.", "hvb.", "hvr.", ".atlasv1."),
            *("glc_", "glsa_", "sntrys_", "sntryu_", "nrak-", "pmak-", "pul-", "key-", "sl.", ":aa"),
            *("discord.com/api/webhooks/", "discordapp.com/api/webhooks/", "sq0atp-", "sq0csp-", "accountkey="),
            "sharedaccesskey=",
        ),
    ),
    ("tokens", "Jwt", ("eyj",)),
    ("web", "UrlCredentials", ("://",)),
    ("web", "UrlSignatures", ("x-amz-signature=", "x-goog-signature=", "x-amz-security-token=", "sig=")),
    ("web", "Authorization", ("bearer", "basic ", "authorization")),
    ("blocks", "Netrc", ("password ",)),
    ("blocks", "DockerAuth", ('"auth"', "eyjhdxrocyi6")),
    (
        "commands",
        "CommandFlags",
        (
            *("mysql", "mariadb", "sshpass", "curl", "twine", "mongo", "redis-cli", "sqlcmd", "bcp ", "zip ", "7z"),
            *("ldap", "smbclient", "rpcclient", "lftp", "sqlplus", "htpasswd", " login"),
        ),
    ),
    (
        "assignments",
        "Assignments",
        tuple(
            k + "="
            for k in (
                *("password", "passwd", "passphrase", "pass", "pwd", "secret", "secretstring", "token"),
                *("credential", "credentials", "key", "auth"),
            )
        ),
    ),
)


def load(index: int) -> Detector:
    """The detector `REGISTRY[index]` names, its module imported on first use."""
    import sys

    module, name, _ = REGISTRY[index]
    path = f"tokenjuice.detectors.{module}"
    __import__(path)  # `importlib.import_module` without importing `importlib`
    cls: type[Detector] = getattr(sys.modules[path], name)
    return cls()


def line_bounds(text: str, pos: int, before: int = WINDOW, after: int = WINDOW) -> tuple[int, int]:
    """The line holding `pos`, cut to `before`/`after` characters around it."""
    lo = max(0, pos - before)
    nl = text.rfind("\n", lo, pos)
    start = nl + 1 if nl >= 0 else lo
    hi = min(len(text), pos + after)
    nl = text.find("\n", pos, hi)
    end = nl if nl >= 0 else hi
    if end > start and text[end - 1] == "\r":
        end -= 1
    return start, end


def boundary_before(text: str, pos: int, extra: str = "") -> bool:
    """No word character (or one of `extra`) right before `pos`."""
    return pos == 0 or (text[pos - 1] not in WORD_CHARS and text[pos - 1] not in extra)
