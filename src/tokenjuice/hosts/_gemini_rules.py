"""What Gemini CLI judges a shell command by, as far as its BeforeTool hook can see.

Gemini CLI runs the BeforeTool hook first and judges the command the hook hands back:
its command-substitution block, its policy rules (settings `tools.*` lists and policy
TOML files) and the heuristics of its policy engine all see `tokenjuice wrap -- …`
instead of what the model wrote. A rewrite must not change any of those verdicts, so
the hook rewrites only a command none of them can tell apart from its rewrite:

* Gemini CLI would not block it for a substitution (`blocks_substitution`, the same
  scan as Gemini CLI's own, over the command and its `bash -c` body).
* No shell-specific rule the hook can see matches the command or its rewrite, whole
  or any part of them (allow, deny or ask_user alike), and none restricts which shell
  commands may run at all (`tools.core` with commands, a safety checker on the shell
  tool, Conseca): `Rules.matching`.
* The engine's heuristics read the same of both (`heuristics`): a lone command on its
  list of known-safe programs (allowed without asking), a dangerous one (`rm -f`,
  `find -exec`, `git -c`, …: always asked), a redirection (an allowed command with one
  is asked), a git command in a folder not known to be trusted (asked).

Settings are read from the system defaults, the user (`$GEMINI_CLI_HOME/.gemini`, else
`~/.gemini`), every `.gemini` folder from the payload's cwd up, and the system
settings; policies from the user, admin (`/etc/gemini-cli/policies`), workspace and
extension folders and the settings' `policyPaths`/`adminPolicyPaths`. Modes, tiers
and priorities are not weighed: any rule that could apply counts. A file that exists
but cannot be read counts as a rule matching everything. What the hook cannot see
(command-line flags such as `--allowed-tools`, `--policy`, `--approval-mode`, rules a
user approves during a session, a connected IDE's trust) is in the README.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from re import Pattern

    from tokenjuice.command import Token

SHELL_TOOLS = ("run_shell_command", "ShellTool")
# Settings lists whose `run_shell_command(prefix)` entries name commands: under `tools`,
# and the older top-level ones.
_LISTS = ("allowed", "core", "exclude", "confirmationRequired")
_LEGACY_LISTS = ("allowedTools", "coreTools", "excludeTools")
MAX_FILE_BYTES = 4 << 20
# Gemini CLI's policy engine: programs it allows without asking when they run alone
# (`isKnownSafeCommand`), and the shells whose `-c` script it reads the same way.
SAFE_PROGRAMS = frozenset(
    {"__read", "__write", "cat", "cd", "cut", "echo", "expr", "false", "grep", "head", "id", "ls", "nl"}
    | {"paste", "pwd", "rev", "seq", "stat", "tail", "tr", "true", "uname", "uniq", "wc", "which"}
    | {"whoami", "numfmt", "tac"}
)
_SHELLS = frozenset({"bash", "zsh", "sh"})


class Unreadable(Exception):
    """A settings or policy file that exists but cannot be read."""


# ------------------------------------------------------------ substitutions


def blocks_substitution(command: str) -> bool:
    """Whether Gemini CLI refuses to run `command` for a command substitution: its
    scan (`detectBashSubstitution`) of the command with a `bash -c` wrapper stripped,
    here over every reading of that wrapper."""
    return any(_substitution(text) for text in _unwrapped(command))


def _substitution(command: str) -> bool:
    """`$(`, a backquote, or `<(`/`>(` outside double quotes, outside single quotes."""
    single = double = False
    i, n = 0, len(command)
    while i < n:
        c = command[i]
        if c == "'" and not double:
            single = not single
        elif c == '"' and not single:
            double = not double
        elif not single:
            if c == "\\" and i + 1 < n and (not double or command[i + 1] in '$`"\\\n'):
                i += 2
                continue
            nxt = command[i + 1 : i + 2]
            if c == "`" or (c == "$" and nxt == "(") or (not double and c in "<>" and nxt == "("):
                return True
        i += 1
    return False


def _unwrapped(command: str) -> list[str]:
    """The command, and for `sh|bash|zsh -c 'BODY'` its body as Gemini CLI reads it
    (`stripShellWrapper`): quotes cut off, and a double-quoted body also unescaped."""
    out = [command.strip()]
    words = command.split(None, 2)
    shell = words[0].rsplit("/", 1)[-1].lower() if words else ""
    if len(words) < 3 or shell not in _SHELLS or words[1].lower() != "-c":
        return out
    body = words[2].strip()
    out.append(body)
    if len(body) >= 2 and body[0] == body[-1] and body[0] in "'\"":
        inner = body[1:-1]
        out.append(inner)
        if body[0] == '"':
            out.append(_unescape_double(inner))
    return out


def _unescape_double(text: str) -> str:
    """What a shell makes of `\\$`, `\\``, `\\"` and `\\\\` inside double quotes."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1 : i + 2] in ("$", "`", '"', "\\"):
            out.append(text[i + 1])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


# ------------------------------------------------------------------ rules


class Rules:
    """The shell-specific rules the hook can see: patterns tested against the JSON of a
    call's arguments (as Gemini CLI's `argsPattern` is), and whether something it
    cannot weigh judges every shell command (`everything`: why)."""

    def __init__(self) -> None:
        self.patterns: list[tuple[str, Pattern[str]]] = []
        self.everything: str | None = None
        self.settings: list[dict[str, object]] = []  # system defaults, user, workspace…, system
        # security.folderTrust.enabled as Gemini CLI merges it (None: not set anywhere).
        self.folder_trust: bool | None = None

    def add(self, where: str, pattern: object) -> None:
        """A rule's pattern; one this module cannot read as Gemini CLI does counts as
        matching everything."""
        import re

        try:
            if not isinstance(pattern, str):
                raise TypeError(pattern)
            js = _python_regex(pattern)
            # Python's classes are Unicode, JavaScript's `\w`, `\d`, `\b` ASCII: either reading.
            self.patterns += [(where, re.compile(js)), (where, re.compile(js, re.ASCII))]
        except (re.error, TypeError, ValueError, RecursionError, OverflowError):
            self.everything = self.everything or f"a pattern in {where} that cannot be read here: {pattern!r}"

    def matching(self, command: str, rewritten: str, tool_input: Mapping[str, object]) -> str | None:
        """Why the rewrite could change a verdict: a rule that matches the command or
        its rewrite (whole, or a command within), or one that judges every command."""
        if self.everything:
            return self.everything
        if not self.patterns:
            return None
        for text in (*_candidates(command), *_candidates(rewritten)):
            for args in _argument_forms(text, tool_input):
                for where, rx in self.patterns:
                    if rx.search(args):
                        return f"a rule in {where} applies to `{text[:80]}`"
        return None


def load(cwd: str | None, env: Mapping[str, str] | None = None) -> Rules:
    """Every rule the hook can find for a session in `cwd`."""
    env = os.environ if env is None else env
    rules = Rules()
    try:
        _load(rules, cwd, env)
    except Unreadable as exc:
        rules.everything = f"cannot read {exc}"
    return rules


def _load(rules: Rules, cwd: str | None, env: Mapping[str, str]) -> None:
    home = gemini_home(env)
    system_dir = _system_dir()
    system = env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or os.path.join(system_dir, "settings.json")
    defaults = env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH") or os.path.join(
        os.path.dirname(system), "system-defaults.json"
    )
    workspaces = [os.path.join(d, ".gemini") for d in _upward(cwd)]
    files = [defaults, os.path.join(home, "settings.json"), *(os.path.join(w, "settings.json") for w in workspaces)]
    for path in [*dict.fromkeys(files), system]:
        data = _read_json(path)
        if isinstance(data, dict):
            rules.settings.append(data)
            _settings_rules(rules, data, path)
            # A project cannot turn folder trust off: the system settings win, then the user's.
            enabled = _folder_trust(data)
            if enabled is not None and path in (defaults, os.path.join(home, "settings.json"), system):
                rules.folder_trust = enabled
    policy_paths = [os.path.join(home, "policies"), os.path.join(system_dir, "policies")]
    policy_paths += [os.path.join(w, "policies") for w in workspaces]
    extensions = os.path.join(home, "extensions")
    for name in sorted(_listdir(extensions)):
        policy_paths.append(os.path.join(extensions, name, "policies"))
        manifest = _read_json(os.path.join(extensions, name, "gemini-extension.json"))
        if isinstance(manifest, dict):
            _entries(rules, manifest.get("excludeTools"), f"extension {name}", core=False)
    for data in rules.settings:
        for key in ("policyPaths", "adminPolicyPaths"):
            given = data.get(key)
            for p in given if isinstance(given, list) else []:
                if isinstance(p, str):
                    policy_paths.append(os.path.join(cwd or os.getcwd(), os.path.expanduser(p)))
    for path in dict.fromkeys(policy_paths):
        for toml_file in _toml_files(path):
            _policy_rules(rules, toml_file)


def gemini_home(env: Mapping[str, str]) -> str:
    """`$GEMINI_CLI_HOME/.gemini`, else `~/.gemini` (Gemini CLI's own choice)."""
    return os.path.join(env.get("GEMINI_CLI_HOME") or os.path.expanduser("~"), ".gemini")


def _system_dir() -> str:
    import sys

    if sys.platform == "darwin":
        return "/Library/Application Support/GeminiCli"
    if sys.platform == "win32":
        return "C:\\ProgramData\\gemini-cli"
    return "/etc/gemini-cli"


def _upward(cwd: str | None) -> list[str]:
    """`cwd` and each folder above it."""
    if not cwd:
        return []
    out, here = [], os.path.abspath(cwd)
    while True:
        out.append(here)
        up = os.path.dirname(here)
        if up == here:
            return out
        here = up


def _settings_rules(rules: Rules, data: dict[str, object], path: str) -> None:
    tools = data.get("tools")
    if isinstance(tools, dict):
        for key in _LISTS:
            _entries(rules, tools.get(key), f"{path} (tools.{key})", core=key == "core")
    for key in _LEGACY_LISTS:
        _entries(rules, data.get(key), f"{path} ({key})", core=key == "coreTools")
    security = data.get("security")
    if isinstance(security, dict) and security.get("enableConseca") is True:
        rules.everything = f"{path} turns on Conseca, which judges every tool call"


def _folder_trust(data: dict[str, object]) -> bool | None:
    security = data.get("security")
    folder_trust = security.get("folderTrust") if isinstance(security, dict) else None
    enabled = folder_trust.get("enabled") if isinstance(folder_trust, dict) else None
    return enabled if isinstance(enabled, bool) else None


def _entries(rules: Rules, entries: object, where: str, *, core: bool) -> None:
    """`run_shell_command(git log)` entries: a command prefix each."""
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, str):
            continue
        name, paren, rest = entry.partition("(")
        if paren and name in SHELL_TOOLS and rest.endswith(")"):
            if core:
                # Only the listed commands may run at all: none is rewritten.
                rules.everything = f"{where} restricts which shell commands may run"
            rules.add(where, _prefix_pattern(rest[:-1]))


def _policy_rules(rules: Rules, path: str) -> None:
    import tomllib

    try:
        data = tomllib.loads(_read_text(path))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        rules.everything = f"{path} is not TOML Gemini CLI would read the same: {exc}"
        return
    for checker in _tables(data.get("safety_checker")):
        if _for_shell(checker):
            rules.everything = f"a safety checker in {path} judges shell commands"
    for rule in _tables(data.get("rule")):
        if not _for_shell(rule):
            continue
        for pattern in _rule_patterns(rule):
            if not isinstance(pattern, str) or _safe_regex(pattern):
                rules.add(path, pattern)


def _tables(value: object) -> list[dict[str, object]]:
    return [t for t in value if isinstance(t, dict)] if isinstance(value, list) else []


def _for_shell(rule: dict[str, object]) -> bool:
    """Whether a policy rule can apply to run_shell_command calls."""
    if rule.get("mcpName") is not None:
        return False  # an MCP server's tool, never the shell
    names = rule.get("toolName")
    if names is None:
        return "commandPrefix" in rule or "commandRegex" in rule
    listed = names if isinstance(names, list) else [names]
    return any(n == "*" or n in SHELL_TOOLS or not isinstance(n, str) for n in listed)


def _rule_patterns(rule: dict[str, object]) -> list[object]:
    """The argsPattern regexes of a rule, as Gemini CLI builds them (`buildArgsPatterns`);
    none for a rule on the tool as a whole. Not a string: not one Gemini CLI reads."""
    prefix, regex, args = rule.get("commandPrefix"), rule.get("commandRegex"), rule.get("argsPattern")
    if prefix is not None:
        prefixes = prefix if isinstance(prefix, list) else [prefix]
        return [_prefix_pattern(p) if isinstance(p, str) else p for p in prefixes]
    if regex is not None:
        return [f'"command":"{regex}' if isinstance(regex, str) else regex]
    return [] if args is None or args == "" else [args]


def _safe_regex(pattern: str) -> bool:
    """Gemini CLI's `isSafeRegExp`: a policy file's pattern failing it is dropped there."""
    import re

    return len(pattern) <= 2048 and re.search(r"\([^)]*[*+?{].*\)[*+?{]", pattern) is None


def _prefix_pattern(prefix: str) -> str:
    """A commandPrefix as a pattern: `"command":"<prefix>` then a space, a quote or the end."""
    import re

    from tokenjuice import _jsonc

    return re.escape(f'"command":{_jsonc.dumps(prefix)[:-1]}') + r'(?:[\s"]|\\")'


def _python_regex(pattern: str) -> str:
    """A JavaScript regex as Python's `re` reads it; ValueError where they differ."""
    if "[^]" in pattern or "\\u{" in pattern or "\\c" in pattern:
        raise ValueError(pattern)
    return pattern.replace("(?<", "(?P<").replace("(?P<=", "(?<=").replace("(?P<!", "(?<!")


def _candidates(command: str) -> list[str]:
    """The texts Gemini CLI may check for `command`: the whole line and each command
    in it to the end of its part and of the line, each also without a `bash -c`."""
    from tokenjuice.command import OP, WORD, ShellSyntaxError, tokenize

    texts = [command]
    try:
        tokens = tokenize(command)
    except (ShellSyntaxError, RecursionError):
        tokens = []
    for i, tok in enumerate(tokens):
        if tok.kind == WORD and tok.cmd:
            end = next((t.start for t in tokens[i + 1 :] if t.kind == OP), len(command))
            texts += [command[tok.start : end].strip(), command[tok.start :].strip()]
    return list(dict.fromkeys(t for text in texts for t in _unwrapped(text) if t))


def _argument_forms(command: str, tool_input: Mapping[str, object]) -> Iterator[str]:
    """The call's arguments with `command` in them, as Gemini CLI's `stableStringify`
    writes them: the whole tool input, and the `command`/`dir_path` it checks each
    command of a line with."""
    yield _stable_json({**tool_input, "command": command})
    part: dict[str, object] = {"command": command}
    if isinstance(tool_input.get("dir_path"), str):
        part["dir_path"] = tool_input["dir_path"]
    yield _stable_json(part)


def _stable_json(args: Mapping[str, object]) -> str:
    """Keys sorted, no spaces, each top-level pair between NUL characters."""
    from tokenjuice import _jsonc

    pairs = []
    for key in sorted(args):
        value = args[key]
        if value is not None:
            pairs.append(f"\0{_jsonc.dumps(key)}:{_json(value)}\0")
    return "{" + ",".join(pairs) + "}"


def _json(value: object) -> str:
    import json

    # JSON.stringify's spelling: no spaces, no ASCII escapes, keys of nested objects sorted.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


# -------------------------------------------------------------- heuristics


def heuristics(tokens: list[Token], *, trusted: bool) -> str | None:
    """Why the policy engine's heuristics could tell a command (its `tokens`) and its
    rewrite apart: they read the line's words, and `tokenjuice wrap -- …` has others."""
    from tokenjuice.command import OP, REDIR, WORD

    words = [t.value for t in tokens]
    ops = [t.value for t in tokens if t.kind == OP]
    while ops and ops[-1] in (";", "\n"):
        ops.pop()
    if words and not ops and _maybe_known_safe(words):
        return f"Gemini CLI may allow a lone `{words[0]}` without asking"
    if dangerous(words):
        return "Gemini CLI always asks before this command"
    if any(t.kind == REDIR for t in tokens):
        return "Gemini CLI asks before an allowed command with a redirection"
    if not trusted and any(t.kind == WORD and os.path.basename(t.value).lower() in ("git", "git.exe") for t in tokens):
        return "Gemini CLI asks before a git command in a folder it does not trust"
    return None


def _maybe_known_safe(args: list[str]) -> bool:
    """Whether Gemini CLI's `isKnownSafeCommand` could hold: the programs it knows,
    before it looks at their arguments (a superset)."""
    cmd = args[0]
    if cmd in SAFE_PROGRAMS or cmd in _SHELLS or cmd in ("sed", "base64", "find"):
        return True
    if os.path.basename(cmd) in ("rg", "rg.exe"):
        return True
    return cmd == "git" and _git_subcommand(args) is not None


def dangerous(args: list[str]) -> bool:
    """Gemini CLI's `isDangerousCommand`: asked even when allowed (outside YOLO mode)."""
    if not args:
        return False
    cmd, rest = args[0], args[1:]
    if cmd == "ln" and any(a in ("-s", "--symbolic") or (a[:1] == "-" and a[:2] != "--" and "s" in a) for a in rest):
        return True
    if cmd == "rm":
        return bool(rest) and rest[0] in ("-f", "-rf", "-fr")
    if cmd == "sudo":
        return dangerous(rest)
    if cmd == "find":
        unsafe = {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"}
        return any(a in unsafe for a in rest)
    if os.path.basename(cmd) in ("rg", "rg.exe"):
        return any(
            a in ("--search-zip", "-z", "--pre", "--hostname-bin") or a.startswith(("--pre=", "--hostname-bin="))
            for a in rest
        )
    if cmd == "git":
        if any(a == "--config-env" or a.startswith(("--config-env=", "-c")) for a in args):
            return True  # a configuration override
        found = _git_subcommand(args)
        if found is None:
            return False
        sub, sub_args = found
        unsafe = {"--output", "--ext-diff", "--textconv", "--exec", "--paginate"}
        read_only = not any(a in unsafe or a.startswith(("--output=", "--exec=")) for a in sub_args)
        return not (read_only and (sub != "branch" or _branch_read_only(sub_args)))
    if cmd == "base64":
        return any(a == "--output" or a.startswith(("--output=", "-o")) for a in rest)
    return False


def _git_subcommand(args: list[str]) -> tuple[str, list[str]] | None:
    """The read-only-capable git subcommand and its arguments (`findGitSubcommand`)."""
    valued = ("-C", "-c", "--config-env", "--exec-path", "--git-dir", "--namespace", "--super-prefix", "--work-tree")
    skip = False
    for i, a in enumerate(args[1:], 1):
        if skip:
            skip = False
        elif a in valued:
            skip = True
        elif a.startswith("-"):
            continue
        elif a in ("status", "log", "diff", "show", "branch"):
            return a, args[i + 1 :]
        else:
            return None
    return None


def _branch_read_only(args: list[str]) -> bool:
    flags = {"--list", "-l", "--show-current", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose"}
    return not args or all(a in flags or a.startswith("--format=") for a in args)


# ------------------------------------------------------------------- trust


def trusted(cwd: str | None, rules: Rules, env: Mapping[str, str] | None = None) -> bool:
    """Whether Gemini CLI trusts `cwd` for certain (`checkPathTrust`); False when unsure."""
    env = os.environ if env is None else env
    if env.get("GEMINI_RESTRICTED_MODE") == "true" or env.get("GEMINI_CLI_TRUST_WORKSPACE") == "false":
        return False
    if env.get("GEMINI_CLI_TRUST_WORKSPACE") == "true":
        return True
    if rules.folder_trust is False:
        return True
    if any(name.startswith("GEMINI_CLI_IDE_") for name in env) or not cwd:
        return False  # a connected IDE's answer comes first and cannot be read here
    path = env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or os.path.join(gemini_home(env), "trustedFolders.json")
    try:
        folders = _read_json(path)
    except Unreadable:
        return False
    here = os.path.realpath(cwd)
    best, level = -1, None
    for rule_path, trust in (folders if isinstance(folders, dict) else {}).items():
        base = os.path.dirname(rule_path) if trust == "TRUST_PARENT" else rule_path
        real = os.path.realpath(os.path.expanduser(base))
        if (here == real or here.startswith(real.rstrip(os.sep) + os.sep)) and len(rule_path) > best:
            best, level = len(rule_path), trust
    return level in ("TRUST_FOLDER", "TRUST_PARENT")


# ------------------------------------------------------------------- files


def _read_text(path: str) -> str:
    from tokenjuice._fs import NotRegularFile, read_regular

    try:
        return read_regular(path, MAX_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, NotRegularFile, UnicodeDecodeError) as exc:
        raise Unreadable(f"{path}: {exc}") from None


def _read_json(path: str) -> object:
    """The JSON (comments allowed) in `path`; None when it is missing or empty."""
    from tokenjuice.hosts import _settings

    text = _read_text(path)
    if not text.strip():
        return None
    try:
        return _settings.loads_jsonc(text)
    except ValueError as exc:
        raise Unreadable(f"{path}: {exc}") from None


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        return []
    except OSError as exc:
        raise Unreadable(f"{path}: {exc}") from None


def _toml_files(path: str) -> list[str]:
    """A policy path: the `.toml` files of a folder, or the file itself."""
    if os.path.isdir(path):
        return [os.path.join(path, f) for f in sorted(_listdir(path)) if f.endswith(".toml")]
    return [path] if os.path.exists(path) else []
