"""The command line, run for real as a subprocess: reduce, reduce-json, wrap, verify,
explain, and clean one-line errors for bad input."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.helpers import load, lost
from tokenjuice.rules.fixtures import fixture_run

TJ = [sys.executable, "-m", "tokenjuice"]


def tj(
    *args: str, stdin: str | bytes | None = None, cwd: str | Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    p = subprocess.run([*TJ, *args], input=data, capture_output=True, cwd=cwd, timeout=timeout)
    return subprocess.CompletedProcess(p.args, p.returncode, p.stdout.decode(), p.stderr.decode())


def assert_one_line_error(p: subprocess.CompletedProcess[str]) -> None:
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stderr.startswith("tokenjuice: error: "), p.stderr
    assert p.stderr.count("\n") == 1, p.stderr
    assert "Traceback" not in p.stderr


def test_version_and_module_entry_point() -> None:
    p = tj("--version")
    assert p.returncode == 0
    assert p.stdout.startswith("tokenjuice ")


def test_reduce_file_and_stdin() -> None:
    fx = load("pytest", "pytest-failures-default")
    combined = fixture_run(fx).combined
    p = tj("reduce", "--command", "pytest", "--exit-code", "1", stdin=combined)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("exit 1\n")
    assert not lost(fx, p.stdout)
    assert len(p.stdout) < len(combined) / 2


def test_reduce_json_protocol_direct_and_envelope() -> None:
    fx = load("git-status", "git-status-long")
    payload = {
        "toolName": "exec",
        "command": fx["command"],
        "argv": fx["argv"],
        "stdout": fx["stdout"],
        "stderr": fx["stderr"],
        "combinedText": fx["combined"],
        "exitCode": 0,
    }
    p = tj("reduce-json", stdin=json.dumps(payload))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["classification"] == {
        "family": "git-status",
        "matchedReducer": "git/status",
        "confidence": out["classification"]["confidence"],
        "matchedVia": "original",
        "matchedCommand": "git status",
        "selectedBy": "command",
    }
    assert out["stats"]["rawChars"] == len(fx["combined"])
    assert out["stats"]["reducedChars"] == len(out["inlineText"])
    assert not lost(fx, out["inlineText"])
    env = {"input": payload, "options": {"maxInlineChars": 300, "raw": True}}
    raw = json.loads(tj("reduce-json", stdin=json.dumps(env)).stdout)
    assert raw["inlineText"] == fx["combined"]
    assert raw["mode"] == "raw"


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-32"])
def test_reduce_json_reads_the_encodings_json_reads(encoding: str) -> None:
    fx = load("git-status", "git-status-long")
    payload = json.dumps({"command": fx["command"], "stdout": fx["stdout"], "exitCode": 0}, ensure_ascii=False)
    plain = json.loads(tj("reduce-json", stdin=payload.encode("utf-8")).stdout)
    p = tj("reduce-json", stdin=payload.encode(encoding))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["inlineText"] == plain["inlineText"]


@pytest.mark.parametrize(
    ("args", "stdin", "fragment"),
    [
        (["reduce-json"], "{not json", "malformed JSON"),
        (["reduce-json"], '{"toolName": "exec", "stdoutt": "x"}', "unknown field input.'stdoutt'"),
        (["reduce-json"], '{"input": {"exitCode": "1"}}', "input.exitCode must be a integer"),
        (["reduce-json"], "[1, 2]", "payload must be a JSON object"),
        (["reduce-json", "/no/such/file.json"], None, "no such file: /no/such/file.json"),
        (["reduce", "/no/such/file"], None, "no such file"),
        (["reduce", "--exit-code", "one"], "x", "expected an integer exit code"),
        (["wrap"], None, "wrap needs a command"),
        (["explain"], None, "explain needs a command"),
        (["no-such-command"], None, "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], stdin: str | None, fragment: str) -> None:
    p = tj(*args, stdin=stdin if stdin is not None else b"")
    assert_one_line_error(p)
    assert fragment in p.stderr


def test_wrap_runs_the_command_and_exits_like_it(tmp_path: Path) -> None:
    script = tmp_path / "fail.py"
    script.write_text(
        textwrap.dedent("""
        import sys
        for i in range(3000):
            print(f"processed item {i} of 3000")
        print("Traceback (most recent call last):", file=sys.stderr)
        print('  File "fail.py", line 9, in <module>', file=sys.stderr)
        print("ValueError: item 2999 is corrupt", file=sys.stderr)
        sys.exit(3)
    """)
    )
    p = tj("wrap", "--", sys.executable, str(script), cwd=tmp_path)
    assert p.returncode == 3
    assert p.stdout.startswith("exit 3\n")
    assert "ValueError: item 2999 is corrupt" in p.stdout
    assert 'fail.py", line 9' in p.stdout
    assert "processed item 2999 of 3000" in p.stdout
    assert len(p.stdout) < 20_000
    assert p.stderr == ""


def test_wrap_passes_stdin_through_and_tees(tmp_path: Path) -> None:
    code = "import sys; data = sys.stdin.read(); print('got', len(data), 'bytes'); print(data.upper())"
    p = tj("wrap", "--tee", "--", sys.executable, "-c", code, stdin="hello from stdin\n")
    assert p.returncode == 0
    assert "got 17 bytes" in p.stdout
    assert "HELLO FROM STDIN" in p.stdout
    assert "got 17 bytes" in p.stderr  # --tee shows the raw output live on stderr


def test_wrap_shell_mode_and_raw() -> None:
    p = tj("wrap", "--shell", "--", "echo one; echo two >&2; exit 4")
    assert p.returncode == 4
    assert p.stdout.splitlines() == ["exit 4", "one", "two"]
    p = tj("wrap", "--raw", "--", sys.executable, "-c", "print('x\\n' * 500)")
    assert p.returncode == 0
    assert p.stdout.count("x\n") == 500


def test_wrap_reports_death_by_signal() -> None:
    code = "import os, signal; print('about to die', flush=True); os.kill(os.getpid(), signal.SIGTERM)"
    p = tj("wrap", "--", sys.executable, "-c", code)
    assert p.returncode == 128 + signal.SIGTERM
    assert p.stdout.startswith(f"exit {128 + signal.SIGTERM} (killed by SIGTERM)")
    assert "about to die" in p.stdout


def test_wrap_timeout_kills_and_says_so() -> None:
    p = tj(
        "wrap",
        "--timeout",
        "0.5",
        "--",
        sys.executable,
        "-c",
        "import time; print('start', flush=True); time.sleep(30)",
    )
    assert p.returncode == 124
    assert p.stdout.startswith("exit 124 (timed out after 0.5s; killed)")
    assert "start" in p.stdout


def test_wrap_forwards_sigterm_to_the_child(tmp_path: Path) -> None:
    marker = tmp_path / "got-term"
    code = textwrap.dedent(f"""
        import signal, sys, time
        def bye(*_):
            open({str(marker)!r}, "w").write("yes")
            print("child got SIGTERM", flush=True)
            sys.exit(7)
        signal.signal(signal.SIGTERM, bye)
        print("ready", flush=True)
        time.sleep(30)
    """)
    proc = subprocess.Popen(
        [*TJ, "wrap", "--", sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    deadline = time.time() + 20
    while time.time() < deadline and not _child_ready(proc.pid):
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert marker.read_text() == "yes"
    assert proc.returncode == 7
    assert b"child got SIGTERM" in out


def _child_ready(pid: int) -> bool:
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return False
    return bool(children)


def test_wrap_missing_program() -> None:
    p = tj("wrap", "--", "definitely-not-a-program-xyz")
    assert p.returncode == 127
    assert "command not found: definitely-not-a-program-xyz" in p.stdout


def test_verify_prints_counts() -> None:
    p = tj("verify")
    assert p.returncode == 0, p.stdout
    assert "0 problems" in p.stdout
    assert "builtin" in p.stdout


def test_verify_reports_broken_user_rules(tmp_path: Path) -> None:
    rules = tmp_path / "config" / "rules"
    rules.mkdir(parents=True)
    (rules / "bad.json").write_text(json.dumps({"id": "mine/x", "family": "x", "match": {"argv0": "x"}}))
    (rules / "regex.json").write_text(
        json.dumps({"id": "mine/y", "family": "x", "match": {"argv0": ["y"]}, "filters": {"skipPatterns": ["(oops"]}})
    )
    env = dict(os.environ, TOKENJUICE_HOME=str(tmp_path))
    p = subprocess.run([*TJ, "verify"], capture_output=True, text=True, env=env)
    assert p.returncode == 1
    assert "bad.json: rule 'mine/x': match.argv0: must be an array" in p.stdout
    assert "regex.json: rule 'mine/y'" in p.stdout
    assert "filters.skipPatterns[0]" in p.stdout


def test_explain_shows_choice_runners_up_and_reasons(tmp_path: Path) -> None:
    rules = tmp_path / "config" / "rules"
    rules.mkdir(parents=True)
    (rules / "stat.json").write_text(
        json.dumps(
            {
                "id": "mine/diff-stat",
                "family": "git-diff",
                "match": {"gitSubcommands": ["diff"], "argvIncludes": [["--stat"]]},
            }
        )
    )
    env = dict(os.environ, TOKENJUICE_HOME=str(tmp_path))
    p = subprocess.run(
        [*TJ, "explain", "--", "git", "-C", "repo", "diff", "--stat"], capture_output=True, text=True, env=env
    )
    assert p.returncode == 0, p.stderr
    assert "chosen:     mine/diff-stat" in p.stdout
    assert "git/diff" in p.stdout  # the runner-up
    assert "argv has --stat" in p.stdout
    compound = tj("explain", "-c", "git diff | grep foo")
    assert "compound:   output piped into `grep`" in compound.stdout
    assert "generic/fallback" in compound.stdout


def test_explain_json_with_output(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("waiting\n" * 500 + "done\n")
    p = tj("explain", "--json", "--output", str(out), "--", "./build.sh")
    data = json.loads(p.stdout)
    assert data["chosen"]["id"] == "generic/fallback"
    assert data["density"] < 0.3
    assert data["reduction"]["mode"] == "generic"


def test_wrap_without_a_terminal_logs_warnings_instead_of_printing_them(tmp_path: Path) -> None:
    """Under an agent, wrap's stderr is model text: warnings go to the log file."""
    home = tmp_path / "tjhome"
    rules = home / "config" / "rules"
    rules.mkdir(parents=True)
    (rules / "broken.json").write_text("{not json")
    env = {**os.environ, "TOKENJUICE_HOME": str(home)}
    p = subprocess.run([*TJ, "wrap", "--", sys.executable, "-c", "print('hi')"], capture_output=True, env=env)
    assert p.returncode == 0 and p.stdout == b"hi\n"
    assert b"warning" not in p.stderr
    log = (home / "state" / "warnings.log").read_text()
    assert "broken.json" in log
    doc = subprocess.run([*TJ, "doctor"], capture_output=True, text=True, env=env)
    assert "warnings logged by wrap/hook: 1" in doc.stdout


@pytest.mark.parametrize("allowed_by", ["bypassPermissions", "a permission rule"])
def test_hook_call_is_read_without_argparse_and_answers_the_same(tmp_path: Path, allowed_by: str) -> None:
    """`tokenjuice hook HOST` (what installed hooks run on every tool call) imports
    neither argparse nor the json package nor `re` once the regex cache is warm, also
    when it reads the user's permission rules, and answers as the same call read by
    argparse does."""
    call: dict[str, object] = {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git status"},
        "cwd": str(tmp_path),
    }
    if allowed_by == "bypassPermissions":
        call["permission_mode"] = "bypassPermissions"
    else:
        (tmp_path / ".claude").mkdir()
        rules = {"permissions": {"allow": ["Bash(git status:*)", "Bash(npm run *)"], "deny": ["Bash(rm:*)"]}}
        (tmp_path / ".claude" / "settings.json").write_text(json.dumps(rules))
    payload = json.dumps(call).encode()
    probe = "import sys\nfrom tokenjuice.cli.main import cli\ncli()\n"  # the installed script
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "TOKENJUICE_HOME": str(tmp_path / "home")}
    env.update(HOME=str(tmp_path / "user"), CLAUDE_CONFIG_DIR=str(tmp_path / "user" / ".claude"))
    env.pop("TOKENJUICE_NO_CACHE", None)
    env.pop("CLAUDE_PROJECT_DIR", None)
    for _ in range(2):  # the first call fills the regex cache
        fast = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", probe, "hook", "claude-code"],
            input=payload,
            capture_output=True,
            env=env,
            timeout=60,
        )
    forced = (
        "import sys\nfrom tokenjuice.cli import _fastargs, main\n"
        "_fastargs.parse = lambda argv: None\nsys.exit(main.main(sys.argv[1:]))\n"
    )
    parsed = subprocess.run(
        [sys.executable, "-c", forced, "hook", "claude-code"], input=payload, capture_output=True, env=env, timeout=60
    )
    assert fast.returncode == parsed.returncode == 0
    answer = json.loads(fast.stdout)
    assert answer == json.loads(parsed.stdout)
    assert "wrap -- git status" in answer["hookSpecificOutput"]["updatedInput"]["command"]
    imported = {line.rsplit("|", 1)[-1].strip() for line in fast.stderr.decode().splitlines() if "|" in line}
    assert "tokenjuice.cli.commands.hook" in imported
    assert not imported & {"argparse", "json", "re"}


@pytest.mark.parametrize("closed", [">&-", "2>&-"])
def test_wrap_with_a_closed_standard_stream_still_exits_like_the_command(closed: str) -> None:
    # Python starts with no sys.stdout (or sys.stderr) when that descriptor is closed.
    tj_cmd = " ".join(TJ)
    line = f"{tj_cmd} wrap -- sh -c 'echo out; echo err >&2; exit 3' {closed}"
    p = subprocess.run(["sh", "-c", line], capture_output=True, text=True, timeout=60)
    assert p.returncode == 3, (p.stdout, p.stderr)
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr
    if closed == "2>&-":
        assert p.stdout.startswith("exit 3\n") and "err" in p.stdout


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)) * 12,  # binary
        b"".join(b"build step %d ok\n" % i for i in range(3000)) + b"caf\xe9 line, error: \xff\xfe broken\n",
    ],
    ids=["binary", "text-with-invalid-utf8"],
)
def test_reduce_keeps_the_bytes_it_was_given(data: bytes, tmp_path: Path) -> None:
    """Output that is not valid UTF-8 is reduced as text with replacements, but the
    kept full output is the input byte for byte."""
    src = tmp_path / "out.bin"
    src.write_bytes(data)
    p = tj("reduce", "--command", "make", str(src))
    assert p.returncode == 0, p.stderr
    m = re.search(r"tokenjuice cat ([0-9a-f]{12})", p.stdout)
    assert m, p.stdout
    back = subprocess.run([*TJ, "cat", m.group(1)], capture_output=True, timeout=60)
    assert back.returncode == 0 and back.stdout == data
    if b"error" in data:
        assert "error: \ufffd\ufffd broken" in p.stdout
    else:
        assert f"{len(data):,} bytes" in p.stdout
