"""Rewriting an agent's shell command so its output goes through `tokenjuice wrap`.

One module decides for every host (Claude Code, Codex, Gemini CLI). A line is
rewritten only when running it that way is equivalent to running it as written:

* The line splits into a prefix and a body. The prefix is leading `cd`, `pushd`,
  `export NAME[=…]`, `umask` and `source <venv>/bin/activate` steps joined by `&&`,
  `;` or newlines. It stays in the agent's shell exactly as written, so what it
  changes sticks there as before, and a child process inherits all of it (the
  working directory, exported variables, the umask; a virtualenv's activate script
  only exports `PATH` and `VIRTUAL_ENV` and defines `deactivate`).
* The body runs in a child: `tokenjuice wrap -- "${BASH:-bash}" -c '<body>'` (the
  agent's own bash binary), or `tokenjuice wrap -- <body>` when it is one plain
  command. A child bash sees what the agent's shell exports and nothing else of its
  state, and nothing it changes reaches back. So the body must neither read that
  state nor change it: every parameter it expands is exported (in the hook's
  environment, which the host's shell shares, or by the prefix); every program it
  runs is on PATH (not an alias or function of the agent's shell) or a path; and
  outside subshells and `$(…)` (which keep their changes to themselves in the
  original too) it changes no shell state: no assignment, loop variable, function,
  `cd`, `export`, `source`, `set`, `shopt`, `alias`, `trap`, `umask`, `ulimit`,
  `read`, `exit`, background job. A line that does is left alone: its state stays in
  the agent's shell with the command it affects.
* The body must be valid bash (`bash -n`) and read completely by our lexer; whatever
  it cannot read runs exactly as written.
* Left alone besides: output piped into another program or sent to a file, exact
  file reads and commands with little output, interactive programs, commands already
  going through tokenjuice, `TOKENJUICE_RAW=1 …`, lines too long for one argument.
* For an agent shell that is not bash (zsh, dash) only plain commands are rewritten:
  their words mean the same in every POSIX-like shell.
* `substitutions=False` leaves alone every line that runs a command or process
  substitution (`$(…)`, backquotes, `<(…)`, `>(…)`, here-document bodies included),
  for a host that vets those itself on the command it finally runs: inside
  `bash -c '…'` they are quoted out of its sight.
"""

from __future__ import annotations

import os

from tokenjuice.command import OP, REDIR, WORD, ShellSyntaxError, Token, is_assignment, tokenize
from tokenjuice.command import program_name as _program_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# Longest command we rewrite: the whole line becomes one argv string, and Linux caps a
# single argument at 128 KiB.
MAX_COMMAND_CHARS = 60_000

# Programs whose output needs no reduction: exact file reads (the agent asked for the
# bytes) and commands with little or no output.
_NO_REDUCTION = frozenset(
    {
        *("cat", "head", "tail", "nl", "bat", "batcat", "tac"),
        *("echo", "printf", "pwd", "true", "false", ":", "clear", "exit", "sleep", "kill"),
        *("mkdir", "touch", "rm", "rmdir", "cp", "mv", "ln", "chmod", "chown"),
        *("which", "type", "command", "test", "[", "[["),
    }
)
# Programs that only make sense on a terminal.
_INTERACTIVE = frozenset(
    {"vi", "vim", "nvim", "nano", "emacs", "less", "more", "man", "top", "htop", "watch", "tmux", "screen", "fzf"}
)
# Prefix steps whose effect a child process inherits.
_INHERITED = frozenset({"cd", "pushd", "export", "umask"})
# Builtins that read or change the agent's shell itself (even inside a subshell they
# answer from, or act on, state a child shell does not have).
_SHELL_STATE = frozenset(
    {
        *("set", "trap", "alias", "unalias", "eval", "exec", "return", "shift", "logout"),
        *("wait", "jobs", "fg", "bg", "disown", "suspend", "coproc", "select", "history", "fc"),
        *("hash", "type", "enable", "builtin", "caller", "compgen", "complete", "compopt", "bind", "dirs"),
        *("declare", "typeset", "local", "readonly", "let", "mapfile", "readarray", "getopts", "times"),
    }
)
# Builtins that change the shell's state: fine inside a subshell, never outside one.
_CHANGES_SHELL = frozenset(
    {"cd", "pushd", "popd", "export", "unset", "read", "source", ".", "shopt", "umask", "ulimit", "exit"}
)
# Builtins and keywords that behave the same in a child bash.
_SAFE_BUILTINS = frozenset(
    {
        *("echo", "printf", "test", "[", "true", "false", ":", "pwd", "break", "continue", "kill", "command"),
        *("if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac"),
        *("{", "}", "!", "time", "[[", "]]", "function"),
    }
)
# Parameters whose value differs in a child shell (or in the agent's shell is unknown).
_DYNAMIC = frozenset(
    {
        *("BASHPID", "PPID", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "SHLVL", "OLDPWD", "DIRSTACK"),
        *("BASH_SUBSHELL", "BASH_COMMAND", "BASH_LINENO", "BASH_SOURCE", "BASH_ARGC", "BASH_ARGV"),
        *("BASH_ARGV0", "BASH_REMATCH", "BASH_EXECUTION_STRING", "BASHOPTS", "SHELLOPTS", "FUNCNAME"),
        *("PIPESTATUS", "HISTCMD", "OPTIND", "OPTARG", "REPLY", "COLUMNS", "LINES", "_"),
        *("EPOCHSECONDS", "EPOCHREALTIME", "PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND", "BASH_ENV"),
    }
)
# Parameters every bash sets the same way for the same process and directory.
_SAME_IN_CHILD = frozenset(
    {"PWD", "UID", "EUID", "GROUPS", "HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE", "BASH", "BASH_VERSION"}
    | {"BASH_VERSINFO", "IFS", "HOME", "PATH"}
)
_KEYWORDS = frozenset(
    {"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "{", "}", "!"}
    | {"time", "function", "]]"}
)
_OPENERS = frozenset({"if", "case", "for", "while", "until", "select", "{"})
_CLOSERS = frozenset({"fi", "esac", "done", "}"})
# Pipe stages that pass the output on unchanged (the model still reads all of it).
_PASS_THROUGH_STAGES = frozenset({"tee", "cat"})
_PLAIN_SPECIAL = frozenset("$`*?[]{}~!#&|;<>()\\\"'\n\r\t ")


class Plan:
    """The outcome: `command` is the rewritten line, or None with `reason` saying why not."""

    __slots__ = ("command", "reason")

    def __init__(self, command: str | None, reason: str) -> None:
        self.command = command
        self.reason = reason

    def __repr__(self) -> str:
        return f"Plan(command={self.command!r}, reason={self.reason!r})"


class _Leave(Exception):
    """Raised inside the check: the line runs as written, for this reason."""


def plan(
    command: str,
    exe: str,
    *,
    shell: str = "bash",
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    substitutions: bool = True,
) -> Plan:
    """How to run `command` through `exe wrap` (exe: the shell-quoted tokenjuice command).

    `shell` is the agent's shell (`bash`, `zsh`, `sh`, …); `env` the environment it
    exports (default: ours, which a host's hook shares with its shell); `cwd` where
    the line runs (default: here); `substitutions=False`: leave alone a line that runs
    a command or process substitution.
    """
    try:
        shell = os.path.basename(shell) or "bash"
        return _plan(command, exe, shell, os.environ if env is None else env, cwd, substitutions)
    except _Leave as leave:
        return Plan(None, str(leave))
    except ShellSyntaxError as exc:
        return Plan(None, f"cannot parse the command ({exc})")
    except RecursionError:
        return Plan(None, "cannot parse the command (nested too deeply)")


def _plan(command: str, exe: str, shell: str, env: Mapping[str, str], cwd: str | None, substitutions: bool) -> Plan:
    if not command.strip():
        raise _Leave("empty command")
    if len(command) > MAX_COMMAND_CHARS:
        raise _Leave("command too long to pass as one argument")
    if "\0" in command:
        raise _Leave("command holds a NUL byte")
    tokens = tokenize(command)
    if not tokens:
        raise _Leave("only comments")
    if not substitutions and any(t.subs for t in tokens):
        raise _Leave("runs a command or process substitution, which the host vets on the command it runs")
    items = _split(tokens)
    first, exported, paths = _prefix(items, cwd or os.getcwd())
    if first == len(items):
        raise _Leave("only shell setup (cd/export/…), nothing to reduce")
    body_tokens = tokens[tokens.index(items[first][1][0]) :]
    while body_tokens[-1].kind == OP and body_tokens[-1].value in (";", "\n"):
        body_tokens.pop()  # a trailing separator ends the line and nothing else
    prefix, body = command[: body_tokens[0].start], command[body_tokens[0].start :]

    check = _Check(env, exported, paths)
    check.walk(body_tokens, contained=False, top=True)
    programs = check.top_programs
    interactive = sorted(check.programs & _INTERACTIVE)
    if interactive:
        raise _Leave(f"interactive program `{interactive[0]}`")
    if programs and programs <= _NO_REDUCTION:
        raise _Leave(f"`{sorted(programs)[0]}` needs no reduction")
    feeds = _feeds_another_program(body_tokens)
    if feeds:
        raise _Leave(f"output feeds another program (`{feeds}`)")
    if _stdout_to_file(body_tokens):
        raise _Leave("output goes to a file")

    words = command[body_tokens[0].start : body_tokens[-1].end].split()
    plain = (
        all(t.kind == WORD for t in body_tokens)
        and "/" not in words[0]
        and all(_PLAIN_SPECIAL.isdisjoint(command[t.start : t.end]) for t in body_tokens)
        and words == [t.value for t in body_tokens]
        and not is_assignment(words[0])
        and words[0] not in _SAFE_BUILTINS
        and words[0] not in check.functions
    )
    if plain:
        return Plan(f"{prefix}{exe} wrap -- {' '.join(words)}", "wrapped")
    if shell not in ("bash", "sh") or (shell == "sh" and not _sh_is_bash()):
        raise _Leave(f"the agent's shell is {shell}: only plain commands are rewritten")
    if not _bash_accepts(body):
        raise _Leave("bash does not accept the command as written")
    from tokenjuice.command import shell_quote

    # The same line numbers in bash's own messages as in the agent's shell.
    padded = "\n" * prefix.count("\n") + body
    return Plan(f'{prefix}{exe} wrap -- "${{BASH:-bash}}" -c {shell_quote(padded)}', "wrapped")


# ------------------------------------------------------------------ structure


def _split(tokens: list[Token]) -> list[tuple[str | None, list[Token]]]:
    """Top-level items (connector before, tokens): split at `;`, newlines, `&&`, `||`
    and `&` outside parentheses and compound commands."""
    items: list[tuple[str | None, list[Token]]] = []
    current: list[Token] = []
    connector: str | None = None
    depth = 0
    for tok in tokens:
        if tok.kind == OP:
            if tok.value == "(":
                depth += 1
            elif tok.value == ")":
                depth -= 1
            elif depth == 0 and tok.value in (";", "\n", "&&", "||", "&"):
                if tok.value == "&":
                    raise _Leave("runs a background job")
                if current:
                    items.append((connector, current))
                    connector = tok.value
                elif tok.value in ("&&", "||"):
                    raise ShellSyntaxError(f"`{tok.value}` without a command before it")
                current = []
                continue
        elif tok.kind == WORD and tok.cmd and not tok.quoted:
            if tok.value in _OPENERS:
                depth += 1
            elif tok.value in _CLOSERS:
                depth -= 1
        current.append(tok)
    if current:
        items.append((connector, current))
    if depth != 0:
        raise ShellSyntaxError("unbalanced compound command")
    return items


def _prefix(items: list[tuple[str | None, list[Token]]], cwd: str) -> tuple[int, set[str], list[str]]:
    """How many leading items stay in the agent's shell; the names they export and the
    virtualenv `bin` directories they put on PATH."""
    exported: set[str] = set()
    paths: list[str] = []
    where: str | None = cwd  # None once a `cd` goes somewhere we cannot tell
    first = 0
    while first < len(items):
        toks = items[first][1]
        if not all(t.kind == WORD for t in toks) or not toks[0].cmd:
            break
        name, args = toks[0].value, [t.value for t in toks[1:]]
        if name == "export":
            if any(a.startswith("-") or not is_assignment(a if "=" in a else a + "=") for a in args):
                break
            exported.update(a.partition("=")[0] for a in args)
        elif name in ("source", ".") and len(args) == 1:
            venv_bin = _venv_bin(args[0], where)
            if venv_bin is None:
                break
            paths.append(venv_bin)
            exported.update(("PATH", "VIRTUAL_ENV"))
        elif name in ("cd", "pushd"):
            where = _cd(where, args, toks)
        elif name != "umask":
            break
        nxt = items[first + 1][0] if first + 1 < len(items) else None
        if nxt not in (None, ";", "\n", "&&"):
            break
        first += 1
    if any(_asks_raw(t.value) for item in items[:first] for t in item[1]):
        raise _Leave("TOKENJUICE_RAW set: raw output requested")
    return first, exported, paths


def _cd(where: str | None, args: list[str], toks: list[Token]) -> str | None:
    """The directory after a literal `cd DIR` (None: not knowable here)."""
    if where is None or len(args) != 1 or any(t.refs or t.subs or t.glob for t in toks[1:]):
        return None
    target = os.path.expanduser(args[0])
    return os.path.normpath(os.path.join(where, target)) if target != "-" else None


def _venv_bin(activate: str, where: str | None) -> str | None:
    """`DIR/bin` when `activate` is `DIR/bin/activate` of a Python virtualenv."""
    if where is None or os.path.basename(activate) != "activate":
        return None
    path = os.path.normpath(os.path.join(where, os.path.expanduser(activate)))
    bin_dir = os.path.dirname(path)
    venv = os.path.dirname(bin_dir)
    if os.path.basename(bin_dir) != "bin" or not os.path.isfile(os.path.join(venv, "pyvenv.cfg")):
        return None
    return bin_dir if os.path.isfile(path) else None


def _asks_raw(word: str) -> bool:
    name, eq, value = word.partition("=")
    return name == "TOKENJUICE_RAW" and bool(eq) and value.strip().lower() not in ("", "0", "false", "no", "off")


# Commands that are shell functions in the agent's shell, whatever PATH holds.
_FUNCTION_COMMANDS = {
    "conda": {"activate", "deactivate"},
    "mamba": {"activate", "deactivate"},
    "micromamba": {"activate", "deactivate"},
    "pyenv": {"shell", "activate", "deactivate"},
    "rbenv": {"shell"},
    "nodenv": {"shell"},
    "goenv": {"shell"},
    "jenv": {"shell"},
    "nvm": {"use", "install", "alias", "deactivate", "unload"},
    "rvm": {"use"},
    "sdk": {"use", "install"},
}


class _Check:
    """Walks the body in order, proving each expansion and program means the same in a
    child shell and that nothing changes the agent's shell; raises `_Leave` at the
    first thing that might not hold."""

    def __init__(self, env: Mapping[str, str], exported: set[str], paths: list[str]) -> None:
        self.path = os.pathsep.join([*paths, env.get("PATH", "")])
        self.known = (set(env) | exported | _SAME_IN_CHILD) - _DYNAMIC
        self.functions: set[str] = set()
        self.programs: set[str] = set()
        self.top_programs: set[str] = set()

    def walk(self, toks: list[Token], *, contained: bool, top: bool) -> None:
        """One command list. `contained`: in a subshell or `$(…)` (its state changes
        do not outlive it); `top`: the body's own list (its programs decide whether the
        output is worth reducing)."""
        ran = False  # a command finished before (for `$?`)
        assigning: list[str] = []  # leading `NAME=value` words of the current command
        in_command = False
        scopes: list[tuple[set[str], set[str]]] = []  # state saved at each `(`
        i = 0
        while i < len(toks):
            tok = toks[i]
            inside = contained or bool(scopes)
            if tok.kind == OP:
                if assigning and not in_command:
                    self._changes(inside, f"assigns the shell variable `{assigning[0]}`")
                    self.known.update(assigning)
                if tok.value == "(":
                    scopes.append((set(self.known), set(self.functions)))
                elif tok.value == ")" and scopes:
                    self.known, self.functions = scopes.pop()
                ran = ran or in_command
                assigning, in_command = [], False
                i += 1
                continue
            self._expansions(tok, ran)
            if tok.sets:
                self._changes(inside, f"assigns the shell variable `{tok.sets[0]}`")
                self.known.update(tok.sets)
            if tok.kind == WORD and "**" in tok.value and tok.glob:
                raise _Leave("`**` depends on the agent shell's globstar setting")
            if tok.kind == WORD and tok.cmd:
                if is_assignment(tok.value) and not in_command:
                    if _asks_raw(tok.value):
                        raise _Leave("TOKENJUICE_RAW set: raw output requested")
                    assigning.append(tok.value.partition("=")[0].rstrip("+").partition("[")[0])
                    i += 1
                    continue
                in_command = True
                i = self._command(toks, i, inside=inside, top=top)
                continue
            i += 1
        if assigning and not in_command:
            self._changes(contained, f"assigns the shell variable `{assigning[0]}`")

    def _changes(self, inside: bool, what: str) -> None:
        if not inside:
            raise _Leave(f"{what}, which would not stick in the agent's shell")

    def _command(self, toks: list[Token], i: int, *, inside: bool, top: bool) -> int:
        """The command word at toks[i]; the index of the next token to look at."""
        tok = toks[i]
        name = tok.value
        args = _args(toks, i + 1)
        if tok.refs or tok.subs or (tok.glob and name not in ("[", "[[")) or not name:
            raise _Leave("the program's name comes from an expansion")
        nxt = toks[i + 1 : i + 3]
        if len(nxt) == 2 and all(t.kind == OP for t in nxt) and [t.value for t in nxt] == ["(", ")"]:
            self._changes(inside, f"defines the function `{name}`")
            self.functions.add(name)
            return i + 3
        if name in ("for", "select", "function") and args:
            if name == "select":
                raise _Leave("`select` reads the terminal")
            what = f"defines the function `{args[0].value}`" if name == "function" else "sets a loop variable"
            self._changes(inside, what)
            (self.functions if name == "function" else self.known).add(args[0].value)
            return i + 2
        if name in _SHELL_STATE:
            raise _Leave(f"`{name}` changes or reads the agent's shell itself")
        if name in _CHANGES_SHELL or (name == "printf" and args and args[0].value == "-v"):
            self._changes(inside, f"`{name}` changes the shell")
            if name in ("export", "read", "printf"):
                self.known.update(a.value.partition("=")[0] for a in args if not a.value.startswith("-"))
        if name == "command" and args:
            if args[0].value.startswith("-"):
                raise _Leave("`command -v` answers from the agent's shell")
            self._program(args[0], top)
        functions = _FUNCTION_COMMANDS.get(name)
        if functions and args and args[0].value in functions:
            raise _Leave(f"`{name} {args[0].value}` is a shell function in the agent's shell")
        self._program(tok, top)
        return i + 1

    def _program(self, tok: Token, top: bool) -> None:
        name = tok.value
        if name in _KEYWORDS:
            return
        base = _program_name(name)
        if base == "tokenjuice":
            raise _Leave("already goes through tokenjuice")
        self.programs.add(base)
        if top:
            self.top_programs.add(base)
        if name in _SAFE_BUILTINS or name in _CHANGES_SHELL or "/" in name or name in self.functions:
            return
        from tokenjuice._fs import which

        if which(name, self.path) is None:
            raise _Leave(f"`{name}` is not a program on PATH (an alias or function of the agent's shell?)")

    def _expansions(self, tok: Token, ran: bool) -> None:
        for ref in tok.refs:
            if ref == "?" and ran:
                continue
            if ref not in self.known and ref not in tok.sets:
                shown = "$" + ref if ref != "!" else "an indirect ${!…}"
                raise _Leave(f"uses {shown}, which a child shell would not see the same")
        for sub in tok.subs:
            saved = set(self.known), set(self.functions)
            self.walk(sub, contained=True, top=False)
            self.known, self.functions = saved


def _args(toks: list[Token], i: int) -> list[Token]:
    """The words after a command word, up to the end of its simple command."""
    out: list[Token] = []
    while i < len(toks) and toks[i].kind != OP:
        if toks[i].kind == WORD:
            out.append(toks[i])
        i += 1
    return out


def _feeds_another_program(tokens: list[Token]) -> str | None:
    """The program a top-level pipe hands the output to, unless it only passes it on."""
    for i, tok in enumerate(tokens):
        if tok.kind == OP and tok.value in ("|", "|&"):
            nxt = next((t for t in tokens[i + 1 :] if t.kind == WORD and not is_assignment(t.value)), None)
            name = _program_name(nxt.value) if nxt is not None else "?"
            if name not in _PASS_THROUGH_STAGES:
                return name
    return None


def _stdout_to_file(tokens: list[Token]) -> bool:
    """Whether the first command sends its stdout to a file (nothing left to reduce)."""
    for tok in tokens:
        if tok.kind == OP:
            return False
        if tok.kind == REDIR:
            op = tok.value
            if op.startswith(("1>", ">", "&>")) and not op.startswith((">&", "1>&")):
                return True
    return False


def _bash_accepts(body: str) -> bool:
    """`bash -n`: the body parses (our lexer reads more loosely than bash)."""
    import subprocess

    from tokenjuice._fs import which

    bash = which("bash")
    if bash is None:
        return False
    try:
        done = subprocess.run(
            [bash, "-n", "-c", body],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _sh_is_bash() -> bool:
    """Whether `sh` here is bash (then it reads bash syntax)."""
    from tokenjuice._fs import which

    sh = which("sh")
    return sh is not None and os.path.basename(os.path.realpath(sh)) == "bash"
