"""A shell lexer for the command lines agents write (bash syntax).

`tokenize(line)` splits a line into words, operators and redirections, as bash reads
it: quotes and escapes, `$(…)`, backquotes, `${…}`, `$((…))`, process substitution,
here-documents (bodies read after the line that opens them, also inside `$(…)`),
`case` patterns, `[[ … ]]` and `(( … ))`. Each word also says what it expands: the
parameters it names (`refs`), the command substitutions it runs (`subs`, lexed in
turn) and its arithmetic (`arith`), which is what deciding whether a line may run in
another shell needs.

What it cannot read with confidence (an unterminated quote, an extended glob, an
unbalanced parenthesis) raises `ShellSyntaxError`: callers fall back to something
safe rather than guess.
"""

from __future__ import annotations

from tokenjuice.command.expansions import ansi_c, arith_end, backquote, dollar, double, regex_operand_end, scan_text
from tokenjuice.command.syntax import (
    ARITH,
    LEADING_KEYWORDS,
    META,
    OP,
    PATTERN,
    REDIR,
    WORD,
    ShellSyntaxError,
    Token,
    is_assignment,
)


def tokenize(s: str) -> list[Token]:
    """Split a shell command line into tokens (see the module docstring)."""
    lexer = _Lexer(s, 0, nested=False)
    lexer.run()
    return lexer.tokens


class _Lexer:
    """Reads one command list: the whole line, or the inside of `$(…)`/`<(…)`."""

    def __init__(self, s: str, i: int, *, nested: bool) -> None:
        self.s = s
        self.i = i
        self.n = len(s)
        self.nested = nested  # stop at the `)` that closes the substitution
        self.tokens: list[Token] = []
        self.heredocs: list[tuple[Token, str, bool]] = []  # (token, delimiter, strip tabs)
        self.cmd_pos = True
        self.depth = 0  # open `(` of subshells and groupings at this level
        self.case: list[str] = []  # per open `case`: "subject", "in", "pattern" or "body"
        self.after: str = ""  # the keyword just read that shapes the next word (for, function, …)

    # ------------------------------------------------------------------ driver

    def run(self) -> None:
        s, n = self.s, self.n
        while self.i < n:
            c = s[self.i]
            if c in " \t":
                self.i += 1
            elif c == "\\" and s[self.i + 1 : self.i + 2] == "\n":
                self.i += 2
            elif c == "#":
                j = s.find("\n", self.i)
                self.i = n if j < 0 else j
            elif c == "\n":
                self._newline()
            elif self.case and self.case[-1] == "pattern":
                self._pattern()
            elif c == ")" and self.nested and self.depth == 0:
                break
            elif c == "&" and s[self.i + 1 : self.i + 2] == ">":
                self._redirect(self.i, "")
            elif c in "|&;()":
                self._operator(c)
            elif c in "<>":
                if s[self.i + 1 : self.i + 2] == "(":
                    self._word()
                else:
                    self._redirect(self.i, "")
            else:
                self._word()
        if self.nested:
            if self.i >= n:
                raise ShellSyntaxError("unterminated $(…)")
            self.i += 1  # the closing `)`
        if self.depth > 0:
            raise ShellSyntaxError("unbalanced (")
        if self.heredocs and not self.nested:
            # A here-document opened on the last line: its body is empty.
            for tok, _, _ in self.heredocs:
                tok.heredoc = ""
            self.heredocs.clear()

    def _emit(self, tok: Token) -> Token:
        self.tokens.append(tok)
        return tok

    def _newline(self) -> None:
        start = self.i
        self.i += 1
        if self.heredocs:
            self._read_heredocs()
        last = self.tokens[-1] if self.tokens else None
        # A newline after `&&`, `|`, `(` or another newline continues the list.
        if last is not None and not (last.kind == OP and last.value in ("&&", "||", "|", "|&", "(", "\n")):
            self._emit(Token(OP, "\n", start=start, end=start + 1))
        self.cmd_pos = True

    def _operator(self, c: str) -> None:
        s, i = self.s, self.i
        three, two = s[i : i + 3], s[i : i + 2]
        if three == ";;&":
            op = three
        elif two in (";;", ";&", "&&", "||", "|&"):
            op = two
        else:
            op = c
        if op in (";;", ";&", ";;&"):
            if not self.case or self.case[-1] != "body":
                raise ShellSyntaxError(f"`{op}` outside a case statement")
            self.case[-1] = "pattern"
        elif op == "(":
            if self.cmd_pos and two == "((":
                self._arith_command()
                return
            self.depth += 1
        elif op == ")":
            self.depth -= 1
            if self.depth < 0:
                raise ShellSyntaxError("unbalanced )")
        self._emit(Token(OP, op, start=i, end=i + len(op)))
        self.i = i + len(op)
        self.cmd_pos = True
        self.after = ""

    # ------------------------------------------------------------------- words

    def _word(self) -> None:
        start = self.i
        tok = Token(WORD, "", start=start)
        value, end, quoted = self._read_word(start, tok)
        tok.value, tok.end, tok.quoted = value, end, quoted
        self.i = end
        s = self.s
        # `2>file`, `{fd}>file`: a number or `{name}` glued to a redirection is its fd.
        glued = not quoted and end < self.n and s[end] in "<>" and s[end + 1 : end + 2] != "("
        if glued and (value.isdigit() or (value[:1] == "{" and value[-1:] == "}" and is_assignment(value[1:-1] + "="))):
            self._redirect(end, value, start=start)
            return
        self._emit(tok)
        self._after_word(tok)

    def _after_word(self, tok: Token) -> None:
        """Track command position and the keywords that change how what follows reads."""
        value, bare = tok.value, not tok.quoted
        after, self.after = self.after, ""
        if self.case and self.case[-1] == "subject":
            self.case[-1] = "in"
            self.cmd_pos = False
            return
        if self.case and self.case[-1] == "in":
            if not (bare and value == "in"):
                raise ShellSyntaxError("`case` without `in`")
            self.case[-1] = "pattern"
            return
        if after in ("for", "select", "function"):
            self.cmd_pos = after == "function"
            if after != "function":
                self.after = "for-name"
            return
        if after == "for-name" and bare and value in ("in", "do"):
            self.cmd_pos = value == "do"
            return
        if not self.cmd_pos:
            return
        tok.cmd = True
        if not bare:
            self.cmd_pos = False
        elif value == "case":
            self.case.append("subject")
            self.cmd_pos = False
        elif value == "esac" and self.case and self.case[-1] == "body":
            self.case.pop()
            self.cmd_pos = False
        elif value == "[[":
            self._conditional()
        elif value in ("for", "select"):
            self.cmd_pos = False
            self.after = value
            self._skip_blanks()
            if self.s.startswith("((", self.i):
                self._arith_command()
        elif value == "function":
            self.cmd_pos = False
            self.after = value
        elif value in LEADING_KEYWORDS or is_assignment(value):
            self.cmd_pos = True
        else:
            self.cmd_pos = False

    def _skip_blanks(self) -> None:
        while self.i < self.n and self.s[self.i] in " \t":
            self.i += 1

    def _read_word(self, i: int, tok: Token) -> tuple[str, int, bool]:
        """The word at `i`: (value with quotes removed, end, quoted)."""
        s, n = self.s, self.n
        out: list[str] = []
        quoted = False
        while i < n:
            c = s[i]
            if c in META:
                if c in "<>" and s[i + 1 : i + 2] == "(" and not out:
                    j, sub = nested(s, i + 2)
                    tok.subs.append(sub)
                    out.append(s[i:j])
                    i = j
                    continue
                if c == "(" and out and is_assignment("".join(out)) and "".join(out).endswith("="):
                    i = self._array(i, tok, out)  # name=(a b c)
                    continue
                break
            if c == "\\":
                if i + 1 >= n:
                    out.append(c)  # a backslash at the very end is itself
                elif s[i + 1] != "\n":
                    out.append(s[i + 1])
                    quoted = True
                i += 2
            elif c == "'":
                j = s.find("'", i + 1)
                if j < 0:
                    raise ShellSyntaxError("unterminated single quote")
                out.append(s[i + 1 : j])
                i = j + 1
                quoted = True
            elif c == '"':
                body, i = double(s, i + 1, tok)
                out.append(body)
                quoted = True
            elif c == "$" and s[i + 1 : i + 2] == "'":
                body, i = ansi_c(s, i + 2)
                out.append(body)
                quoted = True
            elif c == "$" and s[i + 1 : i + 2] == '"':
                body, i = double(s, i + 2, tok)
                out.append(body)
                quoted = True
            elif c in "$`":
                j = dollar(s, i, tok) if c == "$" else backquote(s, i, tok)
                out.append(s[i:j])
                i = j
            else:
                if c in "*?[":
                    tok.glob = True
                if c in "@!+*?" and s[i + 1 : i + 2] == "(":
                    raise ShellSyntaxError("extended glob")
                out.append(c)
                i += 1
        return "".join(out), min(i, n), quoted

    def _array(self, i: int, tok: Token, out: list[str]) -> int:
        """The `(…)` of an array assignment, read as part of the word."""
        s = self.s
        j = i + 1
        while j < self.n and s[j] != ")":
            if s[j] in " \t\n":
                j += 1
                continue
            _, j, _ = self._read_word(j, tok)
            if j < self.n and s[j] in "|&;<>(":
                raise ShellSyntaxError("unexpected operator in an array")
        if j >= self.n:
            raise ShellSyntaxError("unterminated array")
        out.append(s[i : j + 1])
        return j + 1

    # --------------------------------------------------- special constructions

    def _arith_command(self) -> None:
        start = self.i
        end = arith_end(self.s, start + 2)
        tok = self._emit(Token(ARITH, self.s[start + 2 : end - 2], start=start, end=end))
        tok.arith.append(tok.value)
        scan_text(tok.value, tok, arith=True)
        self.i = end
        self.cmd_pos = False

    def _conditional(self) -> None:
        """The words of `[[ … ]]` up to its `]]` (operators there are plain words)."""
        s, n = self.s, self.n
        regex_next = False
        while True:
            while self.i < n and s[self.i] in " \t\n":
                self.i += 1
            if self.i >= n:
                raise ShellSyntaxError("unterminated [[")
            i = self.i
            if s.startswith("]]", i) and (i + 2 >= n or s[i + 2] in META):
                tok = self._emit(Token(WORD, "]]", start=i, end=i + 2))
                self.i = i + 2
                self.cmd_pos = False
                del tok
                return
            two = s[i : i + 2]
            if two in ("&&", "||"):
                self._emit(Token(WORD, two, start=i, end=i + 2))
                self.i = i + 2
                continue
            if s[i] in "()<>!" and not regex_next:
                self._emit(Token(WORD, s[i], start=i, end=i + 1))
                self.i = i + 1
                continue
            tok = Token(WORD, "", start=i)
            if regex_next:
                j = regex_operand_end(s, i)
                tok.value, tok.end = s[i:j], j
                scan_text(s[i:j], tok, arith=False)
            else:
                tok.value, tok.end, tok.quoted = self._read_word(i, tok)
            if tok.end == i:
                raise ShellSyntaxError(f"unexpected {s[i]!r} in [[ ]]")
            self._emit(tok)
            self.i = tok.end
            regex_next = tok.value == "=~" and not tok.quoted

    def _pattern(self) -> None:
        """A `case` pattern up to its `)`, or the `esac` that ends the statement."""
        s, n = self.s, self.n
        i = self.i
        if s.startswith("esac", i) and (i + 4 >= n or s[i + 4] in META):
            tok = self._emit(Token(WORD, "esac", start=i, end=i + 4))
            tok.cmd = True
            self.case.pop()
            self.i = i + 4
            self.cmd_pos = False
            return
        tok = Token(PATTERN, "", start=i)
        j = i + 1 if s[i] == "(" else i
        parts: list[str] = []
        while j < n and s[j] != ")":
            c = s[j]
            if c in " \t\n|":
                j += 1
                continue
            if c in ";&<>(":
                raise ShellSyntaxError("unexpected operator in a case pattern")
            word, j, _ = self._read_word(j, tok)
            parts.append(word)
        if j >= n:
            raise ShellSyntaxError("unterminated case pattern")
        tok.value, tok.end = "|".join(parts), j + 1
        self._emit(tok)
        self.i = j + 1
        self.case[-1] = "body"
        self.cmd_pos = True

    # ------------------------------------------------------------ redirections

    def _redirect(self, i: int, fd: str, start: int | None = None) -> None:
        s, n = self.s, self.n
        op = ""
        for cand in ("&>>", "<<<", "<<-", "&>", "<<", "<>", "<&", ">>", ">|", ">&", "<", ">"):
            if s.startswith(cand, i):
                op = cand
                break
        j = i + len(op)
        if op in ("<&", ">&") and s[j : j + 1] == "-":
            op += "-"
            j += 1
        tok = Token(REDIR, "", start=i if start is None else start)
        while j < n and s[j] in " \t":
            j += 1
        target = ""
        if not op.endswith("-") or op == "<<-":
            if j >= n or (s[j] in META and not (s[j] in "<>" and s[j + 1 : j + 2] == "(")):
                raise ShellSyntaxError(f"`{op}` without a target")
            target, j, quoted = self._read_word(j, tok)
            if op in ("<<", "<<-"):
                if tok.refs or tok.subs:
                    # The delimiter is taken literally: `$x` in it is not expanded.
                    tok.refs.clear()
                    tok.subs.clear()
                tok.heredoc_quoted = quoted
                self.heredocs.append((tok, target, op == "<<-"))
        tok.value, tok.end = fd + op + target, j
        self._emit(tok)
        self.i = j

    def _read_heredocs(self) -> None:
        """Read the bodies of the here-documents opened on the line just ended."""
        s, n = self.s, self.n
        i = self.i
        for tok, delim, strip in self.heredocs:
            lines: list[str] = []
            while i < n:
                j = s.find("\n", i)
                line = s[i:] if j < 0 else s[i:j]
                i = n if j < 0 else j + 1
                if (line.lstrip("\t") if strip else line) == delim:
                    break
                lines.append(line)
            body = "".join(ln + "\n" for ln in lines)
            tok.heredoc = body
            if not tok.heredoc_quoted:
                scan_text(body, tok, arith=False, heredoc=True)
        self.heredocs.clear()
        self.i = i


def nested(s: str, i: int) -> tuple[int, list[Token]]:
    """Lex the command list of a `$(…)` or `<(…)` starting at `i`; (end, tokens)."""
    lexer = _Lexer(s, i, nested=True)
    lexer.run()
    if lexer.heredocs:
        raise ShellSyntaxError("here-document not ended inside $(…)")
    if lexer.case:
        raise ShellSyntaxError("unterminated case inside $(…)")
    return lexer.i, lexer.tokens
