"""Secrets recognised with their surroundings: private-key blocks (over several lines,
each line its own span), AWS key pairs (an access key id, and a 40-character secret
near it), `.netrc` passwords and Docker registry auth.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.detectors import Detector, Hits, Span, boundary_before, line_bounds, values

_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
# What may stand before a key line: indentation, a diff or quote marker, a string's quote.
_LINE_LEAD = " \t+-<>|#*\"'"
_LINE_TAIL = " \t\"',;\\"
# A block longer than this many lines is cut (its first lines are masked).
MAX_BLOCK_LINES = 2000


class PrivateKeys(Detector):
    """`-----BEGIN … PRIVATE KEY-----` blocks (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted,
    PGP), also on one line with escaped newlines (a JSON service-account file), and the
    same block base64-encoded (`LS0tLS1CRUdJTi…`, a kubeconfig's client-key-data)."""

    kinds = ("private-key",)

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        done = -1
        for pos, trigger in hits:
            if pos < done:
                continue
            if trigger == "ls0tls1crudjti":
                done = max(done, self._encoded(text, pos, out))
            else:
                done = max(done, self._block(text, pos, out))

    def _block(self, text: str, pos: int, out: list[Span]) -> int:
        m = _header().match(text, pos, min(len(text), pos + 200))
        if m is None:
            return -1
        _, le = line_bounds(text, pos, after=1 << 20)
        end_marker = text.find("-----END", m.end(), le)
        if end_marker >= 0:  # the whole block on one line (`\n` escapes)
            body = text[m.end() : end_marker].replace("\\n", "").replace("\\r", "").strip(" \t")
            if len(body) >= 16 and all(c in _B64 for c in body):
                out.append((m.end(), end_marker, "private-key", True))
            return end_marker
        counted = True
        line_start = le + 1
        if le < len(text) and text[le] == "\r":
            line_start += 1
        for _ in range(MAX_BLOCK_LINES):
            if line_start >= len(text):
                break
            s, e = line_bounds(text, line_start, before=0)
            if "-----END" in text[s:e]:
                break
            span = _key_line(text, s, e)
            if span is None:
                break  # not a key line: the block was cut short
            if span[1] > span[0]:
                out.append((span[0], span[1], "private-key", counted))
                counted = False
            line_start = e + 1
            if e < len(text) and text[e] == "\r":
                line_start += 1
        return line_start

    def _encoded(self, text: str, pos: int, out: list[Span]) -> int:
        if not text.startswith("LS0tLS1CRUdJTi", pos) or not boundary_before(text, pos, "+/"):
            return -1
        end = pos
        limit = min(len(text), pos + (1 << 20))
        while end < limit and text[end] in _B64:
            end += 1
        import binascii

        head = text[pos : pos + min(end - pos, 160) // 4 * 4]
        try:
            decoded = binascii.a2b_base64(head)
        except (binascii.Error, ValueError):
            return -1
        if b"PRIVATE KEY" not in decoded:
            return -1
        out.append((pos, end, "private-key", True))
        return end


_header_rx: re.Pattern[str] | None = None


def _header() -> re.Pattern[str]:
    global _header_rx
    if _header_rx is None:
        _header_rx = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
    return _header_rx


def _key_line(text: str, s: int, e: int) -> tuple[int, int] | None:
    """The base64 part of a key block's line (empty for a header field or a blank line),
    or None when the line is not part of a key block."""
    a, b = s, e
    while a < b and text[a] in _LINE_LEAD:
        a += 1
    while b > a and text[b - 1] in _LINE_TAIL:
        b -= 1
    if b > a and text[b - 2 : b] == "\\n":
        b -= 2
    if a == b:
        return (a, a)
    body = text[a:b]
    if ": " in body and body.split(":", 1)[0].replace("-", "").isalpha():
        return (a, a)  # `Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`, `Comment: …`
    if all(c in _B64 for c in body):
        return (a, b)
    return None


_AWS_PREFIXES = ("AKIA", "ASIA", "ABIA", "ACCA")
# How far from an access key id its secret is looked for (characters each way).
AWS_NEAR = 1200


class AwsKeys(Detector):
    """An AWS access key id (AKIA/ASIA/ABIA/ACCA and 16 characters), and any 40-character
    secret-alphabet string that mixes cases and digits within a few lines of it."""

    kinds = ("aws-access-key", "aws-secret-key")
    _id: re.Pattern[str] | None = None
    _secret: re.Pattern[str] | None = None

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        if AwsKeys._id is None:
            AwsKeys._id = re.compile(r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])")
            AwsKeys._secret = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
        assert self._id is not None
        assert self._secret is not None
        near: list[list[int]] = []  # the windows around the key ids, merged
        for pos, _ in hits:
            if not text.startswith(_AWS_PREFIXES, pos) or not boundary_before(text, pos):
                continue
            m = self._id.match(text, pos)
            if m is None:
                continue
            out.append((m.start(), m.end(), "aws-access-key", True))
            lo, hi = max(0, pos - AWS_NEAR), min(len(text), pos + AWS_NEAR)
            if near and lo <= near[-1][1]:
                near[-1][1] = hi
            else:
                near.append([lo, hi])
        for lo, hi in near:
            while hi < len(text) and text[hi] in _B64:
                hi += 1  # a string cut by the window's end is not 40 characters long
            for s in self._secret.finditer(text, lo, hi):
                if _aws_secret_shape(s.group(0)):
                    out.append((s.start(), s.end(), "aws-secret-key", True))


def _aws_secret_shape(v: str) -> bool:
    upper = any("A" <= c <= "Z" for c in v)
    lower = any("a" <= c <= "z" for c in v)
    other = any(c.isdigit() or c in "/+" for c in v)
    return upper and lower and other and not values.is_placeholder(v)


class Netrc(Detector):
    """`machine HOST login USER password SECRET` (`.netrc`, on one line or several)."""

    kinds = ("netrc-password",)

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        word = "password"
        for pos, _ in hits:
            if not boundary_before(text, pos, "-.$@\"'") or not text.startswith(word, pos):
                continue
            if text[pos + len(word) : pos + len(word) + 1] not in (" ", "\t"):
                continue
            ls, le = line_bounds(text, pos, before=512, after=512)
            if pos > ls and not text[pos - 1].isspace():
                continue
            v0 = pos + len(word)
            while v0 < le and text[v0] in " \t":
                v0 += 1
            v1 = v0
            while v1 < le and not text[v1].isspace():
                v1 += 1
            value = text[v0:v1]
            if not value or not _netrc_context(text, ls, pos):
                continue
            if values.acceptable(value, values.LITERAL, word, min_len=3):
                out.append((v0, v1, "netrc-password", True))


def _netrc_context(text: str, ls: int, pos: int) -> bool:
    if _word_before(text, "machine", ls, pos) or _word_before(text, "default", ls, pos):
        return True
    # The several-line form: `machine` starts one of the three lines above.
    start = ls
    for _ in range(3):
        if start <= 0 or text[start - 1] != "\n":
            return False
        prev, _ = line_bounds(text, start - 1, before=512, after=0)
        words = text[prev : start - 1].split()
        if words and words[0] in ("machine", "default"):
            return True
        if not words or words[0] not in ("login", "account", "port"):
            return False
        start = prev
    return False


def _word_before(text: str, word: str, lo: int, hi: int) -> bool:
    """`word` stands alone (between blanks or quotes) somewhere in [lo, hi)."""
    i = text.rfind(word, lo, hi)
    while i >= 0:
        end = i + len(word)
        if (i == lo or text[i - 1] in " \t'\"") and end < len(text) and text[end] in " \t":
            return True
        i = text.rfind(word, lo, i)
    return False


class DockerAuth(Detector):
    """`"auth": "<base64 of user:password>"` in a Docker config, and a whole config
    base64-encoded (`eyJhdXRocyI6…`, a `.dockerconfigjson` secret)."""

    kinds = ("docker-auth",)

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        for pos, trigger in hits:
            if trigger == "eyjhdxrocyi6":
                if not text.startswith("eyJhdXRocyI6", pos) or not boundary_before(text, pos, "+/"):
                    continue
                end = pos
                while end < len(text) and end - pos < (1 << 20) and text[end] in _B64:
                    end += 1
                out.append((pos, end, "docker-auth", True))
                continue
            if text[pos : pos + 6] != '"auth"':
                continue
            _, le = line_bounds(text, pos, before=0, after=2048)
            i = pos + 6
            while i < le and text[i] in " \t":
                i += 1
            if i >= le or text[i] != ":":
                continue
            i += 1
            while i < le and text[i] in " \t":
                i += 1
            if i >= le or text[i] != '"':
                continue
            end = text.find('"', i + 1, le)
            if end < 0:
                continue
            if values.encodes_credentials(text[i + 1 : end]):
                out.append((i + 1, end, "docker-auth", True))


FIRST: tuple[Detector, ...] = (PrivateKeys(), AwsKeys())
LATER: tuple[Detector, ...] = (Netrc(), DockerAuth())
