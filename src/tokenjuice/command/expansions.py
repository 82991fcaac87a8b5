"""Reading what a word expands: quotes, `$…` parameters, `${…}`, `$(…)`, backquotes,
`$((…))`; each reader records what it found on the word's `Token` and returns where
it ended."""

from __future__ import annotations

from tokenjuice.command.syntax import ANSI_C_ESCAPES, NAME_CHARS, NAME_START, SPECIAL_PARAMS, ShellSyntaxError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.command.syntax import Token


def double(s: str, i: int, tok: Token) -> tuple[str, int]:
    """A double-quoted string's body from `i` (after the quote): (value, end)."""
    out: list[str] = []
    n = len(s)
    while i < n:
        c = s[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\\" and i + 1 < n and s[i + 1] in '$`"\\\n':
            if s[i + 1] != "\n":
                out.append(s[i + 1])
            i += 2
        elif c in "$`":
            j = dollar(s, i, tok) if c == "$" else backquote(s, i, tok)
            out.append(s[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    raise ShellSyntaxError("unterminated double quote")


def ansi_c(s: str, i: int) -> tuple[str, int]:
    """A `$'…'` body from `i`: (decoded value, end)."""
    buf: list[str] = []
    n = len(s)
    while i < n and s[i] != "'":
        if s[i] == "\\" and i + 1 < n:
            buf.append(ANSI_C_ESCAPES.get(s[i + 1], s[i + 1]))
            i += 2
            continue
        buf.append(s[i])
        i += 1
    if i >= n:
        raise ShellSyntaxError("unterminated $'…' quote")
    return "".join(buf), i + 1


def dollar(s: str, i: int, tok: Token) -> int:
    """The expansion starting with the `$` at `i`; records it on `tok`; its end."""
    nxt = s[i + 1 : i + 2]
    if s.startswith("$((", i):
        end = arith_end(s, i + 3)
        expr = s[i + 3 : end - 2]
        tok.arith.append(expr)
        scan_text(expr, tok, arith=True)
        return end
    if nxt == "(":
        from tokenjuice.command.lexer import nested  # lexer reads words with this module

        end, sub = nested(s, i + 2)
        tok.subs.append(sub)
        return end
    if nxt == "{":
        return brace_param(s, i + 2, tok)
    if nxt and nxt in NAME_START:
        j = i + 2
        while j < len(s) and s[j] in NAME_CHARS:
            j += 1
        tok.refs.append(s[i + 1 : j])
        return j
    if nxt and nxt in SPECIAL_PARAMS:
        tok.refs.append(nxt)
        return i + 2
    return i + 1  # a lone `$` is itself


def brace_param(s: str, i: int, tok: Token) -> int:
    """`${…}` from `i` (after the brace): records the parameter and what its word expands."""
    n = len(s)
    j = i
    indirect = False
    if j < n and s[j] in "#!" and j + 1 < n and s[j + 1] not in "}":
        indirect = s[j] == "!"
        j += 1
    k = j
    while k < n and s[k] in NAME_CHARS:
        k += 1
    if k == j and k < n and s[k] in SPECIAL_PARAMS:
        k += 1
    if k == j:
        raise ShellSyntaxError("bad ${…} substitution")
    tok.refs.append("!" if indirect else s[j:k])
    if s.startswith((":=", "="), k):
        tok.sets.append(s[j:k])
    # The rest (`:-word`, `%pattern`, `[index]`, …) up to the matching brace.
    while k < n:
        c = s[k]
        if c == "}":
            return k + 1
        if c == "\\":
            k += 2
        elif c == "'":
            e = s.find("'", k + 1)
            if e < 0:
                raise ShellSyntaxError("unterminated single quote")
            k = e + 1
        elif c == '"':
            _, k = double(s, k + 1, tok)
        elif c == "$":
            k = dollar(s, k, tok)
        elif c == "`":
            k = backquote(s, k, tok)
        else:
            k += 1
    raise ShellSyntaxError("unterminated ${")


def backquote(s: str, i: int, tok: Token) -> int:
    """The backquoted command at `i`: lexed (after its own unescaping); its end."""
    n = len(s)
    j = i + 1
    body: list[str] = []
    while j < n and s[j] != "`":
        if s[j] == "\\" and j + 1 < n:
            body.append(s[j + 1] if s[j + 1] in "$`\\" else s[j : j + 2])
            j += 2
            continue
        body.append(s[j])
        j += 1
    if j >= n:
        raise ShellSyntaxError("unterminated backquote")
    from tokenjuice.command.lexer import tokenize  # lexer reads words with this module

    tok.subs.append(tokenize("".join(body)))
    return j + 1


def arith_end(s: str, i: int) -> int:
    """End of an arithmetic expression starting at `i` (inside `((`): past its `))`."""
    n = len(s)
    depth = 0
    while i < n:
        c = s[i]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                if s[i + 1 : i + 2] == ")":
                    return i + 2
                raise ShellSyntaxError("not an arithmetic expression")
            depth -= 1
        elif c in "'\"`\n;":
            # Quotes, commands or lines inside: a `$( (…) )` written without a space.
            raise ShellSyntaxError("not an arithmetic expression")
        i += 1
    raise ShellSyntaxError("unterminated arithmetic expression")


def regex_operand_end(s: str, i: int) -> int:
    """End of the right side of `=~` in `[[ … ]]`: parentheses and quotes are its own."""
    n = len(s)
    depth = 0
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c in "'\"":
            e = s.find(c, i + 1)
            if e < 0:
                raise ShellSyntaxError("unterminated quote")
            i = e + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in " \t\n" and depth <= 0:
            break
        i += 1
    return i


_ARITH_ASSIGN = ("<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "++", "--")


def scan_text(text: str, tok: Token, *, arith: bool, heredoc: bool = False) -> None:
    """Record the expansions in text that is expanded but not split: an arithmetic
    expression (`arith`: names there are variables, and may be assigned) or a
    here-document body."""
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if c == "\\" and heredoc:
            i += 2
        elif c == "$":
            i = dollar(text, i, tok)
        elif c == "`":
            i = backquote(text, i, tok)
        elif arith and c in NAME_START and (i == 0 or text[i - 1] not in NAME_CHARS):
            j = i
            while j < n and text[j] in NAME_CHARS:
                j += 1
            name = text[i:j]
            tok.refs.append(name)
            after = text[j:].lstrip(" \t")
            assigned = (after[:1] == "=" and after[:2] != "==") or after.startswith(_ARITH_ASSIGN)
            if assigned or text[:i].rstrip(" \t").endswith(("++", "--")):
                tok.sets.append(name)
            i = j
        elif arith and c.isdigit():
            while i < n and text[i] in NAME_CHARS:  # 0x1F, 8#17, 42
                i += 1
        else:
            i += 1
