"""The hook rewrite on command lines as agents write them, run for real.

Every line is run by bash twice, as written and as the Claude Code hook rewrites it,
each time in a fresh copy of the same directory at the same path: the exit code and
the files left behind must be identical, and the output must come through (every line
of a short output, unless the reduction pays for itself; a reduced output must give
every raw line back from its handle). Each case also states whether it is rewritten
("w") or left alone ("-"), so a change of decision is seen. The same decision must
come from the Codex and Gemini CLI hooks.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tokenjuice import hosts
from tokenjuice.command import shell_quote
from tokenjuice.hosts import _base as host_base
from tokenjuice.tokens import estimate

HD = "<<"  # keeps here-document openers readable in the table below

CASES: list[tuple[str, str]] = [
    # plain commands
    ("git status", "w"),
    ("git log --oneline", "w"),
    ("git log --stat", "w"),
    ("ls src", "w"),
    ("ls -R", "w"),
    ("find . -name '*.py' -not -path './.git/*'", "w"),
    ("grep -rn def src", "w"),
    ("wc -l src/app.py", "w"),
    ("ls /nonexistent", "w"),
    ("seq 1 3000", "w"),
    ("git show --stat HEAD", "w"),
    ("git diff HEAD~1", "w"),
    ("du -a src", "w"),
    ("./scripts/fail.sh", "w"),
    ("bash scripts/fail.sh", "w"),
    ("python3 scripts/long.py", "w"),
    ("python3 -c 'import sys; sys.exit(4)'", "w"),
    ("git status # a comment", "w"),
    ("  git status  ", "w"),
    ("git status;", "w"),
    # a prefix that stays in the agent's shell
    ("cd sub && ls", "w"),
    ("cd sub; ls -a", "w"),
    ("cd sub\nls", "w"),
    ("cd /nonexistent && ls", "w"),
    ("cd sub && ls && cd ..", "-"),
    ("pushd sub && ls", "w"),
    ("pushd sub && ls && popd", "-"),
    ("pushd sub >/dev/null; ls", "-"),
    ("export GREETING=hello && python3 -c 'import os; print(os.environ[\"GREETING\"])'", "w"),
    ("cd sub && export X=1 && python3 -c \"import os; print(os.environ['X'])\"", "w"),
    ("export A=1 B=2; env | grep -c '^[AB]='", "-"),
    ("umask 077 && touch f.txt && stat -c %a f.txt", "w"),
    ("source venv/bin/activate && hello", "w"),
    (". venv/bin/activate && python3 -c 'import os; print(os.environ[\"VIRTUAL_ENV\"])'", "w"),
    ("source env.sh && greet", "-"),
    ("source env.sh; ls sub", "-"),
    # errexit and other shell options
    ("set -e; ls /nonexistent; ls sub", "-"),
    ("set -euo pipefail; false | cat; echo after", "-"),
    ("set -o errexit\nls /nonexistent\nls sub", "-"),
    ("set -x; ls sub", "-"),
    ("(set -e; false; echo not here); ls sub", "-"),
    ("shopt -s globstar; ls **/*.py", "-"),
    ("ls **/*.py", "-"),
    # assignments, then use
    ("D=sub; ls $D", "-"),
    ('D=sub && ls "$D"', "-"),
    ("N=3; seq $N", "-"),
    ("(N=3; seq $N)", "w"),
    ("X=1 python3 -c 'import os; print(os.environ[\"X\"])'", "w"),
    ("FOO=bar BAR=baz env | grep -E '^(FOO|BAR)='", "-"),
    ("python3 -c \"print('$TJ_BATTERY')\"", "w"),
    ("ls $UNSET_VAR_XYZ", "-"),
    ("python3 -c 'print(1)' $RANDOM", "-"),
    ("ls ${HOME:+sub}", "w"),
    ('ls "${UNSET_Y:-sub}"', "-"),
    ("ls ${X:=sub}", "-"),
    ("git status; export A=1", "-"),
    ("git status\nexport A=1", "-"),
    (f'ls sub\ncat {HD}"{HD}EOF"\nexport X=1\n{HD}EOF\nexport Y=2', "-"),
    # here-documents
    (f"git commit -q --allow-empty -m \"$(cat {HD}'EOF'\nDon't crash.\n\nBody line.\nEOF\n)\" && git log -1", "w"),
    (f"git commit -q --allow-empty -F - {HD}'EOF'\nSubject with 'quotes' and \"more\"\nEOF", "w"),
    (f"python3 - {HD}'EOF'\nprint(\"it's\", 'a \"quoted\" $HOME')\nEOF", "w"),
    (f'python3 - {HD}EOF\nprint("$TJ_BATTERY")\nEOF', "w"),
    (f'python3 - {HD}EOF\nprint("$NOPE_UNSET")\nEOF', "-"),
    (f"cat {HD}-EOF\n\tindented\n\tEOF", "-"),
    (f"python3 - {HD}'PY'\nimport sys\nfor i in range(100): print(i)\nsys.exit(2)\nPY", "w"),
    (f"cat > made.txt {HD}'EOF'\nline 1\nEOF\nwc -l made.txt", "-"),
    (f"python3 -c \"print('''$(cat {HD}EOF\nx $TJ_BATTERY\nEOF\n)''')\"", "w"),
    (f"python3 - {HD}'EOF' && ls sub\nprint('first')\nEOF", "w"),
    ('wc -l <<< "a b c"', "w"),
    ('grep -c a <<< "$TJ_BATTERY abc"', "w"),
    (f"paste <(cat {HD}'A'\n1\n2\nA\n) <(cat {HD}'B'\n3\n4\nB\n)", "w"),
    # command substitution and backquotes
    ('echo "$(git rev-parse --abbrev-ref HEAD)"', "-"),
    ("git log -1 --format=%s $(git rev-parse HEAD)", "w"),
    ("ls `printf sub`", "w"),
    ('python3 -c "print($(seq 1 3 | paste -sd+ -))"', "w"),
    ("ls $(cd sub && pwd)", "w"),
    ("ls $(X=sub; echo $X)", "w"),
    # lists
    ("ls sub && ls src", "w"),
    ("ls /nonexistent || ls sub", "w"),
    ("ls /nonexistent; python3 -c \"print('status', $?)\"", "w"),
    ("false && echo no; echo $?", "-"),
    ("git status && git log --oneline -n 2", "w"),
    ("ls sub\nls src\n", "w"),
    ("python3 -c 'print(1)' &&\n  python3 -c 'print(2)'", "w"),
    ("ls sub || true", "w"),
    # functions and aliases
    ("f() { ls sub; }; f", "-"),
    ("function g { ls src; }; g", "-"),
    ("alias ll='ls -l'; ll", "-"),
    ("(f() { ls sub; }; f)", "w"),
    ("ll", "-"),
    # subshells and groups
    ("(cd sub && ls)", "w"),
    ("{ ls sub; ls src; }", "w"),
    ("{ ls sub; ls /nonexistent; } 2>&1", "w"),
    ("(ls sub; exit 3)", "w"),
    ("( ls /nonexistent )", "w"),
    # trap, umask, ulimit
    ("trap 'echo bye' EXIT; ls sub", "-"),
    ("ulimit -n 256 && ls sub", "-"),
    ("(ulimit -n 256; ls sub)", "w"),
    ("(umask 077; touch u.txt); stat -c %a u.txt", "w"),
    # process substitution
    ("diff <(ls sub) <(ls src)", "w"),
    ("wc -l < <(seq 1 10)", "w"),
    ("comm -3 <(printf 'a\\nb\\n') <(printf 'b\\nc\\n')", "w"),
    # loops
    ('for f in src/*.py; do wc -l "$f"; done', "-"),
    ('while read -r line; do echo "$line"; done < src/data.txt', "-"),
    ("seq 1 3 | while read x; do echo $x; done", "-"),
    ('for i in 1 2; do python3 -c "print($i)"; done', "-"),
    ("until [ -f stop ]; do touch stop; done; ls", "w"),
    ("(for i in 1 2 3; do seq $i; done)", "w"),
    # conditionals
    ("if [ -d sub ]; then ls sub; else ls src; fi", "w"),
    ("[ -f missing ] && ls missing || ls sub", "w"),
    ("[[ -d src && -f src/app.py ]] && wc -l src/app.py", "w"),
    ('case "$TJ_BATTERY" in 1) ls sub;; *) ls src;; esac', "w"),
    ("test -d sub && ls sub", "w"),
    ('[[ "$TJ_BATTERY" =~ ^[0-9]+$ ]] && ls sub', "w"),
    # arithmetic
    ("seq $((2+3))", "w"),
    ("(( 3 > 2 )) && ls sub", "w"),
    ("i=0; (( i++ )); seq $i", "-"),
    ('python3 -c "print($(( 7 * 6 )))"', "w"),
    ("seq $((UNSET_Z + 2))", "-"),
    # quotes of every kind
    ('python3 -c \'print("single \\"double\\" inside")\'', "w"),
    ("python3 -c \"print('double \\$HOME literal')\"", "w"),
    ("python3 -c $'print(\"tab\\\\there\")'", "w"),
    ("grep -n 'it'\"'\"'s' src/data.txt", "w"),
    ("printf '%s\\n' \"a b\" 'c d'", "-"),
    ("ls 'sub'", "w"),
    ("echo 'unterminated", "-"),
    ('ls "dir with spaces"', "w"),
    ("ls dir\\ with\\ spaces", "w"),
    # unicode
    ("python3 -c 'print(\"héllo wörld ✓ 日本\")'", "w"),
    ("grep -c ü src/data.txt", "w"),
    ("ls ünïcode", "w"),
    # timeout
    ("timeout 5 python3 -c 'print(1)'", "w"),
    ("timeout 1 sleep 5", "w"),
    ("timeout 0.5 python3 -c 'import time; time.sleep(3)'; ls sub", "w"),
    # exit N
    ("exit 3", "-"),
    ("ls sub; exit 4", "-"),
    ("(exit 5)", "-"),
    ("python3 -c 'import sys; print(\"x\"); sys.exit(7)'", "w"),
    # pipes
    ("git log --oneline | head -1", "-"),
    ("ls src | tee listing.txt", "w"),
    ("ls src 2>&1 | tee -a listing.txt", "w"),
    ("ls src | wc -l", "-"),
    # long outputs
    ("seq 1 20000", "w"),
    ("python3 scripts/long.py; ls sub", "w"),
    ("bash scripts/fail.sh 2>&1", "w"),
    ("python3 scripts/warnings.py", "w"),
    # background jobs, raw requests, reads, things with nothing to reduce
    ("sleep 0.1 & wait", "-"),
    ("ls sub &", "-"),
    ("TOKENJUICE_RAW=1 ls src", "-"),
    ("export TOKENJUICE_RAW=1; ls src", "-"),
    ("cd sub && cat a.txt", "-"),
    ("ls sub 2>/dev/null", "w"),
    ("ls nonexistent-dir 2> err.txt; cat err.txt", "w"),
    ("make -v", "w"),
    ("conda activate base && python3 -V", "-"),
    ("nvm use 18 && node -v", "-"),
    ("command -v python3", "-"),
    ("command ls sub", "w"),
    ('env -i PATH="$PATH" ls sub', "w"),
    ('xargs -n1 echo <<< "a b"', "w"),
    ("ls > out.txt", "-"),
    ("git log --oneline > log.txt 2>&1", "-"),
    ("eval 'ls sub'", "-"),
    ("exec ls sub", "-"),
    ("tokenjuice --help", "-"),
]


def _make_template(root: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / "scripts").mkdir()
    (root / "dir with spaces").mkdir()
    (root / "ünïcode").mkdir()
    (root / "dir with spaces" / "x.txt").write_text("x\n")
    (root / "ünïcode" / "ä.txt").write_text("ä\n")
    (root / "sub" / "a.txt").write_text("one\n")
    (root / "sub" / "b.txt").write_text("two\n")
    (root / "src" / "app.py").write_text("def main():\n    return 1\n\n\ndef helper():\n    return 2\n")
    (root / "src" / "util.py").write_text("def util():\n    pass\n")
    (root / "src" / "data.txt").write_text("alpha\nit's here\nüber\nbeta\n")
    fail = root / "scripts" / "fail.sh"
    fail.write_text(
        "#!/bin/bash\nfor i in $(seq 1 2000); do echo \"step $i ok\"; done\necho 'fatal: boom' >&2\nexit 3\n"
    )
    fail.chmod(0o755)
    (root / "scripts" / "long.py").write_text("for i in range(3000):\n    print(f'line {i} of output')\n")
    (root / "scripts" / "warnings.py").write_text(
        "import sys\n"
        "for i in range(5000):\n"
        "    print(f'WARNING [db] slow query id={i} elapsed={i % 900 + 100}ms')\n"
        "print('ERROR connection lost', file=sys.stderr)\n"
        "sys.exit(1)\n"
    )
    (root / "env.sh").write_text('GREETING=hi\ngreet() { echo "$GREETING from greet"; ls sub; }\n')
    venv = root / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "bin" / "activate").write_text(
        'VIRTUAL_ENV="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"\nexport VIRTUAL_ENV\n'
        'PATH="$VIRTUAL_ENV/bin:$PATH"\nexport PATH\ndeactivate() { :; }\n'
    )
    hello = venv / "bin" / "hello"
    hello.write_text("#!/bin/sh\necho hello from the venv\nls\n")
    hello.chmod(0o755)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    for n, (path, text) in enumerate(
        [("sub/a.txt", "one\n"), ("src/app.py", "def main():\n    return 3\n"), ("sub/b.txt", "two!\n")]
    ):
        (root / path).write_text(text)
        subprocess.run([*git, "add", "-A"], cwd=root, check=True, env=_env())
        subprocess.run([*git, "commit", "-qm", f"commit {n}"], cwd=root, check=True, env=_env())


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
        "TJ_BATTERY": "1",
        "SHELL": "/bin/bash",
        "LC_ALL": "C.UTF-8",
    }


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("battery-template") / "t"
    _make_template(root)
    return root


def _snapshot(root: Path) -> dict[str, object]:
    """Every file and directory left behind (git's own files by what they mean)."""
    out: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == ".git" or rel.startswith(".git/"):
            continue
        mode = path.lstat().st_mode
        out[rel] = path.read_bytes() if stat.S_ISREG(mode) else stat.S_IFMT(mode)
        out[rel + ":perm"] = stat.S_IMODE(mode)
    if (root / ".git").is_dir():
        for args in (["rev-list", "--all", "--format=%H %B"], ["status", "--porcelain"]):
            out["git " + args[0]] = subprocess.run(["git", *args], cwd=root, capture_output=True, env=_env()).stdout
    return out


def _run(command: str, where: Path, template: Path) -> tuple[subprocess.CompletedProcess[bytes], dict[str, object]]:
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(template, where, symlinks=True)
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=where,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=_env(),
        timeout=120,
    )
    return done, _snapshot(where)


def _exe() -> str:
    script = Path(sys.executable).with_name("tokenjuice")
    if script.exists():
        return shell_quote(str(script))
    return f"{shell_quote(sys.executable)} -m tokenjuice"


def _hook(host: str, command: str, cwd: Path) -> str | None:
    """The command the host would run after our hook (None: unchanged)."""
    handler = hosts.get(host)
    if host == "gemini-cli":
        payload: dict[str, object] = {
            "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command},
            "cwd": str(cwd),
        }
    else:
        payload = {
            "session_id": "s",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "cwd": str(cwd),
            "permission_mode": "bypassPermissions",
        }
    response = handler.handle(payload)
    json.dumps(response)  # the host reads it as JSON
    return None if response is None else handler.rewritten_command(response)


def _gemini_reason(command: str, rewritten: str, cwd: Path) -> str | None:
    from tokenjuice.hosts import _gemini_rules, gemini_cli
    from tokenjuice.hosts._rewrite import plan

    if _gemini_rules.blocks_substitution(command):
        return "Gemini CLI blocks its substitution"
    if plan(command, _exe(), cwd=str(cwd), substitutions=False).command is None:
        return "runs a substitution"
    return gemini_cli.verdict_change(command, rewritten, {"command": command}, str(cwd))


def _lines(data: bytes) -> Counter[str]:
    return Counter(data.decode("utf-8", "replace").splitlines())


@pytest.mark.parametrize(("command", "expected"), CASES, ids=[f"{i:03d}" for i in range(len(CASES))])
def test_battery(command: str, expected: str, template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in _env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("CLAUDE_CODE_SHELL", raising=False)
    where = tmp_path / "work"
    shutil.copytree(template, where, symlinks=True)
    monkeypatch.setattr(host_base, "tokenjuice_command", _exe)
    rewritten = _hook("claude-code", command, where)
    assert _hook("codex", command, where) == rewritten, "codex decides differently"
    gemini = _hook("gemini-cli", command, where)
    if gemini != rewritten:
        # Gemini CLI judges the command the hook hands back: a line its own checks could
        # tell apart from the rewrite stays as written there; it is never rewritten otherwise.
        assert gemini is None and rewritten is not None, "gemini-cli decides differently"
        assert _gemini_reason(command, rewritten, where), f"gemini-cli left {command!r} alone for no reason of its own"
    assert ("w" if rewritten else "-") == expected, f"expected {expected!r}, rewrite: {rewritten!r}"
    if rewritten is None:
        return

    before, files_before = _run(command, where, template)
    after, files_after = _run(rewritten, where, template)
    assert after.returncode == before.returncode, after.stdout.decode(errors="replace")[-2000:]
    assert files_after == files_before
    text = after.stdout.decode("utf-8", "replace")
    if text.startswith("exit "):
        assert text.split("\n", 1)[0] == f"exit {before.returncode}"
    handle = re.search(r"tokenjuice cat ([0-9a-f]{6,})", text)
    raw_lines = _lines(before.stdout)
    if handle is None:
        # Not reduced: every line of the output came through.
        assert not raw_lines - _lines(after.stdout), text[-2000:]
        return
    # Reduced: it paid for itself, and every raw line comes back from the handle.
    raw_tokens, text_tokens = estimate(before.stdout.decode("utf-8", "replace")), estimate(text)
    assert raw_tokens - text_tokens >= 100
    assert text_tokens <= raw_tokens * 0.75
    back = subprocess.run([*_exe_argv(), "cat", handle.group(1)], capture_output=True, env=_env(), timeout=60)
    assert back.returncode == 0, back.stderr
    assert _lines(back.stdout) == raw_lines


def _exe_argv() -> list[str]:
    script = Path(sys.executable).with_name("tokenjuice")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tokenjuice"]


def test_the_battery_is_large_and_rewrites_most_forms() -> None:
    assert len(CASES) >= 100
    assert len({c for c, _ in CASES}) == len(CASES)
    rewritten = sum(1 for _, e in CASES if e == "w")
    assert rewritten >= len(CASES) // 2
