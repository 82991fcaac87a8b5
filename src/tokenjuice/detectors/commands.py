"""Passwords given to well-known programs on their command line.

Long flags (`--password X`, `--password=X`, `--token …`) are the assignment
detector's; here are the short and program-specific forms, looked for only in the
program's own command (up to `;`, `|`, `&` or the end of the line):

    mysql/mariadb… -pSECRET       sshpass -p SECRET       curl -u user:SECRET
    docker/podman/… login -p S    twine -p S              mongosh -p S
    redis-cli -a S                sqlcmd/bcp -P S         zip/unzip -P S, 7z -pS
    ldapsearch… -w S              smbclient -U user%S     lftp -u user,S
    sqlplus user/S@db             htpasswd -b file user S
"""

from __future__ import annotations

from tokenjuice.detectors import Detector, Hits, Span, line_bounds, values

# Flag → how its value is given: "attached" (-pS), "next" (-p S), "either".
_PASSWORD_FLAGS: dict[str, dict[str, str]] = {
    "mysql": {"-p": "attached"},
    "mariadb": {"-p": "attached"},
    "sshpass": {"-p": "either"},
    "login": {"-p": "either"},  # docker/podman/nerdctl/buildah/skopeo/oras/helm/crane/az login
    "twine": {"-p": "either"},
    "mongo": {"-p": "next"},
    "redis-cli": {"-a": "either"},
    "sqlcmd": {"-P": "either"},
    "bcp": {"-P": "either"},
    "zip": {"-P": "next"},
    "unzip": {"-P": "next"},
    "7z": {"-p": "attached"},
    "ldap": {"-w": "either"},
}
# Flag(s) giving `user<sep>password`, and the separator.
_USER_FLAGS: dict[str, tuple[tuple[str, ...], str]] = {
    "curl": (("-u", "--user", "-U", "--proxy-user"), ":"),
    "smbclient": (("-U", "--user"), "%"),
    "rpcclient": (("-U", "--user"), "%"),
    "lftp": (("-u",), ","),
}
_LOGIN_PROGRAMS = frozenset({"docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "helm", "crane", "az"})
_FAMILIES = ("mysql", "mariadb", "mongo", "ldap", "7z")
_SEGMENT_END = frozenset(";|&`)\n")
# Characters that may stand right before a program name: the line's start, blanks,
# a path (`/usr/bin/mysql`), a shell operator, a quote, `+ ` of `set -x`.
_BEFORE_PROGRAM = frozenset(" \t/;|&(`'\"+=\n")


class CommandFlags(Detector):
    kinds = ("cli-password",)

    def find(self, text: str, hits: Hits, out: list[Span]) -> None:
        done = -1
        for pos, trigger in hits:
            if pos < done:
                continue
            if trigger == " login":
                program, start = _login_program(text, pos)
            else:
                program, start = _program(text, pos)
            if program is None:
                continue
            tokens = _tokens(text, start)
            if not tokens:
                continue
            done = tokens[-1][1]
            _flags(text, program, tokens, out)


def _program(text: str, pos: int) -> tuple[str | None, int]:
    if pos > 0 and text[pos - 1] not in _BEFORE_PROGRAM:
        return None, pos
    end = pos
    while end < len(text) and end - pos < 32 and (text[end].isalnum() or text[end] in "-_."):
        end += 1
    if end >= len(text) or text[end] not in " \t":
        return None, pos
    word = text[pos:end]
    if word in _PASSWORD_FLAGS or word in _USER_FLAGS or word in ("sqlplus", "htpasswd"):
        return word, end
    for family in _FAMILIES:
        if word.startswith(family) and (word[len(family) :].isalpha() or word[len(family) :][:1] in "-a"):
            return family, end
    return None, pos


def _login_program(text: str, pos: int) -> tuple[str | None, int]:
    """`docker login`, `helm registry login`, `crane auth login`: the program a few
    words before ` login`."""
    ls, _ = line_bounds(text, pos, before=64, after=0)
    words = text[ls:pos].split()
    if not words:
        return None, pos
    for w in words[-3:]:
        if w.rsplit("/", 1)[-1] in _LOGIN_PROGRAMS:
            return "login", pos + len(" login")
    return None, pos


def _tokens(text: str, start: int) -> list[tuple[int, int]]:
    """The shell words of the command after the program, as (start, end) in `text`."""
    _, le = line_bounds(text, start, before=0)
    out: list[tuple[int, int]] = []
    i = start
    while i < le:
        while i < le and text[i] in " \t":
            i += 1
        if i >= le or text[i] in _SEGMENT_END:
            break
        s = i
        quote = ""
        while i < le:
            ch = text[i]
            if quote:
                if ch == quote:
                    quote = ""
                elif ch == "\\" and quote == '"':
                    i += 1
            elif ch in "\"'":
                quote = ch
            elif ch == "\\":
                i += 1
            elif ch in " \t" or ch in _SEGMENT_END:
                break
            i += 1
        out.append((s, min(i, le)))
        if len(out) > 256:
            break
    return out


def _unquote(text: str, s: int, e: int) -> tuple[int, int]:
    if e - s >= 2 and text[s] in "\"'" and text[e - 1] == text[s]:
        return s + 1, e - 1
    return s, e


def _add(text: str, s: int, e: int, out: list[Span], name: str = "password") -> None:
    s, e = _unquote(text, s, e)
    # A quoted value may hold blanks (`sshpass -p 'two words'`): the flag says it is one.
    if values.acceptable(text[s:e].replace(" ", ""), values.LITERAL, name, min_len=3):
        out.append((s, e, "cli-password", True))


def _flags(text: str, program: str, tokens: list[tuple[int, int]], out: list[Span]) -> None:
    words = [text[s:e] for s, e in tokens]
    if program == "sqlplus":
        _sqlplus(text, tokens, words, out)
        return
    if program == "htpasswd":
        _htpasswd(text, tokens, words, out)
        return
    if program in _USER_FLAGS:
        flags, sep = _USER_FLAGS[program]
        for k, w in enumerate(words):
            s, e = tokens[k]
            value_at: int | None = None
            for f in flags:
                if w == f and k + 1 < len(words):
                    value_at = tokens[k + 1][0]
                    s, e = tokens[k + 1]
                elif w.startswith(f + "=") and f.startswith("--"):
                    value_at = s + len(f) + 1
                elif len(f) == 2 and w.startswith(f) and len(w) > 2 and not w.startswith("--"):
                    value_at = s + 2
            if value_at is None:
                continue
            vs, ve = _unquote(text, value_at, e)
            cut = text.find(sep, vs, ve)
            if cut >= 0:
                _add(text, cut + 1, ve, out)
        return
    for flag, how in _PASSWORD_FLAGS[program].items():
        for k, w in enumerate(words):
            if w == flag and how in ("next", "either") and k + 1 < len(words):
                if not words[k + 1].startswith("-"):
                    _add(text, *tokens[k + 1], out)
            elif w.startswith(flag) and len(w) > len(flag) and how in ("attached", "either"):
                _add(text, tokens[k][0] + len(flag), tokens[k][1], out)


def _sqlplus(text: str, tokens: list[tuple[int, int]], words: list[str], out: list[Span]) -> None:
    for k, w in enumerate(words):
        if w.startswith(("-", "@", "/")):
            continue
        slash = w.find("/")
        if slash > 0:
            at = w.find("@", slash)
            s = tokens[k][0]
            _add(text, s + slash + 1, s + (at if at > 0 else len(w)), out)
        return


def _htpasswd(text: str, tokens: list[tuple[int, int]], words: list[str], out: list[Span]) -> None:
    flags = "".join(w[1:] for w in words if w.startswith("-") and not w.startswith("--"))
    if "b" not in flags:
        return
    positional = [k for k, w in enumerate(words) if not w.startswith("-")]
    want = 1 if "n" in flags else 2
    if len(positional) > want:
        _add(text, *tokens[positional[want]], out)


DETECTORS: tuple[Detector, ...] = (CommandFlags(),)
