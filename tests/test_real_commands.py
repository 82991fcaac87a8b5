"""Real commands, run on this machine at test time (no captured fixtures), each reduced
with the store on and checked against the promises (`tests/promises.py`) and against
the machine's own truth: file lists, `git rev-list --count`, the lines we generated.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests import promises
from tokenjuice.model import Reduction, ToolRun
from tokenjuice.process import run_command
from tokenjuice.reduction.engine import Reducer
from tokenjuice.store.artifacts import Store

TJ = [sys.executable, "-m", "tokenjuice"]


def reduce_real(argv: list[str], cwd: Path | None = None, *, shell: bool = False) -> tuple[ToolRun, Reduction, Store]:
    """Run `argv` as `wrap` does, reduce it with the store on, check every promise."""
    run = run_command(argv, shell=shell, cwd=str(cwd) if cwd else None, stdin_devnull=True).run
    store = Store()
    # Redaction off: the stored output is then the captured one, byte for byte.
    red = Reducer(
        cwd=str(cwd) if cwd else None, user_rules=False, project_rules=False, store=store, record=False, redactor=False
    )
    red_ = red.reduce_run(run)
    factor = promises.FILE_READ_FACTOR if red_.family == "file-read" else promises.FACTOR
    promises.check(run.combined, red_, exit_code=run.exit_code, store=store, factor=factor)
    return run, red_, store


def cat_lines(aid: str, a: int, b: int) -> list[str]:
    out = subprocess.run([*TJ, "cat", aid, "--lines", f"{a}-{b}"], capture_output=True, check=True).stdout
    return out.decode().split("\n")[: b - a + 1]


def covered(text: str, raw: str, needle: str) -> bool:
    """`needle` is in the text, or on a raw line inside a range the text states."""
    if needle in text:
        return True
    for i, line in enumerate(raw.split("\n"), start=1):
        if needle in line:
            return any(a <= i <= b for a, b in promises.stated_ranges(text))
    return False


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tree of 40 packages with 30 modules each, data files and a few deep dirs."""
    root = tmp_path_factory.mktemp("tree")
    for p in range(40):
        d = root / "src" / f"pkg_{p:02d}"
        d.mkdir(parents=True)
        for m in range(30):
            (d / f"mod_{m:02d}.py").write_text(f"X = {p * m}\n")
        (d / "data.json").write_text("{}\n")
    deep = root / "a" / "b" / "c"
    deep.mkdir(parents=True)
    (deep / "needle_config.toml").write_text("x = 1\n")
    return root


# ------------------------------------------------------------------- listings


def test_find_names_every_file_or_states_where_it_is(tree: Path) -> None:
    run, red, store = reduce_real(["find", str(tree), "-name", "*.py"])
    truth = sorted(str(p) for p in tree.rglob("*.py"))
    assert sorted(run.combined.split()) == truth
    assert red.lossy and red.artifact  # names were folded: stored, and the text says so
    for path in truth[::97]:
        assert covered(red.text, run.combined, path)
    assert store.read(red.artifact) == run.combined.encode()


def test_find_for_one_file_shows_it(tree: Path) -> None:
    run, red, _ = reduce_real(["find", str(tree), "-name", "needle_*"])
    assert red.text == run.combined  # one line: the output itself


def test_ls_lar_keeps_or_locates_every_name(tree: Path) -> None:
    run, red, _ = reduce_real(["ls", "-laR", str(tree)])
    for name in ("mod_29.py", "needle_config.toml", "data.json"):
        assert covered(red.text, run.combined, name)


def test_du_a_sizes(tree: Path) -> None:
    run, red, _ = reduce_real(["du", "-a", str(tree)])
    assert covered(red.text, run.combined, "needle_config.toml")
    last = run.combined.strip().splitlines()[-1]  # du's total for the root
    assert covered(red.text, run.combined, last)


def test_env_small_comes_back_as_it_is() -> None:
    env = {f"VAR_{i:02d}": f"value-{i}" for i in range(66)}
    run = run_command(["env"], env=env, stdin_devnull=True).run
    red = Reducer(user_rules=False, project_rules=False, store=Store(), record=False).reduce_run(run)
    promises.check(run.combined, red, exit_code=0)
    for k, v in env.items():
        assert f"{k}={v}" in red.text  # nothing dropped to save a few percent


@pytest.mark.slow
def test_find_over_the_python_stdlib() -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    run, red, store = reduce_real(["find", str(stdlib), "-name", "*.py"])
    truth = {str(p) for p in stdlib.rglob("*.py")}
    assert set(run.combined.split()) == truth
    assert red.lines_total == len(truth)
    assert store.read(red.artifact or "") == run.combined.encode()


# ------------------------------------------------------------------ file reads


def big_file(tmp_path: Path) -> tuple[Path, list[str]]:
    lines = ["" if i % 7 == 3 else f"line {i + 1}: {'lorem ipsum ' * 2}{i * 37 % 1000}" for i in range(5000)]
    f = tmp_path / "big.txt"
    f.write_text("\n".join(lines) + "\n")
    return f, lines


def test_cat_of_a_large_file_states_exact_ranges(tmp_path: Path) -> None:
    f, lines = big_file(tmp_path)
    _, red, _ = reduce_real(["cat", str(f)])
    assert red.lines_total == 5000  # blank lines counted, as cat numbers them
    m = re.search(r"… ([\d,]+) lines omitted \(lines (\d+)-(\d+)\) …", red.text)
    assert m is not None
    a, b = int(m.group(2)), int(m.group(3))
    assert int(m.group(1).replace(",", "")) == b - a + 1
    # What the text shows plus what the range gives back is the whole file, in order.
    shown = red.text.split("\n")
    before = shown[: shown.index(m.group(0))]
    after = shown[shown.index(m.group(0)) + 1 :]
    after = after[: len(after) - 1]  # the footer
    assert before == lines[: a - 1] and after == lines[b:]
    assert cat_lines(red.artifact or "", a, b) == lines[a - 1 : b]
    assert 40_000 <= len(red.text) <= 52_000  # 48,000 characters of head and tail


def test_a_file_read_is_whole_up_to_the_cap_everywhere(tmp_path: Path) -> None:
    """wrap, the executor, the MCP `run` tool: the same exact read."""
    f = tmp_path / "mid.txt"
    body = "".join(f"{i}: some text of a medium file\n\n" for i in range(2000))  # 70 KB
    f.write_text(body)
    wrapped = subprocess.run([*TJ, "wrap", "--", "cat", str(f)], capture_output=True, check=True).stdout
    assert wrapped.decode() == body
    from tokenjuice.runtime import ToolExecutor, create_interceptor, shell_tool

    ex = ToolExecutor({"shell": shell_tool}, interceptors=[create_interceptor()])
    assert ex.execute("shell", {"command": f"cat {f}"}).content == body
    pytest.importorskip("mcp")
    from tokenjuice.mcp.tools import Tools

    reply = Tools(cwd=str(tmp_path)).run({"command": "cat mid.txt"})
    assert body in reply.texts[0]


def test_small_output_comes_back_byte_for_byte() -> None:
    p = subprocess.run([*TJ, "wrap", "--", "cat"], input=b"a\nb", capture_output=True, check=True)
    assert p.stdout == b"a\nb"
    p = subprocess.run([*TJ, "wrap", "--", "sh", "-c", "printf 'x\\ny'; exit 3"], capture_output=True)
    assert p.returncode == 3 and p.stdout == b"exit 3\nx\ny"


# ------------------------------------------------------------------------ git


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throwaway repository: 60 commits, each rewriting a few files with long diffs."""
    if not shutil.which("git"):
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("repo")
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T"}
    env["GIT_COMMITTER_EMAIL"] = "t@e"
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    rng = random.Random(5)
    for c in range(60):
        for k in range(3):
            f = root / f"file_{(c + k) % 7}.txt"
            f.write_text("".join(f"row {rng.randint(0, 10**6)} of commit {c}\n" for _ in range(60)))
        subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, env=env)
        subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", f"change {c}: rows"], check=True, env=env)
    return root


def test_git_log_p_states_the_true_commit_count(repo: Path) -> None:
    run, red, _ = reduce_real(["git", "log", "-p"], repo)
    count = int(
        subprocess.run(["git", "-C", str(repo), "rev-list", "--count", "HEAD"], capture_output=True, text=True).stdout
    )
    assert count == 60
    stated = re.findall(r"\b([\d,]+) commits\b", red.text)
    assert stated and all(int(n.replace(",", "")) == count for n in stated)
    assert len(red.text) < len(run.combined) // 4
    for c in (0, 30, 59):
        assert covered(red.text, run.combined, f"change {c}: rows")


def test_git_log_stat(repo: Path) -> None:
    run, red, _ = reduce_real(["git", "log", "--stat"], repo)
    for c in range(60):
        assert covered(red.text, run.combined, f"change {c}: rows")


def test_git_log_p_of_this_repository_within_the_budget() -> None:
    here = Path(__file__).resolve().parent.parent
    if not (here / ".git").exists():
        pytest.skip("not a git checkout")
    _, red, _ = reduce_real(["git", "log", "-p", "-n", "40"], here)
    assert len(red.text) <= promises.BUDGET_CHARS * promises.FACTOR + promises.SLACK


# -------------------------------------------------------------- failing runs


FAIL_SCRIPT = """
import random, sys
random.seed(1)
for i in range(3000):
    if i % 10 == 3:
        rid, ms = random.randint(1000, 9999), random.randint(10, 900)
        print(f"WARNING: retrying request id={rid} after {ms}ms", file=sys.stderr)
    else:
        print(f"[{i:05d}] processed record {random.randint(10**6, 10**7)} in /data/batch_{i // 100}/part-{i % 100}.csv")
sys.stdout.flush()
print("Traceback (most recent call last):", file=sys.stderr)
print('  File "/srv/app/loader.py", line 88, in load', file=sys.stderr)
print("ValueError: row 4411 has 7 columns, expected 8", file=sys.stderr)
sys.exit(3)
"""


def test_an_unknown_failing_command_is_reduced_with_its_failure_first(tmp_path: Path) -> None:
    # Run as an executable, the script is a program no rule knows: the generic path.
    (tmp_path / "job.py").write_text(f"#!{sys.executable}\n{FAIL_SCRIPT}")
    (tmp_path / "job.py").chmod(0o755)
    run, red, _ = reduce_real(["./job.py"], tmp_path)
    assert run.exit_code == 3
    assert len(red.text) <= promises.BUDGET_CHARS  # within the budget itself
    for line in ('  File "/srv/app/loader.py", line 88, in load', "ValueError: row 4411 has 7 columns, expected 8"):
        assert line in red.text
    # 300 warnings on stderr; a few arrive glued to a stdout line (stdout is block-buffered).
    folded = r"^(\d+)× WARNING: retrying request id=\d+–\d+ after \d+–\d+ms(?: \(lines \d+-\d+\))?$"
    m = re.search(folded, red.text, re.M)
    assert m is not None and 250 <= int(m.group(1)) <= 300


def test_a_failing_python_script_keeps_its_traceback_and_folds_its_warnings(tmp_path: Path) -> None:
    (tmp_path / "job.py").write_text(FAIL_SCRIPT)
    run, red, _ = reduce_real([sys.executable, "job.py"], tmp_path)
    assert (run.exit_code, red.rule_id) == (3, "task/python")
    assert len(red.text) <= promises.BUDGET_CHARS
    for line in ('  File "/srv/app/loader.py", line 88, in load', "ValueError: row 4411 has 7 columns, expected 8"):
        assert line in red.text
    m = re.search(r"^(\d+)× WARNING: retrying request id=\d+–\d+ after \d+–\d+ms", red.text, re.M)
    assert m is not None and 250 <= int(m.group(1)) <= 300


def service_log(n: int) -> tuple[str, list[str]]:
    rng = random.Random(7)
    warn_at = set(rng.sample(range(100, n - 3000), 773))
    err_at = sorted(rng.sample(range(n - 3000, n - 10), 6))
    out: list[str] = []
    errors: list[str] = []
    for i in range(n):
        ts = f"2026-03-01 {i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}.{rng.randint(0, 999):03d}"
        if i in warn_at:
            out.append(f"{ts} WARNING [db] slow query table=orders elapsed={rng.randint(566, 3761)}ms threshold=500ms")
        elif i in err_at:
            k = err_at.index(i)
            err = f"{ts} ERROR [worker] job {9000 + k} failed: payment gateway timeout (order {77000 + k})"
            errors += [err, f"TimeoutError: gateway did not answer for order {77000 + k}"]
            out += [err, "Traceback (most recent call last):", f'  File "/srv/app/pay.py", line {100 + k}, in run']
            out.append(errors[-1])
        else:
            comp = rng.choice(["http", "cache", "auth"])
            out.append(
                f"{ts} INFO  [{comp}] request id={rng.randint(10**5, 10**6)} status=200 in {rng.randint(1, 90)}ms"
            )
    return "\n".join(out) + "\n", errors


@pytest.mark.slow
def test_a_service_log_keeps_every_error_and_folds_its_warnings(tmp_path: Path) -> None:
    text, errors = service_log(50_000)
    (tmp_path / "app.log").write_text(text)
    (tmp_path / "replay.sh").write_text("cat app.log; exit 1\n")
    _, red, _ = reduce_real(["sh", "replay.sh"], tmp_path)
    assert red.rule_id == "generic/service-log"
    for line in errors:
        assert line in red.text
    warn = [ln for ln in red.text.splitlines() if "WARNING [db] slow query" in ln]
    assert len(warn) == 1 and warn[0].startswith("773× ")
    assert len(red.text) <= promises.BUDGET_CHARS


def test_gcc_with_hundreds_of_warnings_and_one_error(tmp_path: Path) -> None:
    if not shutil.which("gcc"):
        pytest.skip("gcc is not installed")
    src = ["#include <stddef.h>"]
    for k in range(150):
        body = "return hits + undeclared_offset;" if k == 120 else "return hits;"
        src += [
            f"int scan{k:03d}(const int *xs, size_t n) {{",
            "    int unused_total;",
            "    int hits = 0;",
            "    for (int i = 0; i < n; i++) { if (xs[i] > 0) hits++; }",
            f"    {body}",
            "}",
        ]
    (tmp_path / "flood.c").write_text("\n".join(src) + "\n")
    run, red, _ = reduce_real(["gcc", "-Wall", "-Wextra", "-c", "flood.c", "-o", "/dev/null"], tmp_path)
    assert red.rule_id == "build/gcc" and run.exit_code == 1
    error = next(ln for ln in run.combined.splitlines() if ": error: " in ln)
    assert error.startswith("flood.c:726:") and error in red.text
    warnings = sum(1 for ln in run.combined.splitlines() if ": warning: " in ln)
    assert warnings >= 300 and f"{warnings} warnings" in red.text
    assert len(red.text) <= promises.BUDGET_CHARS


def test_pytest_vv_keeps_the_test_frame_and_the_diff_once(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "tests" / "helpers_x.py").write_text('def check(a, b):\n    assert a == b, "values differ"\n')
    (tmp_path / "tests" / "test_x.py").write_text(
        "from tests.helpers_x import check\n\n"
        "def test_list():\n    assert [1, 2, 3, 4, 5, 6, 7, 8] == [1, 2, 3, 4, 5, 6, 7, 9]\n\n"
        'def test_via_helper():\n    check({"a": 1, "b": 2}, {"a": 1, "b": 3})\n\n'
        + "".join(f"def test_ok_{i}():\n    pass\n\n" for i in range(60))
    )
    run, red, _ = reduce_real([sys.executable, "-m", "pytest", "-vv", "-p", "no:cacheprovider", "tests"], tmp_path)
    assert run.exit_code == 1
    assert "tests/test_x.py:7:" in red.text  # the test's own frame, not only the helper's
    assert "tests/helpers_x.py:2: AssertionError" in red.text
    assert red.text.count("At index 7 diff: 8 != 9") == 1


FLOOD_SCRIPT = """
import random, sys
random.seed(2)
words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]
for i in range(20000):
    w = " ".join(random.choice(words) for _ in range(4))
    if i % 3 == 0:
        at = f"src/mod_{i % 97}/file_{i % 13}.c:{i % 400}"
        print(f"{at}: warning: {w} might be {random.choice(words)}", file=sys.stderr)
    else:
        print(f"step {i}: {w}")
    if i in (7000, 13000):
        print(f"src/core/init.c:{i}: error: {w} is not defined", file=sys.stderr)
sys.exit(2)
"""


def test_warnings_never_crowd_out_errors(tmp_path: Path) -> None:
    """6,700 located warnings (each distinct: nothing folds) and two errors in the middle."""
    (tmp_path / "job.py").write_text(FLOOD_SCRIPT)
    run, red, _ = reduce_real([sys.executable, "job.py"], tmp_path)
    errors = [ln for ln in run.combined.splitlines() if ": error: " in ln]
    assert len(errors) == 2
    for line in errors:
        assert line[line.index("src/core/") :] in red.text
    assert len(red.text) <= promises.BUDGET_CHARS + 500  # a failing run without a rule: the budget itself
