"""git clone / fetch / pull / push against local bare repositories over file://, so the
pack transfer really runs and prints its progress (forced with --progress: no TTY).

Passing: a big clone, a fetch of hundreds of new branches and tags with --prune, a
fast-forward pull, pushes of new branches, tags and a forced update. Failing: a push
rejected as non-fast-forward (fetch first, and behind), a pull with a merge conflict, a
pull on divergent branches without a strategy, and unreachable remotes (ssh host that
does not resolve, https host that does not resolve, a path that is not a repository).

Signals: ref names from `for-each-ref` before/after, `git push --porcelain` for the
rejections, `rev-parse --short` for updated ranges, `git diff --name-only
--diff-filter=U` for conflicts, `git diff --numstat` for pulled files, and git's own
fatal:/error: lines for the unreachable remotes.
"""

from __future__ import annotations

import random
from typing import Any

from capture._git import Git, conflict_paths, numstat_paths, stderr_lines
from capture._lib import Result, Workspace, sig

FAMILY = "git-sync"
TOPICS = ["auth", "cache", "cli", "db", "docs", "http", "i18n", "metrics", "parser", "search", "ui", "sync"]


def _refs(g: Git, repo: str, pattern: str, fmt: str = "%(refname:short)") -> list[str]:
    return g.sh(f"git for-each-ref --format='{fmt}' {pattern}", repo).split()


def build(g: Git) -> None:
    rng = random.Random(31)
    g.init("central.git", bare=True)
    g.init("author")
    g.sh("git remote add origin ../central.git", "author")
    files = {}
    for d in range(12):
        for f in range(25):
            body = "".join(f"value_{d}_{f}_{k} = {rng.randrange(10**9)}  # {rng.random():.12f}\n" for k in range(60))
            files[f"pkg{d:02d}/mod{f:02d}.py"] = body
    g.commit("author", "Import the generated packages", files)
    for n in range(30):
        d, f = rng.randrange(12), rng.randrange(25)
        path = g.ws.path(f"author/pkg{d:02d}/mod{f:02d}.py")
        path.write_text(path.read_text() + f"patch_{n} = {n}\n")
        g.commit("author", f"Patch module {d}/{f} ({n})")
    g.sh("git push -q origin main", "author")


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("git")
    g = Git(ws)
    version = g.version()
    build(g)
    rng = random.Random(37)
    fixtures: list[dict[str, Any]] = []
    url = f"file://{ws.path('central.git')}"

    def fx(id: str, rule: str, r: Result, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, rule, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version)
        )

    # ------------------------------------------------------------- clone
    r = g.run(f"git clone --progress {url} mirror")
    fx("git-clone-progress", "git/clone", r, [sig("dir", "mirror")], "the directory the clone was made into")
    g.sh("git clone -q central.git reviewer")

    r = g.run("git clone https://git.nowhere.invalid/team/app.git")
    fx("git-clone-unreachable-https", "git/clone", r, stderr_lines(r), "git's fatal: line on stderr")
    r = g.run("git clone git@nowhere.invalid:team/app.git")
    fx(
        "git-clone-unreachable-ssh",
        "git/clone",
        r,
        [*stderr_lines(r), sig("ssh", "nowhere.invalid")],
        "git's fatal: lines; the host ssh could not resolve",
    )
    g.init("empty.git", bare=True)
    r = g.run(f"git clone --progress file://{ws.path('empty.git')} blank")
    fx(
        "git-clone-empty",
        "git/clone",
        r,
        [sig("warning", "cloned an empty repository")],
        "git's warning for an empty repository",
    )

    # ------------------------------------------------------------- fetch
    names = sorted(
        {
            f"{rng.choice(['feature', 'fix', 'chore'])}/{rng.choice(TOPICS)}-{rng.randrange(1000, 9999)}"
            for _ in range(260)
        }
    )[:240]
    heads = g.sh("git rev-list HEAD", "author").split()
    g.sh(
        "git update-ref --stdin <<'EOF'\n"
        + "".join(f"create refs/heads/{n} {rng.choice(heads)}\n" for n in names)
        + "EOF",
        "author",
    )
    for k in range(40):
        g.sh(f"git tag v1.{k // 10}.{k % 10} {heads[k % len(heads)]}", "author")
    g.sh("git push -q origin --all && git push -q origin --tags", "author")
    before = set(_refs(g, "mirror", "refs/remotes/origin"))
    r = g.run("git fetch --progress --tags origin", "mirror")
    after = set(_refs(g, "mirror", "refs/remotes/origin"))
    tags = _refs(g, "mirror", "refs/tags")
    fx(
        "git-fetch-hundreds-of-refs",
        "git/fetch",
        r,
        [sig("new_branch", n.removeprefix("origin/")) for n in sorted(after - before)]
        + [sig("new_tag", t) for t in tags],
        "for-each-ref refs/remotes/origin before and after (new names); for-each-ref refs/tags",
    )
    # The server deletes two branches, force-moves one and advances main.
    g.sh(f"git push -q origin --delete {names[3]} {names[11]}", "author")
    g.sh(f"git push -q --force origin {heads[5]}:refs/heads/{names[7]}", "author")
    g.commit("author", "Advance main", {"pkg00/mod00.py": "value = 1\n"})
    g.sh("git push -q origin main", "author")
    before = set(_refs(g, "mirror", "refs/remotes/origin"))
    old_main = g.sh("git rev-parse --short origin/main", "mirror").strip()
    r = g.run("git fetch --progress --prune origin", "mirror")
    after = set(_refs(g, "mirror", "refs/remotes/origin"))
    new_main = g.sh("git rev-parse --short origin/main", "mirror").strip()
    fx(
        "git-fetch-prune-forced",
        "git/fetch",
        r,
        [sig("pruned", n.removeprefix("origin/")) for n in sorted(before - after)]
        + [sig("forced", names[7]), sig("range", f"{old_main}..{new_main}")],
        "for-each-ref refs/remotes/origin before and after (pruned names); the force-moved branch; "
        "rev-parse --short origin/main before and after",
    )
    r = g.run("git fetch /nonexistent/repo.git", "mirror")
    fx("git-fetch-not-a-repo", "git/fetch", r, stderr_lines(r), "git's fatal: lines on stderr")

    # -------------------------------------------------------------- pull
    g.commit(
        "author",
        "Touch many modules",
        {f"pkg{d:02d}/mod{f:02d}.py": f"rewritten = {d * f}\n" for d in range(3) for f in range(8)},
    )
    g.sh("git push -q origin main", "author")
    old = g.sh("git rev-parse --short HEAD", "reviewer").strip()
    r = g.run("git pull --progress", "reviewer")
    new = g.sh("git rev-parse --short HEAD", "reviewer").strip()
    fx(
        "git-pull-fast-forward",
        "git/pull",
        r,
        [sig("range", f"{old}..{new}"), sig("mode", "Fast-forward"), *numstat_paths(g, "reviewer", f"{old} {new}")],
        "rev-parse --short before/after; git diff --numstat of that range",
    )
    g.commit("author", "Author edits the config", {"pkg01/mod01.py": "setting = 'author'\n"})
    g.sh("git push -q origin main", "author")
    g.commit("reviewer", "Reviewer edits the config", {"pkg01/mod01.py": "setting = 'reviewer'\n"})
    r = g.run("git pull --progress", "reviewer")
    fx("git-pull-divergent", "git/pull", r, stderr_lines(r, "fatal:"), "git's fatal: line on stderr")
    r = g.run("git pull --no-rebase --progress", "reviewer")
    fx(
        "git-pull-conflict",
        "git/pull",
        r,
        [*conflict_paths(g, "reviewer"), sig("status", "Automatic merge failed")],
        "git diff --name-only --diff-filter=U after the pull; git's merge-failed line",
    )
    g.sh("git merge --abort", "reviewer")

    # -------------------------------------------------------------- push
    g.commit("author", "Author moves on", {"pkg02/mod02.py": "moved_on = True\n"})
    g.sh("git push -q origin main", "author")
    r = g.run("git push --progress origin main", "reviewer")
    porcelain = g.sh("git push --porcelain origin main", "reviewer", check=False)
    rej = [
        sig("rejected", ln.split("\t")[1].split(":")[0].removeprefix("refs/heads/"))
        for ln in porcelain.splitlines()
        if ln.startswith("!")
    ]
    fx(
        "git-push-rejected-fetch-first",
        "git/push",
        r,
        rej + stderr_lines(r, "error:") + [sig("reason", "fetch first")],
        "git push --porcelain (rejected refs, reason); git's error: line",
    )
    g.sh("git fetch -q origin", "reviewer")
    r = g.run("git push origin main", "reviewer")
    fx(
        "git-push-rejected-non-fast-forward",
        "git/push",
        r,
        rej + stderr_lines(r, "error:") + [sig("reason", "non-fast-forward")],
        "git push --porcelain (rejected refs, reason); git's error: line",
    )
    for n in range(25):
        g.sh(f"git branch topic/review-{n:02d} HEAD~{n % 5}", "reviewer")
    g.write("reviewer/pkg05/mod05.py", "".join(f"big_{k} = '{rng.random():.16f}'\n" for k in range(4000)))
    g.sh("git checkout -q -b topic/big-data && git add -A && git commit -q -m 'Add a big data module'", "reviewer")
    g.tick()
    r = g.run("git push --progress --set-upstream origin 'refs/heads/topic/*'", "reviewer")
    pushed = _refs(g, "reviewer", "refs/heads/topic")
    fx(
        "git-push-new-branches",
        "git/push",
        r,
        [sig("branch", n.removeprefix("topic/")) for n in pushed],
        "for-each-ref refs/heads/topic: the branches pushed",
    )
    g.sh("git commit -q --amend -m 'Add a big data module (amended)'", "reviewer")
    g.tick()
    r = g.run("git push --progress --force-with-lease origin topic/big-data", "reviewer")
    fx(
        "git-push-forced-update",
        "git/push",
        r,
        [sig("forced", "forced update"), sig("branch", "topic/big-data")],
        "the branch that was rewritten",
    )
    r = g.run("git push git@nowhere.invalid:team/app.git main", "reviewer")
    fx("git-push-unreachable", "git/push", r, stderr_lines(r), "git's fatal: line on stderr")
    return fixtures
