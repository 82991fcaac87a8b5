"""tokenjuice's reading of Gemini CLI's checks (hosts/_gemini_rules.py) against Gemini
CLI's own code: the functions are cut out of the installed bundle and run in node on the
same inputs. Where the hook must be conservative it may see more than Gemini CLI
(block, match or single out more), never less.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.hosts import Host
from tokenjuice.command import ShellSyntaxError, tokenize
from tokenjuice.hosts import _gemini_rules as gemini

pytestmark = pytest.mark.e2e

FUNCTIONS = (
    "detectBashSubstitution",
    "stripShellWrapper",
    "extractStringFromParseEntry",
    "escapeRegex2",
    "buildArgsPatterns",
    "stableStringify",
    "isSafeRegExp",
    "isDangerousCommand",
    "findGitSubcommand",
    "gitHasConfigOverrideGlobalOption",
    "gitSubcommandArgsAreReadOnly",
    "gitBranchIsReadOnly",
    "isRipgrepCommand",
    "isSafeToCallWithExec",
    "isValidSedNArg",
)
MODULES = ("require_quote", "require_parse2", "require_shell_quote")  # the bundled shell-quote
# What isSafeToCallWithExec needs besides: every path inside the workspace, so it says
# "safe" as often as it ever can.
PRELUDE = """
const __commonJS = (cb, mod) => function () {
  return mod || (0, cb[Object.keys(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
};
const __toESM = (m) => m;
const path9 = require("path");
const fs9 = { lstatSync: () => undefined };
const resolveToRealPath = (p) => p;
const isSubpath = () => true;
const isPathEscapingWorkspace = () => false;
const isTrustedCommandPath = () => true;
"""
RUN = """
var import_shell_quote = __toESM(require_shell_quote(), 1);
const words = (c) => (0, import_shell_quote.parse)(c).map(extractStringFromParseEntry);
const matches = (pattern, args) => new RegExp(pattern).test(stableStringify(args));
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = {
  blocked: input.commands.map((c) => detectBashSubstitution(stripShellWrapper(c))),
  dangerous: input.commands.map((c) => isDangerousCommand(words(c))),
  safe: input.commands.map((c) => {
    const w = words(c).map((a) => (a === "zsh" ? "bash" : a));
    return w.length > 0 && isSafeToCallWithExec(w, "/ws", "/ws");
  }),
  json: input.args.map((a) => stableStringify(a)),
  prefix: input.prefixes.map((p) => input.args.map((a) => matches(buildArgsPatterns(undefined, p)[0], a))),
  regex: input.regexes.map((r) => input.args.map((a) => matches(buildArgsPatterns(undefined, undefined, r)[0], a))),
  unsafe: input.patterns.map((p) => !isSafeRegExp(p)),
};
process.stdout.write(JSON.stringify(out));
"""

COMMANDS = [
    "git log --stat",
    "git status && git log -n 3",
    "echo $(date)",
    'echo "$(date)"',
    "echo '$(date)'",
    "echo `date`",
    "echo '`date`'",
    'echo "`date`"',
    "echo \\$(date)",
    'echo "\\$(date)"',
    "echo $((1 + 2))",
    "diff <(ls) <(ls -a)",
    'echo "<(ls)"',
    "cat <(ls)",
    "tee >(wc -l)",
    "echo it's; echo $(x)",
    "git commit -m \"$(cat <<'EOF'\nfix\nEOF\n)\"",
    "cat <<EOF\n$(date)\nEOF",
    "bash -c 'echo $(date)'",
    'bash -c "echo $(date)"',
    'bash -c "echo \\$(date)"',
    "sh -c 'ls'",
    "/bin/bash -c 'git log -n $(echo 3)'",
    "ZSH -C 'echo `id`'",
    "cd sub && bash -c 'echo $(date)'",
    "ls -la",
    "ls -la && rm -rf x",
    "grep -rn TODO src",
    "git -c core.pager=cat log",
    "git --config-env=a=b status",
    "git -C sub log --output=out.txt",
    "git log --paginate",
    "git branch",
    "git branch -D old",
    "git branch --list",
    "git diff --ext-diff",
    "git show --stat HEAD",
    "git shortlog -sn",
    "git --no-pager diff",
    "find . -name '*.py' -delete",
    "find . -name '*.py'",
    "rg --pre cat foo",
    "rg -z foo",
    "rg foo",
    "rm -rf build",
    "rm -r build",
    "ln -s a b",
    "ln a b",
    "sudo rm -f x",
    "base64 -o out in",
    "base64 --output=out in",
    "base64 in",
    "sed -n 5p file",
    "sed -i s/a/b/ file",
    "zsh -c 'ls'",
    "wc -l src/*.py",
    "pytest -q",
    "npm test",
    "make -j4",
    "python3 build.py 2>&1",
    "cat file | grep x",
    "echo a; echo b",
]
PREFIXES = ["git log", "git", "npm test", "tokenjuice", "ls -la", 'echo "x"', "a\\b", "rm -rf"]
REGEXES = ["git (log|show)", ".*--stat", "npm.*", "(?<name>git) log", "[a-z]+ -la"]
PATTERNS = ["(a+)+$", "git (log|show)", "x" * 3000, "(a|b)*c", "([a-z]+)*x", "plain"]


def _node_bundle(host: Host) -> str:
    """The source of the bundle chunk Gemini CLI runs its policy engine from."""
    bundle = host.exe.resolve().parent
    entry = (bundle / "gemini.js").read_text()
    main = re.search(r'import\("\./(gemini-[A-Z0-9]+\.js)"\)', entry)
    assert main, "the Gemini CLI bundle changed shape: no main module import in gemini.js"
    chunks = re.findall(r'from "\./(chunk-[A-Z0-9]+\.js)"', (bundle / main.group(1)).read_text())
    for name in chunks:
        text = (bundle / name).read_text()
        if "\nfunction detectBashSubstitution(" in text:
            return text
    raise AssertionError("no chunk of the Gemini CLI bundle defines detectBashSubstitution")


def _cut(source: str, opening: str, closing: str) -> str:
    start = source.index(opening) + 1
    return source[start : source.index(closing, start) + len(closing)]


def _gemini_answers(host: Host, data: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node")
    assert node, "node runs Gemini CLI and these checks"
    source = _node_bundle(host)
    parts = [PRELUDE]
    parts += [_cut(source, f"\nvar {name} = __commonJS(", "\n});\n") for name in MODULES]
    parts += [_cut(source, f"\nfunction {name}(", "\n}\n") for name in FUNCTIONS]
    parts.append(RUN)
    script = Path(host.exe.resolve().parent.parent / ".tokenjuice-parity.cjs")
    try:
        script.write_text("\n".join(parts))
        proc = subprocess.run(
            [node, str(script)], input=json.dumps(data), capture_output=True, text=True, timeout=60, check=False
        )
    finally:
        script.unlink(missing_ok=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    answers: dict[str, Any] = json.loads(proc.stdout)
    return answers


@pytest.fixture(scope="module")
def answers(gemini_cli: Host) -> dict[str, Any]:
    args = [{"command": c} for c in COMMANDS]
    args += [{"command": c, "description": "run it", "dir_path": "/ws/sub"} for c in COMMANDS[:8]]
    args += [{"command": 'echo "x" && a\\b', "is_background": False}]
    data = {"commands": COMMANDS, "args": args, "prefixes": PREFIXES, "regexes": REGEXES, "patterns": PATTERNS}
    return {**_gemini_answers(gemini_cli, data), "args": args}


def test_substitutions_gemini_blocks_are_never_rewritten(answers: dict[str, Any]) -> None:
    ours = [gemini.blocks_substitution(c) for c in COMMANDS]
    missed = [c for c, theirs, mine in zip(COMMANDS, answers["blocked"], ours, strict=True) if theirs and not mine]
    assert not missed
    # The same scan: it blocks nothing more, but for a wrapper's body read more ways.
    extra = [c for c, theirs, mine in zip(COMMANDS, answers["blocked"], ours, strict=True) if mine and not theirs]
    assert extra == []


def test_arguments_are_written_as_gemini_writes_them(answers: dict[str, Any]) -> None:
    assert [gemini._stable_json(a) for a in answers["args"]] == answers["json"]


def test_every_argument_gemini_matches_matches_here(answers: dict[str, Any]) -> None:
    for kind, rules, built in (
        ("prefix", PREFIXES, [gemini._prefix_pattern(p) for p in PREFIXES]),
        ("regex", REGEXES, [f'"command":"{r}' for r in REGEXES]),
    ):
        for rule, pattern, theirs in zip(rules, built, answers[kind], strict=True):
            found = gemini.Rules()
            found.add("test", pattern)
            assert found.everything is None, rule
            mine = [any(rx.search(gemini._stable_json(a)) for _, rx in found.patterns) for a in answers["args"]]
            assert mine == theirs, f"{kind} {rule!r}"


def test_patterns_gemini_drops_are_dropped_here(answers: dict[str, Any]) -> None:
    assert [not gemini._safe_regex(p) for p in PATTERNS] == answers["unsafe"]


def test_heuristics_single_out_whatever_gemini_does(answers: dict[str, Any]) -> None:
    for command, dangerous, safe in zip(COMMANDS, answers["dangerous"], answers["safe"], strict=True):
        try:
            words = [t.value for t in tokenize(command)]
        except ShellSyntaxError:
            continue  # never rewritten

        if dangerous:
            assert gemini.dangerous(words), command
        if safe:
            assert gemini._maybe_known_safe(words), command
