"""The shell lexer, held to what bash itself does with the same lines."""

from __future__ import annotations

import contextlib
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenjuice.command import ARITH, OP, PATTERN, REDIR, WORD, ShellSyntaxError, Token, tokenize


def kinds(line: str) -> list[tuple[str, str]]:
    return [(t.kind, t.value) for t in tokenize(line)]


def heredocs(tokens: list[Token]) -> list[str]:
    out: list[str] = []
    for tok in tokens:
        if tok.heredoc is not None:
            out.append(tok.heredoc)
        for sub in tok.subs:
            out.extend(heredocs(sub))
    return out


def test_words_operators_and_redirections() -> None:
    assert kinds("a 'b c' \"d $e\" 2>&1 >out && f || g; h | i |& j &") == [
        (WORD, "a"),
        (WORD, "b c"),
        (WORD, "d $e"),
        (REDIR, "2>&1"),
        (REDIR, ">out"),
        (OP, "&&"),
        (WORD, "f"),
        (OP, "||"),
        (WORD, "g"),
        (OP, ";"),
        (WORD, "h"),
        (OP, "|"),
        (WORD, "i"),
        (OP, "|&"),
        (WORD, "j"),
        (OP, "&"),
    ]


def test_newlines_separate_except_after_a_continuing_operator() -> None:
    assert [v for k, v in kinds("a &&\n b\nc |\n d\n\n") if k == OP] == ["&&", "\n", "|", "\n"]


def test_command_position_and_keywords() -> None:
    toks = tokenize("if A=1 make x; then time ls y; fi")
    assert [t.value for t in toks if t.cmd] == ["if", "A=1", "make", "then", "time", "ls", "fi"]


@pytest.mark.parametrize(
    ("line", "refs"),
    [
        ("echo $a ${b} ${c:-$d} \"$e\" '$f' \\$g", ["a", "b", "c", "d", "e"]),
        ("echo ${#x} ${!y} $1 $@ $? ${10}", ["x", "!", "1", "@", "?", "10"]),
        ("echo $((x + y * 2))", ["x", "y"]),
        ("echo ${a[@]} ${b%%.*} ${c/#x/y}", ["a", "b", "c"]),
        ("echo $", []),
    ],
)
def test_parameters_each_word_expands(line: str, refs: list[str]) -> None:
    assert [r for t in tokenize(line) for r in t.refs] == refs


@pytest.mark.parametrize(
    ("line", "sets"),
    [("(( i++ ))", ["i"]), ("echo $((j = 2))", ["j"]), ("echo ${k:=v} ${l=w}", ["k", "l"]), ("(( m == 2 ))", [])],
)
def test_parameters_a_word_assigns(line: str, sets: list[str]) -> None:
    assert [s for t in tokenize(line) for s in t.sets] == sets


def test_substitutions_are_lexed_in_turn() -> None:
    tok = tokenize('echo "$(cd x && ls $HOME)" `pwd` <(git log)')[1]
    assert [t.value for t in tok.subs[0]] == ["cd", "x", "&&", "ls", "$HOME"]
    assert tok.subs[0][-1].refs == ["HOME"]
    assert len([t for t in tokenize("echo `pwd` <(git log)") if t.subs]) == 2


def test_case_patterns_inside_a_substitution() -> None:
    toks = tokenize("x=$(case $y in a|b) echo 1;; (c) echo 2;; esac); echo $x")
    inner = toks[0].subs[0]
    assert [t.kind for t in inner if t.kind == PATTERN] == [PATTERN, PATTERN]
    assert [t.value for t in toks[2:]] == ["echo", "$x"]


def test_conditional_and_arithmetic_commands() -> None:
    toks = tokenize("[[ $a =~ ^(x|y)$ && -f b ]] && (( n > 1 ))")
    assert [t.value for t in toks[:8]] == ["[[", "$a", "=~", "^(x|y)$", "&&", "-f", "b", "]]"]
    assert toks[-1].kind == ARITH


def test_arrays_and_named_descriptors() -> None:
    assert kinds("a=(1 'b c' $(d)) && e {fd}>log") == [
        (WORD, "a=(1 'b c' $(d))"),
        (OP, "&&"),
        (WORD, "e"),
        (REDIR, "{fd}>log"),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "cat <<'EOF'\nit's $HOME\nEOF",
        'cat <<"EOF"\n$HOME\nEOF\necho after',
        "cat <<EOF\nplain $((1+1))\nEOF",
        "cat <<-EOF\n\tindented\n\tEOF",
        "cat <<A; cat <<B\none\nA\ntwo\nB",
        "echo \"$(cat <<'EOF'\nDon't ( ) crash\nEOF\n)\"",
        'cat <<"<<EOF"\nexport X=1\n<<EOF',
        "cat <<E\\OF\n$no\nEOF",
        "cat <<EOF\nno delimiter at the end",
        "cat <<'EOF' | cat\nx\nEOF",
    ],
)
def test_here_document_bodies_are_what_bash_reads(line: str) -> None:
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=10, env={"HOME": "/h"})
    assert done.returncode == 0
    bodies = heredocs(tokenize(line))
    assert bodies
    # Quoted bodies come out of bash verbatim; unquoted ones after expansion.
    first = line.split("\n", 1)[0]
    if "'" in first or '"' in first or "\\" in first:
        assert "".join(bodies) in done.stdout or "".join(bodies).replace("\t", "") in done.stdout


def test_a_here_document_body_is_data() -> None:
    toks = tokenize("python3 - <<'EOF'\nprint(\"it's\")\ncd /\nEOF\nls")
    assert [t.value for t in toks if t.cmd] == ["python3", "ls"]
    unquoted = tokenize("cat <<EOF\n$HOME $(date)\nEOF")
    assert unquoted[1].refs == ["HOME"] and len(unquoted[1].subs) == 1


@pytest.mark.parametrize(
    "line",
    ["echo 'x", 'echo "x', "echo $(ls", "echo `ls", "(ls", "ls)", "echo ${x", "x >", "a;; b", "ls @(a|b)"],
)
def test_what_cannot_be_read_is_a_syntax_error(line: str) -> None:
    with pytest.raises(ShellSyntaxError):
        tokenize(line)


@given(st.text(alphabet="ab $(){}[]<>|&;'\"`\\#\n=*!-:%+EOF", max_size=40))
def test_the_lexer_raises_nothing_but_syntax_errors(line: str) -> None:
    try:
        tokens = tokenize(line)
    except (ShellSyntaxError, RecursionError):
        return
    for tok in tokens:
        assert 0 <= tok.start <= tok.end <= len(line)


PIECES = [
    *("a", "b", " ", "\n", ";", "&", "|", "&&", "||", "(", ")", "{", "}", "[[", "]]", "((", "))", "=~"),
    *("case", "in", "esac", ";;", "for", "do", "done", "if", "then", "fi", "function", "select"),
    *("'", '"', "`", "\\", "$", "$(", "${", "$((", "<(", "<<EOF", "<<-EOF", "<<'EOF'", "EOF", "\tEOF"),
    *(">", "<", "2>&1", "<<<", "#", "x=", "x=(", "*", "?", "!", "@("),
]


@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_keyword_soup_ends_in_tokens_or_a_syntax_error(line: str) -> None:
    with contextlib.suppress(ShellSyntaxError, RecursionError):
        tokenize(line)
