"""Shell-aware command understanding.

`analyze(command, argv, cwd)` tokenizes a shell command line (quotes, escapes,
operators, redirections, substitutions), splits it into a chain of pipelines, drops
setup steps (`cd DIR &&`, `export X=1;`, `source venv/bin/activate &&`) and trailing
no-ops (`|| true`, `; echo $?`), and sees through wrappers (`env`, `sudo`, `time`,
`nice`, …), shells (`bash -c '…'`) and runners (`python -m X`, `uv run X`, `npx X`,
`npm test`, …) to the program whose output we will reduce.

A command that is really several programs (a chain, a pipe into another program, a
subshell, a loop) is flagged `compound`; only content-based rules may then apply.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

# ----------------------------------------------------------------------------- tokens

WORD = "word"
OP = "op"
REDIR = "redir"

_OP_CHARS = "|&;()"
_BREAK = " \t\n|&;()<>"


class ShellSyntaxError(ValueError):
    pass


class Token:
    """A word, operator or redirection; `start`/`end` index it in the source line."""

    __slots__ = ("end", "kind", "quoted", "start", "value")

    def __init__(self, kind: str, value: str, quoted: bool = False, start: int = 0, end: int = 0) -> None:
        self.kind = kind
        self.value = value
        self.quoted = quoted
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"{self.kind}:{self.value!r}"


def _read_balanced(s: str, i: int, open_ch: str, close_ch: str) -> int:
    """Index just past the `close_ch` matching the `open_ch` at s[i-1]."""
    depth = 1
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                raise ShellSyntaxError("unterminated single quote")
            i = j + 1
            continue
        if c == '"':
            i = _read_double(s, i + 1)[1]
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ShellSyntaxError(f"unbalanced {open_ch}{close_ch}")


def _read_double(s: str, i: int) -> tuple[str, int]:
    """Read a double-quoted string body starting after the opening quote."""
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
            continue
        if c == "$" and s[i + 1 : i + 2] == "(":
            j = _read_balanced(s, i + 2, "(", ")")
            out.append(s[i:j])
            i = j
            continue
        if c == "`":
            j = s.find("`", i + 1)
            if j < 0:
                raise ShellSyntaxError("unterminated backquote")
            out.append(s[i : j + 1])
            i = j + 1
            continue
        out.append(c)
        i += 1
    raise ShellSyntaxError("unterminated double quote")


_ANSI_C_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a", "e": "\x1b"}


def _read_word(s: str, i: int) -> tuple[str, int, bool]:
    out: list[str] = []
    quoted = False
    n = len(s)
    while i < n:
        c = s[i]
        if c in _BREAK:
            # `<(…)` / `>(…)` process substitution belongs to the word.
            if c in "<>" and s[i + 1 : i + 2] == "(" and not out:
                j = _read_balanced(s, i + 2, "(", ")")
                out.append(s[i:j])
                i = j
                continue
            break
        if c == "\\":
            if i + 1 < n:
                if s[i + 1] != "\n":
                    out.append(s[i + 1])
                i += 2
            else:
                i += 1
            quoted = True
            continue
        if c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                raise ShellSyntaxError("unterminated single quote")
            out.append(s[i + 1 : j])
            i = j + 1
            quoted = True
            continue
        if c == '"':
            body, i = _read_double(s, i + 1)
            out.append(body)
            quoted = True
            continue
        if c == "$" and s[i + 1 : i + 2] == "'":
            j = i + 2
            buf: list[str] = []
            while j < n and s[j] != "'":
                if s[j] == "\\" and j + 1 < n:
                    buf.append(_ANSI_C_ESCAPES.get(s[j + 1], s[j + 1]))
                    j += 2
                    continue
                buf.append(s[j])
                j += 1
            if j >= n:
                raise ShellSyntaxError("unterminated $'…' quote")
            out.append("".join(buf))
            i = j + 1
            quoted = True
            continue
        if c == "$" and s[i + 1 : i + 2] in ("(", "{"):
            open_ch = s[i + 1]
            j = _read_balanced(s, i + 2, open_ch, ")" if open_ch == "(" else "}")
            out.append(s[i:j])
            i = j
            continue
        if c == "`":
            j = s.find("`", i + 1)
            if j < 0:
                raise ShellSyntaxError("unterminated backquote")
            out.append(s[i : j + 1])
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out), i, quoted


def tokenize(s: str) -> list[Token]:
    """Split a shell command line into words, operators and redirections."""
    tokens: list[Token] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in " \t":
            i += 1
            continue
        if c == "\\" and s[i + 1 : i + 2] == "\n":
            i += 2
            continue
        if c == "#":
            j = s.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "\n":
            tokens.append(Token(OP, ";", start=i, end=i + 1))
            i += 1
            continue
        if c == "&" and s[i + 1 : i + 2] == ">":
            i = _read_redirect(s, i, "", tokens)
            continue
        if c in _OP_CHARS:
            two = s[i : i + 2]
            if two in ("&&", "||", "|&", ";;"):
                tokens.append(Token(OP, two, start=i, end=i + 2))
                i += 2
            else:
                tokens.append(Token(OP, c, start=i, end=i + 1))
                i += 1
            continue
        if c in "<>":
            if s[i + 1 : i + 2] == "(":
                word, j, q = _read_word(s, i)
                tokens.append(Token(WORD, word, q, i, j))
                i = j
                continue
            i = _read_redirect(s, i, "", tokens)
            continue
        word, j, quoted = _read_word(s, i)
        # `2>file`, `2>&1`: a bare number glued to a redirection is its fd.
        if not quoted and word.isdigit() and j < n and s[j] in "<>":
            i = _read_redirect(s, j, word, tokens, start=i)
            continue
        tokens.append(Token(WORD, word, quoted, i, j))
        i = j
    return tokens


def _read_redirect(s: str, i: int, fd: str, tokens: list[Token], start: int | None = None) -> int:
    n = len(s)
    j = i
    while j < n and s[j] in "<>&|-" and j - i < 3:
        j += 1
    op = s[i:j]
    while j < n and s[j] in " \t":
        j += 1
    target, j, _ = _read_word(s, j) if j < n and s[j] not in _BREAK else ("", j, False)
    tokens.append(Token(REDIR, fd + op + target, start=i if start is None else start, end=j))
    return j


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


_KEYWORDS = {
    "if",
    "then",
    "else",
    "elif",
    "fi",
    "for",
    "while",
    "until",
    "do",
    "done",
    "case",
    "esac",
    "function",
    "select",
    "{",
    "}",
    "[[",
    "]]",
}


def parse_shell(command: str) -> ParsedShell:
    parsed = ParsedShell()
    item = ChainItem(None)
    for tok in tokenize(command):
        if tok.kind == WORD:
            item.stages[-1].argv.append(tok.value)
        elif tok.kind == REDIR:
            item.stages[-1].redirects.append(tok.value)
            if tok.value.lstrip("0123456789").startswith("<<") and not tok.value.lstrip("0123456789").startswith("<<<"):
                parsed.heredoc = True
        elif tok.value in ("|", "|&"):
            item.stages.append(SimpleCommand())
        elif tok.value in ("(", ")"):
            parsed.subshell = True
        else:  # ; && || & ;;
            if tok.value == "&":
                parsed.background = True
            if any(st.argv for st in item.stages):
                parsed.items.append(item)
            item = ChainItem(tok.value)
    if any(st.argv for st in item.stages):
        parsed.items.append(item)
    return parsed


# ---------------------------------------------------------------------- unwrapping

_ENV_ASSIGN_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def is_env_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and bool(name) and not name[0].isdigit() and set(name) <= _ENV_ASSIGN_CHARS


def program_name(word: str) -> str:
    """`/usr/bin/git` → `git`, `.\\node_modules\\.bin\\jest.cmd` → `jest`."""
    base = word.replace("\\", "/").rsplit("/", 1)[-1]
    lower = base.lower()
    for ext in (".exe", ".cmd", ".bat"):
        if lower.endswith(ext):
            return base[: -len(ext)]
    return base


# wrapper → (options taking a value, options without value that may precede the command,
#            number of leading positional arguments that are not the command)
_WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "sudo": (
        frozenset(
            {
                "-u",
                "-g",
                "-h",
                "-p",
                "-C",
                "-D",
                "-r",
                "-t",
                "-U",
                "-T",
                "--user",
                "--group",
                "--host",
                "--prompt",
                "--chdir",
                "--role",
                "--type",
                "--other-user",
            }
        ),
        0,
    ),
    "doas": (frozenset({"-u", "-C"}), 0),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "ionice": (frozenset({"-c", "-n", "-p", "--class", "--classdata"}), 0),
    "nohup": (frozenset(), 0),
    "command": (frozenset(), 0),
    "exec": (frozenset({"-a"}), 0),
    "builtin": (frozenset(), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e"}), 0),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "unbuffer": (frozenset(), 0),
    "chronic": (frozenset(), 0),
    "xvfb-run": (
        frozenset(
            {
                "-n",
                "--server-num",
                "-s",
                "--server-args",
                "-e",
                "--error-file",
                "-f",
                "--auth-file",
                "-p",
                "--xauth-protocol",
            }
        ),
        0,
    ),
    "caffeinate": (frozenset({"-t", "-w"}), 0),
    "flock": (frozenset({"-w", "--timeout", "-E", "--conflict-exit-code"}), 1),
    "setsid": (frozenset(), 0),
}
_ENV_VALUE_OPTS = frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})

_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"})
_SETUP = frozenset(
    {
        "cd",
        "pushd",
        "popd",
        "export",
        "set",
        "source",
        ".",
        "unset",
        "ulimit",
        "umask",
        "shopt",
        "alias",
        "trap",
        "declare",
        "typeset",
        "eval_noop",
    }
)
_NOOPS = frozenset({"true", ":", "exit"})
# Pipeline stages after the producer that leave its output as it is (or a slice of it).
_TRANSPARENT = frozenset({"tee", "cat", "head", "tail", "less", "more"})
_SLICERS = frozenset({"head", "tail"})
# Pipeline stages before the consumer that only produce data for it.
_PRODUCERS = frozenset({"echo", "printf", "yes", "cat", "true"})

_PYTHONS_PREFIX = ("python", "pypy")
_PYTHON_VALUE_OPTS = frozenset({"-W", "-X", "-Q", "--check-hash-based-pycs"})

_UV_VALUE_OPTS = frozenset(
    {
        "--with",
        "--with-editable",
        "--with-requirements",
        "--python",
        "-p",
        "--project",
        "--directory",
        "--extra",
        "--group",
        "--only-group",
        "--no-group",
        "--env-file",
        "--package",
        "--index",
        "--index-url",
        "--extra-index-url",
        "--find-links",
        "-f",
        "--cache-dir",
        "--config-file",
        "--color",
        "--exclude-newer",
        "--resolution",
        "--prerelease",
        "--refresh-package",
        "--reinstall-package",
        "--upgrade-package",
        "-P",
        "--from",
        "--script",
        "--native-tls",
        "--allow-insecure-host",
        "--keyring-provider",
        "--link-mode",
    }
)
_NPX_VALUE_OPTS = frozenset({"-p", "--package", "-c", "--call", "--cache", "--userconfig", "-w", "--workspace"})
_PNPM_VALUE_OPTS = frozenset({"-C", "--dir", "--filter", "-F", "--workspace-root", "--reporter"})
_CONDA_VALUE_OPTS = frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})

# Global options that take a value, per program, skipped to find the subcommand.
_GLOBAL_VALUE_OPTS: dict[str, frozenset[str]] = {
    "git": frozenset(
        {
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--exec-path",
            "--super-prefix",
            "--config-env",
            "--list-cmds",
            "--attr-source",
        }
    ),
    "cargo": frozenset({"--manifest-path", "--color", "--config", "-Z", "-C", "--target-dir"}),
    "docker": frozenset(
        {"--context", "-c", "-H", "--host", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"}
    ),
    "kubectl": frozenset(
        {
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--token",
            "--as",
            "--as-group",
            "--request-timeout",
            "-v",
        }
    ),
    "helm": frozenset(
        {
            "-n",
            "--namespace",
            "--kube-context",
            "--kubeconfig",
            "--registry-config",
            "--repository-config",
            "--repository-cache",
        }
    ),
    "npm": frozenset({"--prefix", "-w", "--workspace", "--userconfig", "--cache", "--registry", "--loglevel"}),
    "pnpm": _PNPM_VALUE_OPTS,
    "yarn": frozenset({"--cwd", "--cache-folder", "--modules-folder"}),
    "uv": frozenset({"--directory", "--project", "--cache-dir", "--config-file", "--color", "--python", "-p"}),
    "poetry": frozenset({"-C", "--directory", "-P", "--project"}),
    "gh": frozenset({"-R", "--repo", "--hostname"}),
    "terraform": frozenset(),
    "go": frozenset(),
    "dotnet": frozenset(),
    "pip": frozenset(
        {
            "--log",
            "--proxy",
            "--retries",
            "--timeout",
            "--exists-action",
            "--trusted-host",
            "--cert",
            "--client-cert",
            "--cache-dir",
            "--python",
            "--use-feature",
        }
    ),
    "aws": frozenset(
        {
            "--profile",
            "--region",
            "--output",
            "--endpoint-url",
            "--query",
            "--cli-read-timeout",
            "--cli-connect-timeout",
            "--color",
            "--ca-bundle",
        }
    ),
    "gcloud": frozenset({"--project", "--account", "--configuration", "--format", "--verbosity"}),
    "az": frozenset({"--subscription", "--output", "-o", "--query"}),
    "systemctl": frozenset(
        {
            "-H",
            "--host",
            "-M",
            "--machine",
            "-t",
            "--type",
            "-p",
            "--property",
            "--state",
            "-n",
            "--lines",
            "-o",
            "--output",
        }
    ),
    "brew": frozenset(),
    "apt": frozenset({"-o", "-c", "-t"}),
    "apt-get": frozenset({"-o", "-c", "-t"}),
    "dnf": frozenset({"-c", "--config", "--releasever", "--setopt", "--repo", "--enablerepo", "--disablerepo"}),
    "yum": frozenset({"-c", "--config", "--releasever", "--setopt", "--enablerepo", "--disablerepo"}),
    "composer": frozenset({"-d", "--working-dir"}),
    "bundle": frozenset(),
    "gem": frozenset(),
    "just": frozenset({"-f", "--justfile", "-d", "--working-directory", "--set", "--shell"}),
    "make": frozenset({"-C", "-f", "--file", "--makefile", "-j", "--jobs", "-I", "-o", "-W", "-l"}),
    "mvn": frozenset(
        {
            "-f",
            "--file",
            "-s",
            "--settings",
            "-P",
            "--activate-profiles",
            "-pl",
            "--projects",
            "-D",
            "-T",
            "--threads",
            "-gs",
            "-rf",
            "-t",
            "-l",
        }
    ),
    "gradle": frozenset(
        {
            "-p",
            "--project-dir",
            "-b",
            "--build-file",
            "-c",
            "--settings-file",
            "-D",
            "-P",
            "-x",
            "--exclude-task",
            "-I",
            "--init-script",
            "-g",
            "--gradle-user-home",
        }
    ),
}
_GLOBAL_VALUE_OPTS["gradlew"] = _GLOBAL_VALUE_OPTS["gradle"]
_GLOBAL_VALUE_OPTS["mvnw"] = _GLOBAL_VALUE_OPTS["mvn"]
_GLOBAL_VALUE_OPTS["tofu"] = _GLOBAL_VALUE_OPTS["terraform"]
_GLOBAL_VALUE_OPTS["pip3"] = _GLOBAL_VALUE_OPTS["pip"]
_GLOBAL_VALUE_OPTS["docker-compose"] = _GLOBAL_VALUE_OPTS["docker"]
_GLOBAL_VALUE_OPTS["podman"] = _GLOBAL_VALUE_OPTS["docker"]

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
    """Understand a command given as a shell string and/or an argv list."""
    if command and command.strip():
        info = CommandInfo(command)
        try:
            _analyze_shell(command, info, cwd, 0)
        except ShellSyntaxError as exc:
            info.parse_error = str(exc)
            info.steps.append(f"shell parse failed ({exc}); split on whitespace")
            _analyze_argv(command.split(), info, cwd, 0)
        return info
    info = CommandInfo(" ".join(argv or ()))
    if argv:
        _analyze_argv(list(argv), info, cwd, 0)
    return info


def _mark_compound(info: CommandInfo, reason: str) -> None:
    if not info.compound:
        info.compound = True
        info.compound_reason = reason


def _is_setup(argv: list[str]) -> bool:
    rest = _strip_assignments(argv)
    if not rest:
        return True  # a bare `FOO=1` assignment
    return program_name(rest[0]) in _SETUP


def _is_noop(argv: list[str]) -> bool:
    name = program_name(argv[0])
    if name in _NOOPS:
        return True
    # `; echo "exit: $?"` only reports the status of the command before it.
    return name in ("echo", "printf") and any("$?" in a for a in argv[1:])


def _strip_assignments(argv: list[str]) -> list[str]:
    i = 0
    while i < len(argv) and is_env_assignment(argv[i]):
        i += 1
    return argv[i:]


def _analyze_shell(command: str, info: CommandInfo, cwd: str | None, depth: int) -> None:
    parsed = parse_shell(command)
    items = parsed.items
    if not items:
        return
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
    while len(stages) > 1 and stages[-1].argv and program_name(stages[-1].argv[0]) in _TRANSPARENT:
        st = stages.pop()
        name = program_name(st.argv[0])
        if name == "cat" and len(st.argv) > 1 and st.argv[1] != "-":
            stages.append(st)
            break
        if name in _SLICERS:
            info.sliced = True
        info.steps.append(f"pipe into `{name}` keeps the output")
    while len(stages) > 1 and stages[0].argv and program_name(stages[0].argv[0]) in _PRODUCERS:
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
    info.program = program_name(argv[0]) if argv else ""
    info.subcommand = _subcommand(info.program.lower(), argv)


def _subcommand(program: str, argv: list[str]) -> str | None:
    if len(argv) < 2:
        return None
    opts = _GLOBAL_VALUE_OPTS.get(program, frozenset())
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
    return argv[i] if i < len(argv) else None


def _unwrap_once(name: str, argv: list[str], info: CommandInfo, cwd: str | None, depth: int) -> list[str] | str | None:
    """One unwrapping step: the inner argv, "" when a shell body was handled, or None."""
    if name == "env":
        i = 1
        while i < len(argv):
            a = argv[i]
            if a == "--":
                i += 1
                break
            if is_env_assignment(a):
                i += 1
            elif a in _ENV_VALUE_OPTS:
                i += 2
            elif a.startswith("-"):
                i += 1
            else:
                break
        if i >= len(argv):
            return None
        info.steps.append("`env` wrapper")
        return argv[i:]

    if name in _WRAPPERS:
        value_opts, positional = _WRAPPERS[name]
        i = _skip_options(argv, 1, value_opts)
        if name == "nice" and len(argv) > 1 and argv[1].startswith("-") and argv[1][1:].isdigit():
            i = _skip_options(argv, 2, value_opts)
        i += positional
        if i >= len(argv):
            return None
        info.steps.append(f"`{name}` wrapper")
        return argv[i:]

    if name in _SHELLS:
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

    if name.startswith(_PYTHONS_PREFIX) and name.rstrip("0123456789.") in ("python", "pypy", "py"):
        i = _skip_options(argv, 1, _PYTHON_VALUE_OPTS)
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
            j += 2 if a in _PYTHON_VALUE_OPTS else 1
        del i
        return None

    if name in ("uv", "poetry", "pdm", "rye", "hatch", "pipenv") and len(argv) > 2 and argv[1] == "run":
        i = _skip_options(argv, 2, _UV_VALUE_OPTS)
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
        i = _skip_options(argv, 1, _UV_VALUE_OPTS)
        if i >= len(argv):
            return None
        info.steps.append("`uvx` runner")
        return argv[i:]
    if name == "conda" and len(argv) > 2 and argv[1] == "run":
        i = _skip_options(argv, 2, _CONDA_VALUE_OPTS)
        if i >= len(argv):
            return None
        info.steps.append("`conda run` runner")
        return argv[i:]

    if name in ("npx", "bunx", "pnpx"):
        i = _skip_options(argv, 1, _NPX_VALUE_OPTS)
        if i >= len(argv):
            return None
        info.steps.append(f"`{name}` runner")
        return argv[i:]
    if name in ("pnpm", "yarn", "bun", "npm") and len(argv) > 2 and argv[1] in ("exec", "dlx", "x"):
        i = _skip_options(argv, 2, _PNPM_VALUE_OPTS)
        if i >= len(argv):
            return None
        info.steps.append(f"`{name} {argv[1]}` runner")
        return argv[i:]

    if name in ("npm", "pnpm", "yarn", "bun"):
        return _unwrap_package_script(name, argv, info, cwd, depth)
    return None


_SCRIPT_ALIASES = {"t": "test", "tst": "test"}
_NPM_LIFECYCLE = frozenset({"test", "start", "stop", "restart"})


def _unwrap_package_script(
    name: str, argv: list[str], info: CommandInfo, cwd: str | None, depth: int
) -> list[str] | str | None:
    """`npm test` / `npm run X` / `pnpm X`: resolve the script body from package.json."""
    i = _skip_options(argv, 1, _GLOBAL_VALUE_OPTS.get(name, frozenset()))
    if i >= len(argv):
        return None
    sub = argv[i]
    if sub in ("run", "run-script", "rum", "urn"):
        if i + 1 >= len(argv):
            return None
        script = argv[i + 1]
        extra = argv[i + 2 :]
    elif _SCRIPT_ALIASES.get(sub, sub) in _NPM_LIFECYCLE and not (name == "bun" and sub == "test"):
        script = _SCRIPT_ALIASES.get(sub, sub)
        extra = argv[i + 1 :]
    else:
        return None
    if extra and extra[0] == "--":
        extra = extra[1:]
    info.script = script
    body = _package_script(cwd, script)
    if body is None or depth >= _MAX_DEPTH:
        info.steps.append(f"`{name} run {script}`: script body unknown")
        return None
    info.steps.append(f"`{name} run {script}` → `{body[:60]}`")
    full = body + ("" if not extra else " " + " ".join(shell_quote(e) for e in extra))
    _analyze_shell(full, info, cwd, depth + 1)
    return ""


# What `shlex.quote` leaves unquoted (its `[\w@%+=:,./-]` with `re.ASCII`); spelt out so
# the hot path does not import `shlex` for one function.
_SHELL_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def shell_quote(s: str) -> str:
    """`shlex.quote`: the word as the shell reads it back."""
    if not s:
        return "''"
    if _SHELL_SAFE.issuperset(s):
        return s
    return "'" + s.replace("'", "'\"'\"'") + "'"


def _package_script(cwd: str | None, script: str) -> str | None:
    if not cwd:
        return None
    path = os.path.join(cwd, "package.json")
    try:
        with open(path, encoding="utf-8") as f:
            if os.fstat(f.fileno()).st_size > 2_000_000:
                return None
            import json

            data = json.load(f)
    except (OSError, ValueError):
        return None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    body = scripts.get(script) if isinstance(scripts, dict) else None
    return body if isinstance(body, str) and body.strip() else None


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
    body = _script_header(output[:4096], info.script)
    if body is None:
        return info
    new = analyze(body, None, None)
    new.original = info.original
    new.script = info.script
    new.steps = [*info.steps, f"script from the output header: `{body[:60]}`", *new.steps]
    new.unresolved = info
    return new


def _script_header(head: str, script: str) -> str | None:
    lines = head.splitlines()
    for i, line in enumerate(lines[:40]):
        if line.startswith("> ") and i + 1 < len(lines):
            words = line[2:].split()
            nxt = lines[i + 1]
            # npm: `> pkg@1.0.0 test` ; pnpm: `> pkg@1.0.0 test /path/to/pkg`
            if len(words) >= 2 and words[1] == script and nxt.startswith("> ") and nxt[2:].strip():
                return nxt[2:].strip()
        if line.startswith("$ ") and i > 0 and lines[i - 1].startswith("yarn run v"):
            return line[2:].strip() or None
    return None


def is_raw_request(argv: Sequence[str]) -> bool:
    """`--raw` or `--full` as exact tokens of the tool's argv ask for the raw output."""
    return any(a in ("--raw", "--full") for a in argv[1:])
