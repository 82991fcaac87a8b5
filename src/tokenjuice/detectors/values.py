"""Is this value a secret? Shapes of literals, references, placeholders and randomness.

A detector that finds a value by its name (`password = …`, `--token X`) asks here
whether the value itself is a secret literal. How sure the context is decides how
much the value has to prove:

- LITERAL: the value cannot be code (a quoted string, a shell/env assignment to an
  upper-case name, a URL query parameter, a command-line flag's argument): any
  literal that is not a placeholder, a reference or a plain name/number/path.
- PROBABLE: a bare value that is most likely data (YAML `key: value`, `key=value`
  at the end of a line): it must also hold a digit or a symbol, or be random.
- CODE: a bare value in code position (followed by `,` `)` `}` …, or an identifier
  after `name = `): only a value that looks randomly generated.
"""

from __future__ import annotations

from itertools import pairwise


def words(text: str) -> frozenset[str]:
    """The blank-separated words of `text` (long word lists read better as prose)."""
    return frozenset(text.split())


LITERAL = 0
PROBABLE = 1
CODE = 2

# Values documentation and code use in place of a secret, compared lower-cased after
# stripping a `_here`/`-here` tail and digits (`password123` is still a placeholder).
_PLACEHOLDER_WORDS = words(
    """
    password passwd pass pwd passphrase pw secret secrets token tokens key apikey api_key api-key
    accesskey access_key secretkey secret_key privatekey private_key credential credentials auth
    bearer basic changeme changeit change_me change-me replaceme replace_me replace-me example
    sample dummy fake test testing tests placeholder redacted hidden masked removed unset none
    null nil true false undefined empty default required optional string str bytes value values
    foo bar baz qux quux xyz abc abcd abcdef hello world mysecret mypassword mytoken mykey yes no
    on off enabled disabled todo fixme tbd notset not_set not-set na n/a unknown anonymous
    guest user username login admin_password your_password your_token your_key secret_value
    token_value env environment config settings
    """
)
# Words that name a secret: a value made of words, one of them these, describes one.
_NAME_WORDS = words("password passwd pass pwd passphrase secret token key apikey credential credentials")
_PLACEHOLDER_PREFIXES = (
    "your_",
    "your-",
    "yourapi",
    "your.",
    "my_",
    "my-",
    "example",
    "sample",
    "dummy",
    "fake",
    "placeholder",
    "replace",
    "insert",
    "enter_",
    "enter-",
    "put_",
    "put-",
    "todo",
    "fixme",
    "xxx",
    "<",
    "redacted",
    "[redacted",
)
# Python builtins and common type names: `password: str` is an annotation, not a value.
_TYPE_NAMES = words(
    "str bytes int float bool dict list tuple set frozenset object any none bytearray "
    "string number boolean char void optional"
)
_SYMBOLS = frozenset("!#$%&*+/:;<=>?@^|~'\"`\\,()[]{}")


def classes(value: str) -> int:
    """How many of lower case, upper case, digits and symbols the value mixes
    (`_`, `-` and `.` join words and count as none)."""
    lower = upper = digit = symbol = 0
    for ch in value:
        if "a" <= ch <= "z":
            lower = 1
        elif "A" <= ch <= "Z":
            upper = 1
        elif "0" <= ch <= "9":
            digit = 1
        elif ch in _SYMBOLS or ord(ch) > 127:
            symbol = 1
    return lower + upper + digit + symbol


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    import math  # an extension module to load: only for a value worth judging

    n = len(value)
    if not n:
        return 0.0
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _is_identifier(value: str) -> bool:
    return value.isidentifier() and value.isascii()


def _is_dotted_name(value: str) -> bool:
    parts = value.split(".")
    return len(parts) > 1 and all(_is_identifier(p) for p in parts)


def _is_number(value: str) -> bool:
    """`4096`, `1.5`, `30s`, `512MiB`, `-1`, `0x1f`: counts, sizes and durations."""
    v = value.lstrip("+-")
    if v[:2].lower() == "0x" and len(v) > 2 and all(c in "0123456789abcdefABCDEF" for c in v[2:]) and len(v) <= 10:
        return True
    i = 0
    while i < len(v) and (v[i].isdigit() or v[i] == "."):
        i += 1
    if i == 0 or not any(c.isdigit() for c in v[:i]):
        return False
    unit = v[i:]
    return not unit or (len(unit) <= 3 and unit.isalpha())


def _is_version(value: str) -> bool:
    """`1:4.13+dfsg1-1+deb12u1`, `2.9-1~bpo12+1`, `v1.2.3`: a package version."""
    v = value[1:] if value[:1] in "vV" else value
    head, _, _ = v.partition(":") if v.split(":", 1)[0].isdigit() else ("", "", "")
    if head:
        v = v[len(head) + 1 :]
    digits = v.split("-", 1)[0].split("+", 1)[0].split("~", 1)[0]
    parts = digits.split(".")
    return len(parts) > 1 and all(p.isdigit() for p in parts[:2]) and all(p.isalnum() for p in parts)


def _is_path(value: str) -> bool:
    """`/etc/app/token.txt`, `~/.ssh/id_rsa`, `./secrets.json`, `C:\\keys\\a.pem`."""
    v = value
    if len(v) > 2 and v[1] == ":" and v[0].isalpha() and v[2] in "\\/":
        return True
    for lead in ("~/", "./", "../", "/"):
        if v.startswith(lead):
            rest = v[len(lead) :]
            if not rest:
                return True
            segments = rest.strip("/").split("/")
            ok = all(s and all(c.isalnum() or c in "._-@" for c in s) for s in segments)
            return ok and (len(segments) > 1 or "." in segments[-1] or lead != "/")
    return False


def looks_random(value: str) -> bool:
    """A generated secret: long, high entropy, letters and digits interleaved; not a
    name made of words (`token_value_2`, `Ed25519PrivateKey`)."""
    n = len(value)
    if n < 16 or entropy(value) < 3.0:
        return False
    if not any(c.isdigit() for c in value) or not any(c.isalpha() for c in value):
        return False
    if _wordy(value) * 2 >= n:
        return False
    switches = sum(1 for a, b in pairwise(value) if a.isdigit() != b.isdigit())
    return switches >= 3 or classes(value) >= 3


def _wordy(value: str) -> int:
    """How many characters are in word-like runs: `Private`, `key`, `HTTP` (a capital and
    two or more lower-case letters, three or more lower-case, or three capitals)."""
    covered = 0
    i, n = 0, len(value)
    while i < n:
        j = i
        if "A" <= value[j] <= "Z":
            j += 1
        k = j
        while k < n and "a" <= value[k] <= "z":
            k += 1
        if k - j >= 2 and (j > i or k - j >= 3):
            covered += k - i
            i = k
            continue
        k = i
        while k < n and "A" <= value[k] <= "Z":
            k += 1
        if k - i >= 3 and (k == n or not ("a" <= value[k] <= "z")):
            covered += k - i
            i = k
            continue
        i += 1
    return covered


def encodes_credentials(value: str) -> bool:
    """Base64 of `user:password` (HTTP Basic, `.npmrc`'s `_auth`, Docker's `auth`)."""
    import binascii

    if len(value) < 8 or len(value) % 4:
        return False
    try:
        decoded = binascii.a2b_base64(value).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    _, sep, password = decoded.partition(":")
    return bool(sep and password) and decoded.isprintable()


def is_reference(value: str) -> bool:
    """A value that names where the secret comes from instead of holding it: `$VAR`,
    `${VAR}`, `$(cmd)`, `%VAR%`, `%s`, `{name}`, `{{ secrets.X }}`, `<token>`, `#{x}`."""
    v = value
    if not v:
        return True
    first = v[0]
    if first in "$%{<[`@":
        return True
    if first == "#" and v[1:2] == "{":
        return True
    return "${" in v or "{{" in v or "%(" in v or "$(" in v or ("{" in v and "}" in v)


def is_placeholder(value: str, name: str = "") -> bool:
    """`YOUR_API_KEY`, `xxxx`, `****`, `changeme`, `<token>`, `...`, a value that
    repeats its own name, an upper-case name (`--password PASSWORD`)."""
    v = value.strip()
    low = v.lower()
    if not v or len(set(low)) <= 2:
        return True  # `xxxxxxxx`, `********`, `abababab`
    if "***" in v or "xxxx" in low or "..." in v or "…" in v or "•" in v or "redacted" in low:
        return True  # masked or elided by whoever printed it
    parts = low.replace("-", "_").replace(".", "_").split("_")
    if len(parts) > 1 and all(p.isalpha() for p in parts) and not _NAME_WORDS.isdisjoint(parts):
        return True  # `wrong_password`, `my-api-token`: a description of the value
    if low.startswith(_PLACEHOLDER_PREFIXES):
        return True
    word = low
    for tail in ("_here", "-here", "here"):
        if word.endswith(tail) and len(word) > len(tail):
            word = word[: -len(tail)]
    word = word.rstrip("0123456789") or word
    if word in _PLACEHOLDER_WORDS or low in _PLACEHOLDER_WORDS:
        return True
    if name and (low == name.lower() or low == name.lower().rsplit(".", 1)[-1].lstrip("$@-")):
        return True
    # An upper-case name (an environment variable's or a metavar): not a value.
    return all(c.isupper() or c == "_" for c in v) and any(c.isalpha() for c in v)


def acceptable(value: str, tier: int, name: str = "", *, min_len: int = 4) -> bool:
    """Whether a value found by its name or flag is a secret literal (see the tiers)."""
    v = value
    if len(v) < min_len or "[REDACTED" in v:
        return False
    if any(ch.isspace() for ch in v):
        return False  # prose or a message, not a credential
    if is_reference(v) or is_placeholder(v, name):
        return False
    if _is_number(v) or _is_version(v) or _is_path(v) or v.lower().startswith(("http://", "https://", "file://")):
        return False
    if v[-1] in "_-":
        return False  # a prefix alone (`ghp_`, `sk-`): how a token starts, not a token
    # A call, a subscript or an attribute: code that fetches the value.
    head = v.split("(", 1)[0].split("[", 1)[0]
    if head != v and (not head or _is_identifier(head) or _is_dotted_name(head)):
        return False
    if _is_dotted_name(v) and not looks_random(v):
        return False
    if tier == LITERAL:
        return True
    if tier == PROBABLE:
        if len(v) < 6:
            return False
        if v.lower() in _TYPE_NAMES or (_is_identifier(v) and v[0].isupper() and not looks_random(v)):
            return False
        has_digit_or_symbol = any(c.isdigit() or c in _SYMBOLS or ord(c) > 127 for c in v)
        return has_digit_or_symbol or looks_random(v)
    return looks_random(v)
