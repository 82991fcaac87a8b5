"""Secrets found by their name: `DB_PASSWORD=…`, `"api_key": "…"`, `token: …`,
`--password X`, `?access_token=…`, and Kubernetes/ECS `name:`/`value:` pairs.

The name decides that a value may be a secret; the value has to be a literal that
looks like one (see `values`): never an identifier, an attribute, a call, a type
annotation, an environment lookup, a placeholder or an empty value. The name is
the last part of a dotted name (`self.password`) and must end with its keyword at a
word boundary (`dbPassword`, `DB_PASSWORD`, `db-password`, not `bypass`).
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.detectors import Detector, Hits, Span, line_bounds, values
from tokenjuice.detectors.values import words

# keyword -> "strong" (its value is a secret) or "weak" (only a random value is: a
# `cache_key` or an `auth` setting usually holds a name).
KEYWORDS = {
    "password": "strong",
    "passwd": "strong",
    "passphrase": "strong",
    "pass": "strong",
    "pwd": "strong",
    "secret": "strong",
    "secretstring": "strong",
    "token": "strong",
    "credential": "strong",
    "credentials": "strong",
    "key": "weak",
    "auth": "weak",
}
# Keywords that need a word boundary before them (`bypass`, `monkey`, `oauth` are not names).
_BOUNDED = frozenset({"pass", "pwd", "key", "auth"})
# `<prefix>_key` names whose value is a secret.
_STRONG_KEY_PREFIXES = (
    "api",
    "access",
    "secret",
    "private",
    "auth",
    "master",
    "signing",
    "encryption",
    "client",
    "app",
    "service",
    "account",
    "subscription",
    "admin",
    "session",
    "hmac",
    "jwt",
    "webhook",
    "license",
    "storage",
)
# Names that end with a keyword and hold no credential: pagination and request handles,
# tokenizer settings, public or structural keys, the shell's working directory.
_NOT_SECRET_PREFIXES = {
    "token": words(
        "next page pagination continuation sync idempotency client request resume cursor prev previous cancellation "
        "cancel delta skip change max min num total input output special eos bos pad unk sep cls mask start end "
        "stop first last batch"
    ),
    "key": words("public publishable pub foreign primary sort partition range hash cache idempotency"),
    "pwd": frozenset({"", "old"}),
}
# Flags that switch a behaviour instead of taking a value (`--no-password`, `--ask-pass`).
_SWITCH_PREFIXES = words("no ask prompt skip require without disable enable show print read use")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_CODE_AFTER = frozenset(",)}];|")
# A bare value ends at a blank, a quote, a shell operator, or a backslash (in text
# quoted as JSON, `\n` is a line break).
_ENV_END = frozenset(" \t\r\"';|`<>)\\")
_QUERY_END = frozenset(" \t\r\"'&#<>;\\")
_OTHER_END = frozenset(" \t\r\"'`,;)]}|<>&\\")
_QUOTES = "\"'`"


def strength(name: str, keyword: str, *, flag: bool = False) -> str | None:
    """Whether `name` (its last dotted part) names a secret: "strong", "weak" or None."""
    last = name.rsplit(".", 1)[-1]
    if last != name and last[:1].isupper() and not last.isupper():
        return None  # `pygments.token.Token`: a class, not a value's name
    n = len(keyword)
    if len(last) < n or last[-n:].lower() != keyword:
        return None
    prefix = last[:-n]
    bare = prefix.rstrip("_-").lower()
    word = bare.replace("-", "_").rsplit("_", 1)[-1]
    camel = bool(prefix) and last[-n].isupper() and (prefix[-1].islower() or prefix[-1].isdigit())
    boundary = not prefix or prefix[-1] in "_-" or camel
    if flag:
        if word in _SWITCH_PREFIXES:
            return None
        boundary = boundary or keyword == "pass"
    # `apikey`, `accesskey`: known prefixes need no boundary.
    if keyword in _BOUNDED and not boundary and (keyword != "key" or not bare.endswith(_STRONG_KEY_PREFIXES)):
        return None
    if word in _NOT_SECRET_PREFIXES.get(keyword, ()):
        return None
    if keyword == "key":
        if not bare:
            return None
        return "strong" if word.endswith(_STRONG_KEY_PREFIXES) or bare.endswith(_STRONG_KEY_PREFIXES) else "weak"
    return KEYWORDS[keyword]


_annotation: re.Pattern[str] | None = None


def _annotated(text: str, pos: int, end: int) -> int:
    """After `name:`, the `=` of a type annotation with a value (`password: str = "x"`),
    or -1."""
    global _annotation
    if _annotation is None:
        t = r"[A-Za-z_][\w.]*(?:\[[^\]\n]{0,80}\])?"
        _annotation = re.compile(rf"[ \t]*{t}(?:[ \t]*\|[ \t]*{t})*[ \t]*=(?![=>~])")
    m = _annotation.match(text, pos, end)
    return m.end() - 1 if m else -1


class Assignments(Detector):
    kinds = ("secret-assignment", "cli-password")

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        for pos, trigger in hits:
            span = _assignment(text, pos, trigger[:-1])
            if span is not None:
                out.append(span)


def _assignment(text: str, pos: int, keyword: str) -> Span | None:
    kw_end = pos + len(keyword)
    ls, le = line_bounds(text, pos)
    ns = pos
    while ns > ls and pos - ns < 96 and text[ns - 1] in _NAME_CHARS:
        ns -= 1
    if ns > ls and text[ns - 1] in "$@":
        ns -= 1
    name = text[ns:kw_end]
    if ns > ls and text[ns - 1] == "<":
        return None  # `<Secret: 'name'>`: an object's repr, or a tag
    # A flag follows a blank (a `-token …` line opening a diff hunk is not one).
    flag = name.startswith("-") and ns > ls and text[ns - 1] in " \t\"'=("
    if name.startswith("-") and not flag:
        return None
    bare_name = name.lstrip("-$@")
    power = strength(bare_name, keyword, flag=flag)
    if power is None:
        return None
    before = text[ns - 1] if ns > ls else ""
    i = kw_end
    quoted_name = False
    if before in _QUOTES and i < le and text[i] == before:
        quoted_name, i = True, i + 1
    elif before == '"' and ns - 1 > ls and text[ns - 2] == "\\" and text.startswith('\\"', i):
        quoted_name, i = True, i + 2  # `\"password\": \"…\"` inside a JSON string
    j = i
    while j < le and text[j] in " \t":
        j += 1
    sep = ""
    if j < le:
        ch, nx = text[j], text[j + 1 : j + 2]
        if ch == "=" and nx not in ("=", "~"):
            sep = "=>" if nx == ">" else "="
        elif ch == ":" and nx not in (":",):
            sep = ":=" if nx == "=" else ":"
        elif flag and j > i and ch not in "=:":
            sep = " "
    if not sep:
        return _pair(text, ns, kw_end, ls, le, bare_name, power)
    tight = j == i
    v0 = j + len(sep) if sep != " " else j
    if keyword == "pass" and bare_name.lower() == "pass" and sep == ":" and not (tight and v0 < le and text[v0] != " "):
        return None  # `PASS: test_x`, `"pass": "passed"`: a test's status (openssl's `pass:X` stays)
    if sep == ":" and v0 < le and text[v0] not in " \t\"'" and not quoted_name and keyword != "pass":
        return None  # `token:abc` is neither YAML nor a header (`https://user:pw@…` is a URL's)
    if sep == ":" and not quoted_name and not flag:
        eq = _annotated(text, v0, le)
        if eq >= 0:
            sep, tight, v0 = "=", False, eq + 1
    if v0 < le and text[v0] in " \t":
        tight = False
        while v0 < le and text[v0] in " \t":
            v0 += 1
    if v0 >= le:
        return None
    upper = not any(c.islower() for c in bare_name)
    query = before in ("?", "&", "#", ";") and sep == "="
    env = upper and sep in ("=", ":")
    got = _value(text, v0, le, _QUERY_END if query else _ENV_END if env and sep == "=" else _OTHER_END)
    if got is None:
        return None
    vs, ve, quoted, after = got
    value = text[vs:ve]
    if flag:
        if sep == " " and value.startswith("-"):
            return None
        tier = values.LITERAL
        if quoted:
            value = value.replace(" ", "")  # a flag's quoted value may hold blanks
    else:
        context = "query" if query else "quoted name" if quoted_name else "env" if env else ""
        tier = _tier(value, sep, tight, quoted, after, context)
    if power == "weak" and not (values.looks_random(value) or values.encodes_credentials(value)):
        return None
    if keyword != "key" and keyword in value.lower():
        return None  # `"pass": "passed"`, `token: token_type`: a word built on the name
    if not values.acceptable(value, tier, bare_name):
        return None
    return (vs, ve, "cli-password" if flag else "secret-assignment", True)


def _tier(value: str, sep: str, tight: bool, quoted: bool, after: str, context: str) -> int:
    """How much the value has to prove (see `values`), from how it is written: its
    separator, whether blanks surround it, whether it is quoted, what follows it, and
    whether the name is a URL query's, an environment variable's or a quoted key."""
    if quoted or context == "query" or (context == "env" and sep == "=" and tight):
        return values.LITERAL
    if context == "env" and sep == ":":
        return values.CODE if after in _CODE_AFTER or _type_like(value) else values.LITERAL
    if sep == "=" and tight and after in (";", "|", "&"):
        return values.LITERAL  # `--set db.password=…; next`: a shell command's argument
    if after in _CODE_AFTER or sep in (":=", "=>") or (context == "quoted name" and sep == ":"):
        return values.CODE
    if sep == "=" and not tight:
        return values.CODE if _code_like(value) else values.PROBABLE
    if sep == "=" and after not in ("", "#"):
        return values.LITERAL  # `host=db password=… dbname=app`, a command's `key=value` arguments
    return values.PROBABLE


def _value(text: str, v0: int, le: int, ends: frozenset[str]) -> tuple[int, int, bool, str] | None:
    """(start, end, quoted, the character after it) of the value at `v0`."""
    i = v0
    if text[i] in "bBrRuUfF" and i + 1 < le and (text[i + 1] in "\"'" or text[i + 1 : i + 3] in ('b"', "b'")):
        if "f" in text[i : i + 2].lower():
            return None  # an f-string: a template
        i += 1 if text[i + 1] in "\"'" else 2
    q = text[i] if i < le else ""
    if q in _QUOTES:
        close = i + 1
        while True:
            close = text.find(q, close, le)
            if close < 0:
                return None
            if text[close - 1] != "\\" or q == "`":
                break
            close += 1
        vs, ve = i + 1, close
        if text[ve - 1 : ve] == "\\":
            ve -= 1  # `\"secret\"`: the escaped quote's backslash
        k = close + 1
        while k < le and text[k] in " \t":
            k += 1
        after = text[k] if k < le else ""
        if (after and after in "+%[") or (after == "." and text[k + 1 : k + 2].isalpha()):
            return None  # a template or a piece of a longer expression
        return vs, ve, True, after
    if text.startswith('\\"', i):
        close = text.find('\\"', i + 2, le)
        if close < 0:
            return None
        return i + 2, close, True, text[close + 2 : close + 3]
    j = i
    while j < le and text[j] not in ends:
        j += 1
    k = j
    while k < le and text[k] in " \t":
        k += 1
    return i, j, False, text[k] if k < le else ""


def _code_like(value: str) -> bool:
    """`token`, `self.token`, `get_token()`, `tokens[0]`, `1*tchar`: an expression, not a
    literal."""
    head = value.split("(", 1)[0].split("[", 1)[0]
    if all(part.isidentifier() for part in head.split(".")):
        return True
    terms = value.replace("*", " ").replace("+", " ").replace("/", " ").replace("%", " ").split()
    return len(terms) > 1 and all(t.isidentifier() or t.isdigit() for t in terms)


def _type_like(value: str) -> bool:
    """`str`, `SecretStr`, `Optional[str]`: a type annotation's value."""
    head = value.split("[", 1)[0]
    if head.lower() in ("str", "bytes", "int", "bool", "float", "dict", "list", "any", "none", "optional", "string"):
        return True
    return head.isidentifier() and head[:1].isupper() and not any(c.isdigit() for c in head) and head != head.upper()


def _pair(text: str, ns: int, kw_end: int, ls: int, le: int, name: str, power: str) -> Span | None:
    """A secret's name given as the value of `name:` with the secret as `value:` next to
    it (Kubernetes env lists, ECS task definitions)."""
    head = text[max(ls, ns - 64) : ns].rstrip("\"' \t")
    if not head.endswith(("name:", '"name":', "'name':")):
        return None
    rest = text[kw_end:le]
    if rest.strip("\"' \t"):
        # JSON on one line: `{"name": "DB_PASSWORD", "value": "…"}`
        k = rest.find('"value"')
        if k < 0 or rest[:k].strip(" \t\"',") != "":
            return None
        colon = text.find(":", kw_end + k + len('"value"'), le)
        j = text.find('"', colon + 1, le) if colon >= 0 else -1
        if j < 0:
            return None
        got = _value(text, j, le, _OTHER_END)
    else:
        nxt = le + 1 if le < len(text) and text[le] == "\n" else le + 2
        if nxt >= len(text):
            return None
        s, e = line_bounds(text, nxt, before=0, after=2048)
        line = text[s:e]
        stripped = line.lstrip(" \t-")
        if not stripped.startswith("value:"):
            return None
        v0 = e - len(stripped) + len("value:")
        while v0 < e and text[v0] in " \t":
            v0 += 1
        if v0 >= e:
            return None
        got = _value(text, v0, e, _ENV_END)
    if got is None:
        return None
    vs, ve, _, _ = got
    value = text[vs:ve]
    if power == "weak" and not (values.looks_random(value) or values.encodes_credentials(value)):
        return None
    if not values.acceptable(value, values.LITERAL, name):
        return None
    return (vs, ve, "secret-assignment", True)


DETECTORS: tuple[Detector, ...] = (Assignments(),)
