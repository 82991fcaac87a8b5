"""Reading command lines: a bash lexer, and the analysis of which program a line runs.

`analyze()` answers which program's output a command produces (for choosing a rule);
`tokenize()` is the lexer it and the hook rewrite share.
"""

from tokenjuice.command.analysis import (
    ChainItem,
    CommandInfo,
    ParsedShell,
    SimpleCommand,
    analyze,
    is_raw_request,
    parse_shell,
    with_script_from_output,
)
from tokenjuice.command.lexer import tokenize
from tokenjuice.command.syntax import (
    ARITH,
    OP,
    PATTERN,
    REDIR,
    WORD,
    ShellSyntaxError,
    Token,
    is_assignment,
    shell_quote,
)
from tokenjuice.command.tables import program_name

__all__ = [
    "ARITH",
    "OP",
    "PATTERN",
    "REDIR",
    "WORD",
    "ChainItem",
    "CommandInfo",
    "ParsedShell",
    "ShellSyntaxError",
    "SimpleCommand",
    "Token",
    "analyze",
    "is_assignment",
    "is_raw_request",
    "parse_shell",
    "program_name",
    "shell_quote",
    "tokenize",
    "with_script_from_output",
]
