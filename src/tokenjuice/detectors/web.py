"""Credentials in URLs and HTTP headers.

- `scheme://user:password@host` for any scheme, the user name possibly empty
  (`redis://:secret@host`); a bare `https://TOKEN@host` when the user is a random
  string. The password is masked, the user and host stay.
- Signed URLs: `X-Amz-Signature=`, `X-Goog-Signature=`, Azure SAS `sig=` and
  `X-Amz-Security-Token=` grant access until they expire.
- `Authorization:` headers: `Bearer X`, `Basic <base64 of user:password>` (checked by
  decoding it), and other schemes (`token X`, `Bot X`, a bare value).
"""

from __future__ import annotations

from tokenjuice.detectors import Detector, Hits, Span, boundary_before, line_bounds, values

# Where a URL's authority (`user:password@host:port`) ends.
_AUTHORITY_END = frozenset("/?#\"'<>`\\ \t\r\n[]{}|^")
MAX_AUTHORITY = 512


class UrlCredentials(Detector):
    kinds = ("url-password",)

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        for pos, _ in hits:
            if not text.startswith("://", pos):
                continue
            a = pos + 3
            limit = min(len(text), a + MAX_AUTHORITY)
            at = text.find("@", a, limit)
            if at < 0:
                continue
            end = a
            while end < limit and text[end] not in _AUTHORITY_END:
                end += 1
            at = text.rfind("@", a, end)
            if at < 0:
                continue
            userinfo = text[a:at]
            colon = userinfo.find(":")
            if colon >= 0:
                pw = userinfo[colon + 1 :]
                if values.acceptable(pw, values.LITERAL, userinfo[:colon], min_len=3):
                    out.append((a + colon + 1, at, "url-password", True))
            elif values.looks_random(userinfo) and not values.is_placeholder(userinfo):
                out.append((a, at, "url-password", True))


_VALUE_END = frozenset("&#\"'<> \t\r\n")


class UrlSignatures(Detector):
    kinds = ("url-signature",)

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        for pos, trigger in hits:
            if pos == 0 or text[pos - 1] not in "?&;" or text[pos + len(trigger) - 1] != "=":
                continue
            ls, le = line_bounds(text, pos, before=8192, after=8192)
            if trigger == "sig=" and text.find("sv=", ls, le) < 0:
                continue  # only an Azure shared access signature says `sv=` (its version)
            v0 = pos + len(trigger)
            v1 = v0
            while v1 < le and text[v1] not in _VALUE_END:
                v1 += 1
            value = text[v0:v1]
            if len(value) >= 16 and not values.is_reference(value) and not values.is_placeholder(value):
                out.append((v0, v1, "url-signature", True))


# A header credential: RFC 7235's token68 (base64, base64url and friends).
_CRED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/")
# Schemes whose value is not a reusable secret (a signature over one request).
_SIGNED_SCHEMES = frozenset({"digest", "aws4-hmac-sha256", "hoba", "mutual", "vapid", "signature", "hmac"})


def _credential(text: str, i: int, end: int) -> int:
    """End of the token68 credential starting at `i`."""
    j = i
    while j < end and text[j] in _CRED:
        j += 1
    while j < end and text[j] == "=":
        j += 1
    return j


class Authorization(Detector):
    kinds = ("bearer-token", "basic-auth", "authorization")

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        for pos, trigger in hits:
            if not boundary_before(text, pos):
                continue
            if trigger == "bearer":
                self._scheme(text, pos, 6, out)
            elif trigger == "basic ":
                self._scheme(text, pos, 5, out)
            else:
                self._header(text, pos, out)

    def _scheme(self, text: str, pos: int, n: int, out: list[Span]) -> None:
        _, le = line_bounds(text, pos, before=0)
        i = pos + n
        if i >= le or text[i] not in " \t":
            return
        while i < le and text[i] in " \t":
            i += 1
        j = _credential(text, i, le)
        value = text[i:j]
        if j < le and text[j] in "\"'" and value.endswith("="):
            return  # an auth parameter (`Bearer realm="api"`), not a credential
        if n == 6:
            if _bearer_value(value):
                out.append((i, j, "bearer-token", True))
        elif values.encodes_credentials(value):
            out.append((i, j, "basic-auth", True))

    def _header(self, text: str, pos: int, out: list[Span]) -> None:
        _, le = line_bounds(text, pos, before=0)
        i = pos + len("authorization")
        ns = pos
        while ns > 0 and pos - ns < 32 and (text[ns - 1].isalpha() or text[ns - 1] == "-"):
            ns -= 1  # `Proxy-Authorization`
        quoted_name = ns > 0 and text[ns - 1] in "\"'" and text[i : i + 1] == text[ns - 1]
        while i < le and text[i] in "\"'\\ \t":
            i += 1
        if i >= le or text[i] != ":":
            return
        i += 1
        while i < le and text[i] in " \t":
            i += 1
        quote = ""
        if i < le and text[i] in "\"'":
            quote = text[i]
            i += 1
        if quoted_name and not quote:
            return  # `"Authorization": header_value` in code: a variable, not a value
        j = _credential(text, i, le)
        first = text[i:j]
        low = first.lower()
        if not first or low in ("bearer", "basic") or low in _SIGNED_SCHEMES:
            return
        if j < le and text[j] == " " and first.replace("-", "").isalpha() and len(first) <= 16:
            k = j
            while k < le and text[k] == " ":
                k += 1
            e = _credential(text, k, le)
            if e > k:
                i, j = k, e
        value = text[i:j]
        if _bearer_value(value) and values.acceptable(value.rstrip("="), values.LITERAL, "authorization", min_len=8):
            out.append((i, j, "authorization", True))


def _bearer_value(value: str) -> bool:
    v = value.rstrip("=").rstrip(".")
    if len(v) < 8 or values.is_placeholder(v) or values.is_reference(v):
        return False
    if any(c.isdigit() for c in v):
        return True
    # Letters only: a generated token is long and mixes cases or joins with symbols;
    # prose after the word "Bearer" is neither.
    return len(v) >= 16 and (values.classes(v) >= 2 or any(c in "-_~+/" for c in v))


DETECTORS: tuple[Detector, ...] = (UrlCredentials(), UrlSignatures(), Authorization())
