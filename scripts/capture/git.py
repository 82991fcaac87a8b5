"""git status / diff / log on a small project repo and on a 2,000-commit history.

Signals: `git status --porcelain=v1 -z` paths (both sides of renames); the +/- lines
of `git diff --no-color` (headers excluded); `git diff --numstat` paths for --stat and
--name-only; `git log --format=%h%x00%s` short hashes and subjects.
"""

from __future__ import annotations

import random
from typing import Any

from capture._lib import Result, Workspace, sig

FAMILY_STATUS, FAMILY_DIFF, FAMILY_LOG = "git-status", "git-diff", "git-log"

VERBS = ["fix", "feat", "refactor", "docs", "test", "chore", "perf", "build", "ci", "style"]
AREAS = ["parser", "cli", "store", "http", "auth", "cache", "config", "logging", "scheduler", "api", "ui", "db"]
THINGS = [
    "retry backoff",
    "null handling",
    "unicode paths",
    "timeouts",
    "error messages",
    "flaky test",
    "memory leak",
    "race on shutdown",
    "json output",
    "exit codes",
    "help text",
    "config reload",
    "pagination",
    "rate limiting",
    "locale dates",
    "windows paths",
    "large files",
    "empty input",
]


def _subject(rng: random.Random, i: int) -> str:
    verb, area, thing = rng.choice(VERBS), rng.choice(AREAS), rng.choice(THINGS)
    suffix = f" (#{100 + i})" if rng.random() < 0.3 else ""
    return f"{verb}({area}): {thing}{suffix}"


def _git_env(ws: Workspace, n: int) -> dict[str, str]:
    env = dict(ws.env)
    stamp = f"{1_700_000_000 + n * 3_600} +0000"
    env.update(
        {
            "GIT_AUTHOR_NAME": "Dana Dev",
            "GIT_AUTHOR_EMAIL": "dana@example.com",
            "GIT_COMMITTER_NAME": "Dana Dev",
            "GIT_COMMITTER_EMAIL": "dana@example.com",
            "GIT_AUTHOR_DATE": stamp,
            "GIT_COMMITTER_DATE": stamp,
        }
    )
    return env


def _commit(ws: Workspace, repo: str, n: int, message: str) -> None:
    import subprocess

    subprocess.run(["git", "add", "-A"], cwd=ws.path(repo), env=_git_env(ws, n), check=True, capture_output=True)
    subprocess.run(
        ["git", "commit", "-q", "--allow-empty", "-m", message],
        cwd=ws.path(repo),
        env=_git_env(ws, n),
        check=True,
        capture_output=True,
    )


def _build_project(ws: Workspace) -> None:
    rng = random.Random(7)
    ws.sh(
        "git init -q -b main gitproj && git -C gitproj config user.name 'Dana Dev' && "
        "git -C gitproj config user.email dana@example.com"
    )
    modules = ["parser", "cli", "store", "http", "cache", "config"]
    for m in modules:
        body = "\n".join(f'def {m}_fn_{k}(x):\n    """Step {k} of {m}."""\n    return x + {k}\n' for k in range(30))
        ws.write(f"gitproj/src/app/{m}.py", body + "\n")
    ws.write(
        "gitproj/docs/design.md",
        "\n".join(
            f"## Section {k}\n\nThe {rng.choice(AREAS)} layer handles {rng.choice(THINGS)} in step {k}.\n"
            for k in range(60)
        )
        + "\n",
    )
    ws.write("gitproj/scripts/run-tests.sh", "#!/bin/sh\nset -e\npython -m pytest -q\n")
    ws.write("gitproj/README.md", "# gitproj\n\nA small project used to capture git output.\n")
    _commit(ws, "gitproj", 0, "initial import")
    for i in range(1, 80):
        m = rng.choice(modules)
        path = ws.path(f"gitproj/src/app/{m}.py")
        text = path.read_text().splitlines()
        k = rng.randrange(len(text))
        text[k] = text[k] + f"  # rev {i}"
        path.write_text("\n".join(text) + "\n")
        body = "" if rng.random() < 0.6 else f"\n\nLonger explanation for change {i}.\nIt spans two lines."
        _commit(ws, "gitproj", i, _subject(rng, i) + body)
    ws.sh("git -C gitproj tag v0.9.0 HEAD~20 && git -C gitproj tag v1.0.0")
    # A merged feature branch, for --graph.
    ws.sh("git -C gitproj checkout -q -b feature/cache-ttl HEAD~3")
    ws.write("gitproj/src/app/ttl.py", "TTL = 30\n")
    _commit(ws, "gitproj", 90, "feat(cache): add ttl setting")
    ws.sh("git -C gitproj checkout -q main")
    import subprocess

    subprocess.run(
        ["git", "merge", "-q", "--no-ff", "-m", "Merge branch 'feature/cache-ttl'", "feature/cache-ttl"],
        cwd=ws.path("gitproj"),
        env=_git_env(ws, 91),
        check=True,
        capture_output=True,
    )


def _dirty_tree(ws: Workspace) -> None:
    rng = random.Random(11)
    for m in ["parser", "cli", "store", "http"]:
        path = ws.path(f"gitproj/src/app/{m}.py")
        lines = path.read_text().splitlines()
        for _ in range(6):
            k = rng.randrange(len(lines))
            lines[k] = lines[k].replace("return x", "return (x or 0)") + "  # changed"
        lines.insert(10, f"# {m}: new helper below")
        del lines[40:43]
        path.write_text("\n".join(lines) + "\n")
    ws.sh("git -C gitproj rm -q docs/design.md")
    ws.sh("git -C gitproj mv scripts/run-tests.sh scripts/test-all.sh")
    ws.write(
        "gitproj/src/app/metrics.py",
        "COUNTERS = {}\n\n\ndef bump(name):\n    COUNTERS[name] = COUNTERS.get(name, 0) + 1\n",
    )
    ws.sh("git -C gitproj add src/app/metrics.py src/app/parser.py")
    ws.write("gitproj/notes/todo.txt", "- write docs\n")
    ws.write("gitproj/src/app/experimental.py", "X = 1\n")


def _big_history(ws: Workspace, n: int = 2000) -> None:
    """A long history made quickly with git fast-import."""
    rng = random.Random(3)
    ws.sh("git init -q -b main bighist")
    chunks = []
    for i in range(n):
        msg = _subject(rng, i)
        if rng.random() < 0.25:
            msg += f"\n\nDetails: touched {rng.randint(1, 9)} files while fixing {rng.choice(THINGS)}."
        data = msg.encode()
        content = f"rev {i}\n".encode()
        t = 1_600_000_000 + i * 600
        chunks.append(
            f"commit refs/heads/main\nmark :{i + 1}\n"
            f"author Rae Coder <rae@example.com> {t} +0000\ncommitter Rae Coder <rae@example.com> {t} +0000\n"
            f"data {len(data)}\n".encode()
            + data
            + b"\n"
            + (f"from :{i}\n".encode() if i else b"")
            + f"M 644 inline file{i % 40}.txt\ndata {len(content)}\n".encode()
            + content
            + b"\n"
        )
    import subprocess

    subprocess.run(
        ["git", "fast-import", "--quiet"],
        cwd=ws.path("bighist"),
        input=b"".join(chunks),
        check=True,
        capture_output=True,
    )
    ws.sh("git -C bighist checkout -q main")


def _status_signals(ws: Workspace, repo: str) -> list[Any]:
    out = ws.sh("git status --porcelain=v1 -z", repo)
    entries = out.split("\0")
    paths: list[str] = []
    i = 0
    while i < len(entries):
        e = entries[i]
        if not e:
            i += 1
            continue
        code, path = e[:2], e[3:]
        paths.append(path)
        if code[0] in "RC":
            i += 1
            paths.append(entries[i])
        i += 1
    return [sig("path", p.rstrip("/") + ("/" if p.endswith("/") else "")) for p in paths]


def _diff_signals(ws: Workspace, repo: str, args: list[str]) -> list[Any]:
    import shlex

    out = ws.sh("git diff --no-color " + " ".join(shlex.quote(a) for a in args), repo)
    seen: set[str] = set()
    sigs = []
    for line in out.splitlines():
        if line.startswith(("+++", "---")) or not line.startswith(("+", "-")):
            continue
        if line.strip() in ("+", "-") or line in seen:
            continue
        seen.add(line)
        sigs.append(sig("diff_line", line))
    return sigs


def _numstat_paths(ws: Workspace, repo: str, args: list[str]) -> list[Any]:
    import shlex

    out = ws.sh("git diff --numstat " + " ".join(shlex.quote(a) for a in args), repo)
    sigs = []
    for line in out.splitlines():
        path = line.split("\t", 2)[2]
        if " => " in path:
            path = path.split(" => ")[-1].strip("}")
        sigs.append(sig("path", path))
    return sigs


def _wide_history(ws: Workspace) -> None:
    """A repository whose first commit adds 14 files and whose second changes three."""
    ws.sh(
        "git init -q -b main widerepo && git -C widerepo config user.name 'Dana Dev' && "
        "git -C widerepo config user.email dana@example.com"
    )
    for k in range(14):
        ws.write(f"widerepo/src/core/part_{k:02d}.py", f"def part_{k}(x):\n    return x * {k}\n")
    _commit(ws, "widerepo", 0, "feat(core): split the parser into parts")
    for k in (3, 7, 11):
        path = ws.path(f"widerepo/src/core/part_{k:02d}.py")
        path.write_text(path.read_text() + f"\n\nLIMIT_{k} = {k * 10}\n")
    _commit(ws, "widerepo", 1, "fix(core): bound the parts")


def _stat_signals(ws: Workspace, repo: str, args: list[str], *, paths: bool) -> list[Any]:
    """Each commit's `N files changed, …` line (git log --shortstat), and with `paths`
    the files each commit touched (git log --name-only)."""
    import shlex

    extra = " ".join(shlex.quote(a) for a in args)
    out = ws.sh(f"git log --shortstat --format= {extra}", repo)
    sigs = [sig("summary", line.strip()) for line in dict.fromkeys(out.splitlines()) if line.strip()]
    if paths:
        names = ws.sh(f"git log --name-only --format= {extra}", repo)
        sigs += [sig("path", p) for p in dict.fromkeys(names.splitlines()) if p.strip()]
    return sigs


def _log_signals(ws: Workspace, repo: str, args: list[str]) -> list[Any]:
    import shlex

    out = ws.sh("git log --format=%h%x00%s " + " ".join(shlex.quote(a) for a in args), repo)
    sigs = []
    for line in out.splitlines():
        h, _, subject = line.partition("\0")
        sigs.append(sig("commit", h))
        sigs.append(sig("subject", subject))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("git")
    version = ws.version(["git", "--version"])
    _build_project(ws)
    fixtures: list[dict[str, Any]] = []

    def fx(id: str, rule: str, family: str, r: Result, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, rule, r, family=family, signals=signals, signal_source=source, tool_version=version)
        )

    r = ws.run("git status", "gitproj")
    fx(
        "git-status-clean",
        "git/status",
        FAMILY_STATUS,
        r,
        [sig("status", "nothing to commit, working tree clean")],
        "the clean-tree message git prints",
    )
    _dirty_tree(ws)
    porcelain = "git status --porcelain=v1 -z: every path (both sides of renames)"
    r = ws.run("git status", "gitproj")
    fx("git-status-long", "git/status", FAMILY_STATUS, r, _status_signals(ws, "gitproj"), porcelain)
    r = ws.run("git status -s", "gitproj")
    fx("git-status-short", "git/status", FAMILY_STATUS, r, _status_signals(ws, "gitproj"), porcelain)
    changed = "git diff --no-color with the same arguments: every +/- line that is not a ---/+++ header"
    r = ws.run("git diff", "gitproj")
    fx("git-diff-unstaged", "git/diff", FAMILY_DIFF, r, _diff_signals(ws, "gitproj", []), changed)
    r = ws.run("git diff --cached", "gitproj")
    fx("git-diff-cached", "git/diff", FAMILY_DIFF, r, _diff_signals(ws, "gitproj", ["--cached"]), changed)
    r = ws.run("git --no-pager diff --stat HEAD", "gitproj")
    fx(
        "git-diff-stat",
        "git/diff-stat",
        FAMILY_DIFF,
        r,
        _numstat_paths(ws, "gitproj", ["HEAD"]),
        "git diff --numstat HEAD: changed paths",
    )
    r = ws.run("git diff --name-only HEAD", "gitproj")
    fx(
        "git-diff-name-only",
        "git/diff-name-only",
        FAMILY_DIFF,
        r,
        _numstat_paths(ws, "gitproj", ["HEAD"]),
        "git diff --numstat HEAD: changed paths",
    )
    commits = "git log --format=%h%x00%s with the same arguments: short hash and subject of each commit"
    r = ws.run("git log", "gitproj")
    fx("git-log-full", "git/log", FAMILY_LOG, r, _log_signals(ws, "gitproj", []), commits)
    r = ws.run("git log --stat -8", "gitproj")
    fx(
        "git-log-stat",
        "git/log",
        FAMILY_LOG,
        r,
        _log_signals(ws, "gitproj", ["-8"]) + _stat_signals(ws, "gitproj", ["-8"], paths=True),
        commits + "; git log --shortstat and --name-only: each commit's summary and files",
    )
    _wide_history(ws)
    r = ws.run("git log --stat", "widerepo")
    fx(
        "git-log-stat-wide",
        "git/log",
        FAMILY_LOG,
        r,
        _log_signals(ws, "widerepo", []) + _stat_signals(ws, "widerepo", [], paths=False),
        commits + "; git log --shortstat: each commit's summary (a commit of 14 files)",
    )
    r = ws.run("git log -p -3", "gitproj")
    patch_sigs = _log_signals(ws, "gitproj", ["-3"]) + [
        sig("diff_line", ln)
        for ln in dict.fromkeys(
            ln
            for ln in ws.sh("git log -p -3 --no-color --format=", "gitproj").splitlines()
            if ln.startswith(("+", "-")) and not ln.startswith(("+++", "---")) and ln.strip() not in ("+", "-")
        )
    ]
    fx(
        "git-log-patch",
        "git/log",
        FAMILY_LOG,
        r,
        patch_sigs,
        commits + "; plus every +/- line of git log -p -3 --format=",
    )
    r = ws.run("git log --graph --oneline --decorate -30", "gitproj")
    fx("git-log-graph", "git/log-oneline", FAMILY_LOG, r, _log_signals(ws, "gitproj", ["-30"]), commits)
    _big_history(ws)
    r = ws.run("git log", "bighist")
    fx("git-log-long-history", "git/log", FAMILY_LOG, r, _log_signals(ws, "bighist", []), commits + " (2,000 commits)")
    r = ws.run("git log --oneline", "bighist")
    fx(
        "git-log-oneline-long",
        "git/log-oneline",
        FAMILY_LOG,
        r,
        _log_signals(ws, "bighist", []),
        commits + " (2,000 commits)",
    )
    r = ws.run("git log --format='%h %ad %an %s' --date=short -60", "bighist")
    fx("git-log-format", "git/log", FAMILY_LOG, r, _log_signals(ws, "bighist", ["-60"]), commits)

    # Diff shapes beyond the plain patch (captured last: they change the work tree).
    r = ws.run("git diff --name-status HEAD", "gitproj")
    ns = ws.sh("git diff --name-status HEAD", "gitproj")
    fx(
        "git-diff-name-status",
        "git/diff",
        FAMILY_DIFF,
        r,
        [sig("path", p) for line in ns.splitlines() for p in line.split("\t")[1:]],
        "git diff --name-status HEAD: every path",
    )
    r = ws.run("git diff --cached -- docs/design.md", "gitproj")
    fx(
        "git-diff-deleted-file",
        "git/diff",
        FAMILY_DIFF,
        r,
        [sig("header", "deleted file mode"), *_diff_signals(ws, "gitproj", ["--cached", "--", "docs/design.md"])],
        changed + "; the deleted-file header",
    )
    readme = ws.path("gitproj/README.md")
    readme.write_text(
        "# gitproj\n\nA small project used to capture the output of git.\n\n"
        + "".join(f"Paragraph {k} explains the {AREAS[k % len(AREAS)]} layer in plain words.\n\n" for k in range(40))
    )
    ws.sh("git add README.md && git commit -q -m 'Expand the README'", "gitproj")
    text = readme.read_text()
    for k in (3, 11, 19, 27, 35):
        text = text.replace(f"Paragraph {k} explains", f"Paragraph {k} describes")
    readme.write_text(text.replace("plain words.\n\nParagraph 20", "simple terms.\n\nParagraph 20"))
    r = ws.run("git diff --word-diff", "gitproj")
    words = ws.sh("git diff --word-diff=porcelain --no-color", "gitproj")
    fx(
        "git-diff-word-diff",
        "git/diff",
        FAMILY_DIFF,
        r,
        [
            sig("word", ln[1:].strip())
            for ln in words.splitlines()
            if ln[:1] in "+-" and not ln.startswith(("+++", "---")) and ln[1:].strip()
        ],
        "git diff --word-diff=porcelain: every added/removed word run",
    )
    return fixtures
