"""Rewriting an agent's shell command so its output goes through `tokenjuice wrap`.

The rewrite must run the same thing in the same place and exit with the same code:

* Leading setup steps (`cd dir &&`, `export X=1;`, `source venv/bin/activate &&`) stay
  in the agent's shell, so a `cd` still sticks for the next call where the host keeps
  one shell; only the rest is wrapped.
* The rest runs as `tokenjuice wrap -- bash -c '<rest>'` (or directly, `tokenjuice wrap
  -- git status`, when it is one plain command with nothing for a shell to expand).
* Anything that would behave differently in a child shell is left alone: a later
  `cd`/`export`/assignment/function definition, a background job `&`, a line we cannot
  parse. So are commands with nothing to gain (exact file reads, `echo`, `mkdir`),
  interactive programs, and commands already going through tokenjuice.
* `TOKENJUICE_RAW=1 cmd` opts one command out; it is how an agent asks for raw output.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.command import Token

# Longest command we rewrite: the whole line becomes one argv string, and Linux caps a
# single argument at 128 KiB.
MAX_COMMAND_CHARS = 60_000

# Programs whose output needs no reduction: exact file reads (the agent asked for the
# bytes; their rule passes them through anyway) and commands with little or no output.
_NO_REDUCTION = frozenset(
    {
        *("cat", "head", "tail", "nl", "bat", "batcat", "tac"),
        *("echo", "printf", "pwd", "true", "false", ":", "clear", "exit", "sleep", "kill"),
        *("mkdir", "touch", "rm", "rmdir", "cp", "mv", "ln", "chmod", "chown"),
        *("which", "type", "command", "test", "["),
    }
)
# Programs that only make sense on a terminal.
_INTERACTIVE = frozenset(
    {"vi", "vim", "nvim", "nano", "emacs", "less", "more", "man", "top", "htop", "watch", "tmux", "screen", "fzf"}
)

# Shell words after which the next word is in command position.
_COMMAND_STARTERS = frozenset({"then", "do", "else", "elif", "if", "while", "until", "{", "!", "time"})


class Plan:
    """The outcome: `command` is the rewritten line, or None with `reason` saying why not."""

    __slots__ = ("command", "reason")

    def __init__(self, command: str | None, reason: str) -> None:
        self.command = command
        self.reason = reason

    def __repr__(self) -> str:
        return f"Plan(command={self.command!r}, reason={self.reason!r})"


def _leave(reason: str) -> Plan:
    return Plan(None, reason)


def plan(command: str, exe: str, *, shell: str = "bash") -> Plan:
    """How to run `command` through `exe wrap` (exe: the shell-quoted tokenjuice command)."""
    from tokenjuice.command import (
        _SETUP,
        OP,
        REDIR,
        WORD,
        ShellSyntaxError,
        is_env_assignment,
        program_name,
        shell_quote,
        tokenize,
    )

    if not command.strip():
        return _leave("empty command")
    if len(command) > MAX_COMMAND_CHARS:
        return _leave("command too long to pass as one argument")
    try:
        tokens = tokenize(_mask_heredocs(command))
    except ShellSyntaxError as exc:
        return _leave(f"cannot parse the command ({exc})")
    if not tokens:
        return _leave("only comments")

    # Split into top-level items at ; && || & (tracking parentheses).
    items: list[list[Token]] = []
    connectors: list[str | None] = []
    current: list[Token] = []
    depth = 0
    pending: str | None = None
    for tok in tokens:
        if tok.kind == OP and tok.value == "(":
            depth += 1
        elif tok.kind == OP and tok.value == ")":
            depth -= 1
        if tok.kind == OP and depth == 0 and tok.value in (";", "&&", "||", "&", ";;"):
            if tok.value == "&":
                return _leave("runs a background job")
            if current:
                items.append(current)
                connectors.append(pending)
            current = []
            pending = tok.value
            continue
        current.append(tok)
    if current:
        items.append(current)
        connectors.append(pending)

    def simple_argv(item: list[Token]) -> list[str] | None:
        """The words of an item that is one simple command (no pipe, no parentheses)."""
        if any(t.kind == OP for t in item):
            return None
        return [t.value for t in item if t.kind == WORD]

    def is_setup(argv: list[str] | None) -> bool:
        if not argv:
            return False
        i = 0
        while i < len(argv) and is_env_assignment(argv[i]):
            i += 1
        return i == len(argv) or program_name(argv[i]) in _SETUP

    # Leading setup steps stay outside the wrap.
    first = 0
    while first < len(items) and is_setup(simple_argv(items[first])):
        first += 1
    if first == len(items):
        return _leave("only shell setup (cd/export/…), nothing to reduce")
    if first and connectors[first] not in (";", "&&"):
        return _leave(f"setup joined by `{connectors[first]}`")
    rest_start = items[first][0].start
    rest_tokens = [t for t in tokens if t.start >= rest_start]

    # Anything left that changes the shell's own state would be lost in a child shell.
    expect_cmd = True
    saw_assignment = False
    depth = 0
    for idx, tok in enumerate(rest_tokens):
        if tok.kind == OP:
            if tok.value == "(" and idx > 0 and rest_tokens[idx - 1].kind == WORD and expect_cmd is False:
                return _leave("defines a shell function")
            if tok.value == "(":
                depth += 1
            elif tok.value == ")":
                depth -= 1
            if saw_assignment and depth == 0:
                return _leave("assigns a shell variable")
            expect_cmd = True
            saw_assignment = False
            continue
        if tok.kind == REDIR:
            continue
        word = tok.value
        if word.startswith("TOKENJUICE_RAW=") and word not in ("TOKENJUICE_RAW=", "TOKENJUICE_RAW=0"):
            return _leave("TOKENJUICE_RAW set: raw output requested")
        if not expect_cmd:
            continue
        if is_env_assignment(word):
            saw_assignment = True
            continue
        saw_assignment = False
        name = program_name(word)
        if word == "function":
            return _leave("defines a shell function")
        if name in _COMMAND_STARTERS:
            continue
        if depth == 0 and name in _SETUP:
            return _leave(f"`{name}` after the main command would not stick in a child shell")
        expect_cmd = False
    if saw_assignment:
        return _leave("assigns a shell variable")

    feeds = _feeds_another_program(rest_tokens)
    if feeds:
        return _leave(f"output feeds another program (`{feeds}`)")
    if _stdout_to_file(rest_tokens):
        return _leave("output goes to a file")

    prefix, rest = command[:rest_start], command[rest_start:].rstrip()

    programs = _programs(rest_tokens)
    if "tokenjuice" in programs:
        return _leave("already goes through tokenjuice")
    interactive = programs & _INTERACTIVE
    if interactive:
        return _leave(f"interactive program `{sorted(interactive)[0]}`")
    if programs and programs <= _NO_REDUCTION:
        return _leave(f"`{sorted(programs)[0]}` needs no reduction")

    plain = all(t.kind == WORD for t in rest_tokens) and all(_plain_word(command[t.start : t.end]) for t in rest_tokens)
    if plain:
        # A second reading: with no quote, escape or comment in it, the shell splits
        # `rest` at these four characters (as `shlex.split` does) into the same words.
        plain = _blank_split(rest) == [t.value for t in rest_tokens]
    if plain and not is_env_assignment(rest_tokens[0].value):
        wrapped = f"{exe} wrap -- {rest}"
    else:
        wrapped = f"{exe} wrap -- {shell} -c {shell_quote(rest)}"
    return Plan(prefix + wrapped, "wrapped")


_SHELL_SPECIAL = set("$`*?[]{}~!#&|;<>()\\\"'\n")


def _blank_split(text: str) -> list[str]:
    """Words between spaces, tabs, CRs and newlines (`shlex`'s whitespace)."""
    return [w for w in text.replace("\t", " ").replace("\r", " ").replace("\n", " ").split(" ") if w]


def _mask_heredocs(command: str) -> str:
    """Blank out here-document bodies (same length, so token offsets still index `command`).

    The tokenizer knows `<<EOF` only as a redirection; the body lines that follow are
    data, not commands, and must not be read as `cd`s or function definitions.
    """
    if "<<" not in command:
        return command
    from tokenjuice import _re as re

    heredoc = re.compile(r"""(?<!<)<<(?!<)(-?)[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|\\?([A-Za-z0-9_.-]+))""")
    lines = command.split("\n")
    out: list[str] = []
    pending: list[tuple[str, bool]] = []
    for line in lines:
        if pending:
            delim, strip_tabs = pending[0]
            if (line.lstrip("\t") if strip_tabs else line) == delim:
                pending.pop(0)
                out.append(" " * len(line))
                continue
            out.append(" " * len(line))
            continue
        out.append(line)
        for m in heredoc.finditer(line):
            pending.append((m.group(2) or m.group(3) or m.group(4), m.group(1) == "-"))
    return "\n".join(out)


def _plain_word(raw: str) -> bool:
    return not (set(raw) & _SHELL_SPECIAL)


# Pipe stages that pass the output on unchanged (the model still reads all of it).
_PASS_THROUGH_STAGES = frozenset({"tee", "cat"})


def _feeds_another_program(tokens: list[Token]) -> str | None:
    """The program a pipe hands the output to, unless it only passes it on (`| tee log`)."""
    from tokenjuice.command import OP, WORD, is_env_assignment, program_name

    for i, tok in enumerate(tokens):
        if tok.kind == OP and tok.value in ("|", "|&"):
            nxt = next((t for t in tokens[i + 1 :] if t.kind == WORD and not is_env_assignment(t.value)), None)
            name = program_name(nxt.value) if nxt is not None else "?"
            if name not in _PASS_THROUGH_STAGES:
                return name
    return None


def _stdout_to_file(tokens: list[Token]) -> bool:
    """Whether the first command sends its stdout to a file (nothing left to reduce)."""
    from tokenjuice.command import OP, REDIR

    for tok in tokens:
        if tok.kind == OP:
            return False
        if tok.kind == REDIR:
            op = tok.value
            if op.startswith(("1>", ">", "&>")) and not op.startswith((">&", "1>&")):
                return True
    return False


def _programs(tokens: list[Token]) -> set[str]:
    """Program names in command position (after setup, assignments and keywords)."""
    from tokenjuice.command import OP, REDIR, is_env_assignment, program_name

    out: set[str] = set()
    expect = True
    for tok in tokens:
        if tok.kind == OP:
            expect = True
            continue
        if tok.kind == REDIR or not expect:
            continue
        if is_env_assignment(tok.value):
            continue
        name = program_name(tok.value)
        if name in _COMMAND_STARTERS:
            continue
        out.add(name)
        expect = False
    return out
