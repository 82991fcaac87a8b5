"""Command analysis: which program's output a command line produces.

`analyze(command, argv, cwd)` tokenizes a shell command line, splits it into a chain
of pipelines, drops setup steps (`cd DIR &&`, `export X=1;`, `source venv/bin/activate
&&`) and trailing no-ops (`|| true`, `; echo $?`), and sees through wrappers (`env`,
`sudo`, `time`, `nice`, …), shells (`bash -c '…'`) and runners (`python -m X`, `uv run
X`, `npx X`, `npm test`, …) to the program whose output we will reduce.

A command that is really several programs (a chain, a pipe into another program, a
subshell, a loop) is flagged `compound`; only content-based rules may then apply.
Analysis never fails: a line the lexer cannot read is split on blanks instead.
"""

from __future__ import annotations

import os

from tokenjuice.command import tables
from tokenjuice.command.lexer import tokenize
from tokenjuice.command.scripts import package_script, script_header
from tokenjuice.command.syntax import ARITH, OP, REDIR, WORD, ShellSyntaxError, is_assignment, shell_quote
from tokenjuice.command.tables import program_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

# ------------------------------------------------------------------------- structure


class SimpleCommand:
    __slots__ = ("argv", "redirects")

    def __init__(self) -> None:
        self.argv: list[str] = []
        self.redirects: list[str] = []


class ChainItem:
    __slots__ = ("connector", "stages")

    def __init__(self, connector: str | None) -> None:
        self.connector = connector  # operator before this item, None for the first
        self.stages: list[SimpleCommand] = [SimpleCommand()]


class ParsedShell:
    __slots__ = ("background", "heredoc", "items", "subshell")

    def __init__(self) -> None:
        self.items: list[ChainItem] = []
        self.subshell = False
        self.heredoc = False
        self.background = False


_KEYWORDS = frozenset(
    {"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac"}
    | {"function", "select", "{", "}", "[[", "]]", "(("}
)


def parse_shell(command: str) -> ParsedShell:
    """The chain of pipelines on a line (ShellSyntaxError when it cannot be read)."""
    parsed = ParsedShell()
    item = ChainItem(None)
    for tok in tokenize(command):
        if tok.kind == WORD:
            item.stages[-1].argv.append(tok.value)
        elif tok.kind == ARITH:
            item.stages[-1].argv.append("((")
        elif tok.kind == REDIR:
            item.stages[-1].redirects.append(tok.value)
            if tok.heredoc is not None:
                parsed.heredoc = True
        elif tok.kind != OP:
            continue  # a `case` pattern
        elif tok.value in ("|", "|&"):
            item.stages.append(SimpleCommand())
        elif tok.value in ("(", ")"):
            parsed.subshell = True
        else:  # ; newline && || & ;; ;& ;;&
            if tok.value == "&":
                parsed.background = True
            if any(st.argv for st in item.stages):
                parsed.items.append(item)
            item = ChainItem(";" if tok.value == "\n" else tok.value)
    if any(st.argv for st in item.stages):
        parsed.items.append(item)
    return parsed


_MAX_DEPTH = 4


class CommandInfo:
    """What we understood of a command line.

    `argv` is the effective command after unwrapping; `program` its normalized
    argv[0]; `subcommand` the first positional argument after the program's global
    options (`git -C x --no-pager log` → `log`). `steps` records each unwrapping for
    `tokenjuice explain`. `compound` is set (with `compound_reason`) when the line runs
    several programs whose combined output no single-tool rule should claim.
    """

    __slots__ = (
        "argv",
        "compound",
        "compound_reason",
        "given",
        "original",
        "parse_error",
        "program",
        "script",
        "sliced",
        "steps",
        "subcommand",
        "unresolved",
    )

    def __init__(self, original: str) -> None:
        self.original = original
        self.argv: tuple[str, ...] = ()
        # The first simple command as written, before any unwrapping.
        self.given: tuple[str, ...] = ()
        self.program = ""
        self.subcommand: str | None = None
        self.compound = False
        self.compound_reason = ""
        self.sliced = False
        self.script: str | None = None
        self.steps: list[str] = []
        self.parse_error: str | None = None
        # `npm run X` before its script body was taken from the output header.
        self.unresolved: CommandInfo | None = None

    @property
    def text(self) -> str:
        """The effective command as a shell-quoted string."""
        return " ".join(map(shell_quote, self.argv))

    def program_aliases(self) -> tuple[str, ...]:
        """Names `argv0` matching accepts: `python3.11` also answers to `python3` and `python`."""
        p = self.program
        if not p:
            return ()
        names = [p]
        low = p.lower()
        if low != p:
            names.append(low)
        stripped = low.rstrip("0123456789.")
        if stripped and stripped != low:
            # python3.11 → python3 → python ; pip3 → pip
            head = low.split(".", 1)[0]
            if head != low:
                names.append(head)
            names.append(stripped)
        return tuple(dict.fromkeys(names))

    @property
    def source(self) -> str:
        """What the matched command is to the one given, in the TypeScript tokenjuice's
        words: `original`, `shell-body` (inside `bash -c '…'`) or `effective` (after
        unwrapping runners, wrappers, a leading `cd` or assignments)."""
        if self.argv == self.given:
            return "original"
        return "shell-body" if any(s.endswith(" body") for s in self.steps) else "effective"

    def has_token(self, token: str) -> bool:
        """Exact argv token, or `--opt=value` for a `--opt` token."""
        if token in self.argv[1:]:
            return True
        if token.startswith("-"):
            prefix = token + "="
            return any(a.startswith(prefix) for a in self.argv[1:])
        return False

    def __repr__(self) -> str:
        flag = f", compound={self.compound_reason!r}" if self.compound else ""
        return f"CommandInfo(argv={list(self.argv)!r}, program={self.program!r}, sub={self.subcommand!r}{flag})"


def analyze(
    command: str | None = None,
    argv: Sequence[str] | None = None,
    cwd: str | None = None,
) -> CommandInfo:
    """Understand a command given as a shell string and/or an argv list. Never raises:
    a line that cannot be read is split on blanks and flagged compound, so only
    content-based rules apply to it."""
    text = command if command and command.strip() else None
    original = text if text is not None else " ".join(argv or ())
    info = CommandInfo(original)
    try:
        if text is not None:
            _analyze_shell(text, info, cwd, 0)
        elif argv:
            info.given = tuple(argv)
            _analyze_argv(list(argv), info, cwd, 0)
        return info
    except ShellSyntaxError as exc:
        reason = str(exc)
    except (RecursionError, ValueError, IndexError, TypeError) as exc:
        from tokenjuice import _log

        reason = f"{type(exc).__name__}: {exc}"
        _log.warn(f"command analysis failed ({reason}); reducing generically")
    info = CommandInfo(original)
    info.parse_error = reason
    info.steps.append(f"shell parse failed ({reason}); split on blanks")
    words = original.split()
    info.argv = info.given = tuple(words)
    info.program = program_name(words[0]) if words else ""
    _mark_compound(info, "command line not understood")
    return info


def _mark_compound(info: CommandInfo, reason: str) -> None:
    if not info.compound:
        info.compound = True
        info.compound_reason = reason


def _is_setup(argv: list[str]) -> bool:
    rest = _strip_assignments(argv)
    if not rest:
        return True  # a bare `FOO=1` assignment
    return program_name(rest[0]) in tables.SETUP


def _is_noop(argv: list[str]) -> bool:
    name = program_name(argv[0])
    if name in tables.NOOPS:
        return True
    # `; echo "exit: $?"` only reports the status of the command before it.
    return name in ("echo", "printf") and any("$?" in a for a in argv[1:])


def _strip_assignments(argv: list[str]) -> list[str]:
    i = 0
    while i < len(argv) and is_assignment(argv[i]):
        i += 1
    return argv[i:]


def _analyze_shell(command: str, info: CommandInfo, cwd: str | None, depth: int) -> None:
    parsed = parse_shell(command)
    items = parsed.items
    if not items:
        return
    if depth == 0:
        info.given = tuple(items[0].stages[0].argv)
    if parsed.subshell:
        _mark_compound(info, "subshell or grouping")
    if parsed.heredoc:
        _mark_compound(info, "here-document")
    first_words = {program_name(st.argv[0]) for it in items for st in it.stages if st.argv}
    if first_words & _KEYWORDS:
        _mark_compound(info, "shell control structure")

    real: list[ChainItem] = []
    for idx, item in enumerate(items):
        argv0 = item.stages[0].argv
        if len(item.stages) == 1 and _is_setup(argv0) and not real:
            if program_name(_strip_assignments(argv0)[0] if _strip_assignments(argv0) else "x") == "cd":
                target = argv0[1] if len(argv0) > 1 else "~"
                info.steps.append(f"leading `cd {target}` skipped")
                if cwd is not None and target not in ("-", "~"):
                    cwd = os.path.join(cwd, os.path.expanduser(target))
            else:
                info.steps.append(f"setup step `{' '.join(argv0)[:40]}` skipped")
            continue
        if idx > 0 and real and len(item.stages) == 1 and _is_noop(argv0):
            info.steps.append(f"trailing `{item.connector} {' '.join(argv0)[:40]}` ignored")
            continue
        real.append(item)
    if not real:
        # Only setup steps (`cd x`): classify the last one as itself.
        real = [items[-1]]
    if len(real) > 1:
        _mark_compound(info, f"chain of {len(real)} commands")
    item = real[0]

    stages = list(item.stages)
    while len(stages) > 1 and stages[-1].argv and program_name(stages[-1].argv[0]) in tables.TRANSPARENT:
        st = stages.pop()
        name = program_name(st.argv[0])
        if name == "cat" and len(st.argv) > 1 and st.argv[1] != "-":
            stages.append(st)
            break
        if name in tables.SLICERS:
            info.sliced = True
        info.steps.append(f"pipe into `{name}` keeps the output")
    while len(stages) > 1 and stages[0].argv and program_name(stages[0].argv[0]) in tables.PRODUCERS:
        info.steps.append(f"`{program_name(stages[0].argv[0])}` only feeds the next stage")
        stages.pop(0)
    if len(stages) > 1:
        nxt = stages[1].argv[0] if stages[1].argv else "?"
        _mark_compound(info, f"output piped into `{program_name(nxt)}`")
    _analyze_argv(stages[0].argv, info, cwd, depth)


def _skip_options(argv: list[str], i: int, value_opts: frozenset[str]) -> int:
    """Skip options (and their values) starting at argv[i]; return the first positional."""
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return i + 1
        if not a.startswith("-") or a == "-":
            return i
        if a in value_opts:
            i += 2
            continue
        i += 1
    return i


def _analyze_argv(argv: list[str], info: CommandInfo, cwd: str | None, depth: int) -> None:
    argv = list(argv)
    while True:
        stripped = _strip_assignments(argv)
        if len(stripped) != len(argv):
            info.steps.append("environment assignments skipped")
            argv = stripped
        if not argv:
            break
        name = program_name(argv[0])
        low = name.lower()
        nxt = _unwrap_once(low, argv, info, cwd, depth)
        if nxt is None:
            break
        if isinstance(nxt, str):
            return  # a shell body was analyzed recursively
        argv = nxt
    info.argv = tuple(argv)
    if argv and ("$" in argv[0] or "`" in argv[0]):
        # `$(for …)`, `$CMD`: which program runs is only known when the shell expands it.
        info.steps.append(f"the program is an expansion ({argv[0][:30]})")
        _mark_compound(info, "program name comes from an expansion")
        return
    info.program = program_name(argv[0]) if argv else ""
    info.subcommand = _subcommand(info.program.lower(), argv)


def _subcommand(program: str, argv: list[str]) -> str | None:
    """The first positional argument when it reads as a subcommand word (`build`, `s3`,
    `run-script`), not a file, a path, a number or `-`."""
    if len(argv) < 2:
        return None
    opts = tables.GLOBAL_VALUE_OPTS.get(program, frozenset())
    i = 1
    while i < len(argv):
        a = argv[i]
        if a.startswith("+") and program == "cargo":  # cargo +nightly build
            i += 1
            continue
        if a.startswith("-") and a != "-":
            if a == "--":
                i += 1
                break
            i += 2 if a in opts else 1
            continue
        break
    word = argv[i] if i < len(argv) else ""
    if word[:1].isalpha() and word.isascii() and word.replace("-", "").replace("_", "").replace(":", "").isalnum():
        return word
    return None


def _unwrap_once(name: str, argv: list[str], info: CommandInfo, cwd: str | None, depth: int) -> list[str] | str | None:
    """One unwrapping step: the inner argv, "" when a shell body was handled, or None."""
    if name == "env":
        i = 1
        while i < len(argv):
            a = argv[i]
            if a == "--":
                i += 1
                break
            if is_assignment(a):
                i += 1
            elif a in tables.ENV_VALUE_OPTS:
                i += 2
            elif a.startswith("-"):
                i += 1
            else:
                break
        if i >= len(argv):
            return None
        info.steps.append("`env` wrapper")
        return argv[i:]

    if name in tables.WRAPPERS:
        value_opts, positional = tables.WRAPPERS[name]
        i = _skip_options(argv, 1, value_opts)
        if name == "nice" and len(argv) > 1 and argv[1].startswith("-") and argv[1][1:].isdigit():
            i = _skip_options(argv, 2, value_opts)
        i += positional
        if i >= len(argv):
            return None
        info.steps.append(f"`{name}` wrapper")
        return argv[i:]

    if name in tables.SHELLS:
        for j in range(1, len(argv) - 1):
            a = argv[j]
            if a.startswith("-") and not a.startswith("--") and "c" in a[1:]:
                if depth >= _MAX_DEPTH:
                    _mark_compound(info, "nested shells")
                    return None
                info.steps.append(f"`{name} {a}` body")
                _analyze_shell(argv[j + 1], info, cwd, depth + 1)
                return ""
        return None

    if name.startswith(tables.PYTHONS_PREFIX) and name.rstrip("0123456789.") in ("python", "pypy", "py"):
        i = _skip_options(argv, 1, tables.PYTHON_VALUE_OPTS)
        # The option scan stops at the first positional; `-m` is an option with a value.
        j = 1
        while j < len(argv):
            a = argv[j]
            if a == "-m" and j + 1 < len(argv):
                info.steps.append(f"`{name} -m {argv[j + 1]}` runner")
                return argv[j + 1 :]
            if a.startswith("-m") and len(a) > 2:
                info.steps.append(f"`{name} -m` runner")
                return [a[2:], *argv[j + 1 :]]
            if a == "-c" or not a.startswith("-"):
                break
            j += 2 if a in tables.PYTHON_VALUE_OPTS else 1
        del i
        return None

    if name in ("uv", "poetry", "pdm", "rye", "hatch", "pipenv") and len(argv) > 2 and argv[1] == "run":
        i = _skip_options(argv, 2, tables.UV_VALUE_OPTS)
        if i >= len(argv):
            return None
        info.steps.append(f"`{name} run` runner")
        return argv[i:]
    if name == "pipx" and len(argv) > 2 and argv[1] == "run":
        i = _skip_options(argv, 2, frozenset({"--spec", "--python", "--index-url", "--pip-args"}))
        if i >= len(argv):
            return None
        info.steps.append("`pipx run` runner")
        return argv[i:]
    if name == "uvx":
        i = _skip_options(argv, 1, tables.UV_VALUE_OPTS)
        if i >= len(argv):
            return None
        info.steps.append("`uvx` runner")
        return argv[i:]
    if name == "conda" and len(argv) > 2 and argv[1] == "run":
        i = _skip_options(argv, 2, tables.CONDA_VALUE_OPTS)
        if i >= len(argv):
            return None
        info.steps.append("`conda run` runner")
        return argv[i:]

    if name in ("npx", "bunx", "pnpx"):
        i = _skip_options(argv, 1, tables.NPX_VALUE_OPTS)
        if i >= len(argv):
            return None
        info.steps.append(f"`{name}` runner")
        return argv[i:]
    if name in ("bundle", "bundler") and len(argv) > 2 and argv[1] == "exec":
        i = _skip_options(argv, 2, frozenset({"--gemfile"}))
        if i >= len(argv):
            return None
        info.steps.append(f"`{name} exec` runner")
        return argv[i:]
    if name in ("npm", "pnpm", "yarn", "bun"):
        return _unwrap_package_script(name, argv, info, cwd, depth)
    return None


_SCRIPT_ALIASES = {"t": "test", "tst": "test"}
_NPM_LIFECYCLE = frozenset({"test", "start", "stop", "restart"})


def _unwrap_package_script(
    name: str, argv: list[str], info: CommandInfo, cwd: str | None, depth: int
) -> list[str] | str | None:
    """`pnpm exec X`, `npm test` / `npm run X` / `pnpm X`: the script body from
    package.json, else for pnpm/yarn/bun a known Node tool of that name."""
    i = _skip_options(argv, 1, tables.GLOBAL_VALUE_OPTS.get(name, frozenset()) | tables.PNPM_VALUE_OPTS)
    if i >= len(argv):
        return None
    cwd = _package_dir(argv[1:i], cwd)
    sub = argv[i]
    if name == "yarn" and sub in ("workspace", "workspaces") and i + 2 < len(argv):
        # `yarn workspace web jest`: the command runs in that workspace (`workspaces foreach` is many).
        if sub == "workspace":
            info.steps.append(f"`yarn workspace {argv[i + 1]}` runner")
            return ["yarn", *argv[i + 2 :]]
        return None
    if sub in ("exec", "dlx", "x") and i + 1 < len(argv):
        j = _skip_options(argv, i + 1, tables.PNPM_VALUE_OPTS | tables.NPX_VALUE_OPTS)
        if j >= len(argv):
            return None
        info.steps.append(f"`{name} {sub}` runner")
        return argv[j:]
    # Where no script of that name is known, yarn/bun `run X` and pnpm/yarn/bun `X` run the binary.
    bin_at: int | None = None
    if sub in ("run", "run-script", "rum", "urn"):
        if i + 1 >= len(argv):
            return None
        script = argv[i + 1]
        extra = argv[i + 2 :]
        bin_at = i + 1 if name in ("yarn", "bun") else None
    elif _SCRIPT_ALIASES.get(sub, sub) in _NPM_LIFECYCLE and not (name == "bun" and sub == "test"):
        script = _SCRIPT_ALIASES.get(sub, sub)
        extra = argv[i + 1 :]
    elif name in tables.PM_COMMANDS and sub not in tables.PM_COMMANDS[name] and not sub.startswith("-"):
        script = sub
        extra = argv[i + 1 :]
        bin_at = i
    else:
        return None
    if extra and extra[0] == "--":
        extra = extra[1:]
    body = package_script(cwd, script)
    if body is None and bin_at is not None and program_name(script) in tables.JS_BINS:
        info.steps.append(f"`{name} {script}`: no such script known, runs the binary")
        return argv[bin_at:]
    info.script = script
    if body is None or depth >= _MAX_DEPTH:
        info.steps.append(f"`{name} run {script}`: script body unknown")
        return None
    info.steps.append(f"`{name} run {script}` → `{body[:60]}`")
    full = body + ("" if not extra else " " + " ".join(shell_quote(e) for e in extra))
    _analyze_shell(full, info, cwd, depth + 1)
    return ""


def _package_dir(options: list[str], cwd: str | None) -> str | None:
    """The directory a package manager's `-C`/`--dir`/`--prefix`/`--cwd` option names."""
    for k, opt in enumerate(options):
        name, eq, value = opt.partition("=")
        if name in tables.PM_DIR_OPTS:
            value = value if eq else (options[k + 1] if k + 1 < len(options) else "")
            if value and cwd is not None:
                return os.path.join(cwd, os.path.expanduser(value))
    return cwd


_PACKAGE_RUNNERS = frozenset({"npm", "pnpm", "yarn"})


def with_script_from_output(info: CommandInfo, output: str) -> CommandInfo:
    """`npm run X` whose package.json we could not read: take the script from the output.

    npm and pnpm announce a script with `> pkg@1.0.0 X` and then `> <command>`; yarn 1
    with `$ <command>`. When that header names the script we were asked about, the
    command is analysed again as that body, so `npm test` gets the jest rule.
    """
    if info.script is None or info.program not in _PACKAGE_RUNNERS or not output:
        return info
    if not any(step.endswith("script body unknown") for step in info.steps):
        return info
    body = script_header(output[:4096], info.script)
    if body is None:
        return info
    new = analyze(body, None, None)
    new.original = info.original
    new.given = info.given
    new.script = info.script
    new.steps = [*info.steps, f"script from the output header: `{body[:60]}`", *new.steps]
    new.unresolved = info
    return new


def is_raw_request(argv: Sequence[str]) -> bool:
    """`--raw` or `--full` as exact tokens of the tool's argv ask for the raw output."""
    return any(a in ("--raw", "--full") for a in argv[1:])
