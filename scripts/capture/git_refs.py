"""git branch / tag / remote / worktree / stash on a clone with hundreds of branches.

The remote is a local bare repository reached over file://, with 300 topic branches;
the clone tracks a few of them, has local-only branches, and an upstream that was
deleted (a "gone" branch).

Signals come from git's machine-readable listings: `for-each-ref` (branch, tag and
remote-tracking names, upstream tracking state), `rev-parse`, `config remote.*.url`,
`worktree list --porcelain`, `stash list --format`, and the patch of
`stash show -p --no-color`.
"""

from __future__ import annotations

import random
from typing import Any

from capture._git import Git, conflict_paths, diff_line_signals, stderr_lines
from capture._lib import Result, Workspace, sig

TOPICS = ["auth", "cache", "cli", "db", "docs", "http", "i18n", "metrics", "parser", "search", "ui", "sync"]
KINDS = ["feature", "fix", "chore", "exp"]


def build(g: Git) -> None:
    rng = random.Random(23)
    g.init("origin.git", bare=True)
    g.init("seed")
    g.commit("seed", "Initial import", {"README.md": "# refsproj\n", "src/app.py": "print('hi')\n"})
    for n in range(6):
        g.commit(
            "seed",
            f"Grow the app ({n})",
            {"src/app.py": "print('hi')\n" + "".join(f"x{k} = {k}\n" for k in range(n + 1))},
        )
    heads = g.sh("git rev-list HEAD", "seed").split()
    names = sorted({f"{rng.choice(KINDS)}/{rng.choice(TOPICS)}-{rng.randrange(1000, 9999)}" for _ in range(320)})[:300]
    updates = "".join(f"create refs/heads/{n} {rng.choice(heads)}\n" for n in names)
    g.sh(f"git update-ref --stdin <<'EOF'\n{updates}EOF", "seed")
    for k, tag in enumerate(
        f"v{major}.{minor}.{patch}" for major in range(3) for minor in range(6) for patch in range(4)
    ):
        g.sh(f"git tag -a {tag} -m 'Release {tag}' {heads[k % len(heads)]}", "seed")
    g.sh("git remote add origin ../origin.git && git push -q origin --all && git push -q origin --tags", "seed")
    g.sh("git clone -q file://$PWD/origin.git work")
    # Local branches: some tracking origin (in sync, ahead, behind), some local only.
    tracked = names[:12]
    for n in tracked:
        g.sh(f"git branch -q --track {n} origin/{n}", "work")
    g.sh(f"git checkout -q {tracked[0]}", "work")
    g.commit("work", "Local tweak not pushed yet", {"src/local.py": "LOCAL = True\n"})
    g.commit("work", "Second local tweak", {"src/local.py": "LOCAL = 2\n"})
    g.sh(f"git checkout -q {tracked[1]} && git reset -q --hard HEAD~1", "work")
    g.sh("git checkout -q main", "work")
    for n in ("wip/refactor-store", "spike/new-parser", "tmp/debug-timeouts"):
        g.sh(f"git branch {n}", "work")
    # An upstream deleted on the remote: the local branch shows as gone after a prune.
    g.sh(f"git push -q origin --delete {tracked[2]} && git fetch -q --prune", "work")


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("git")
    g = Git(ws)
    version = g.version()
    build(g)
    fixtures: list[dict[str, Any]] = []

    def fx(id: str, rule: str, family: str, r: Result, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, rule, r, family=family, signals=signals, signal_source=source, tool_version=version)
        )

    # ------------------------------------------------------------- branch
    fam, rule = "git-branch", "git/branch"
    current = g.sh("git rev-parse --abbrev-ref HEAD", "work").strip()
    local = g.sh("git for-each-ref --format='%(refname:short)' refs/heads", "work").split()
    remote = g.sh("git for-each-ref --format='%(refname:lstrip=3)' refs/remotes/origin", "work").split()
    r = g.run("git branch", "work")
    fx(
        "git-branch-local",
        rule,
        fam,
        r,
        [sig("current", f"* {current}")] + [sig("branch", n) for n in local],
        "git rev-parse --abbrev-ref HEAD; git for-each-ref refs/heads",
    )
    r = g.run("git branch -a", "work")
    fx(
        "git-branch-all-hundreds",
        rule,
        fam,
        r,
        [sig("current", f"* {current}")]
        + [sig("branch", n) for n in local]
        + [sig("remote_branch", n) for n in remote if n != "HEAD"],
        "git rev-parse --abbrev-ref HEAD; for-each-ref refs/heads; for-each-ref refs/remotes/origin (name after origin/)",
    )
    track = g.sh(
        "git for-each-ref --format='%(refname:short)%00%(upstream:short)%00%(upstream:track)' refs/heads", "work"
    )
    vv_sigs = []
    for line in track.splitlines():
        name, _up, state = ([*line.split("\x00"), "", ""])[:3]
        vv_sigs.append(sig("branch", name))
        if state:
            vv_sigs.append(sig("tracking", state.strip("[]")))
    r = g.run("git branch -vv", "work")
    fx("git-branch-vv", rule, fam, r, vv_sigs, "for-each-ref refs/heads: name and %(upstream:track)")
    r = g.run("git branch -d spike/new-parser no-such-branch", "work")
    fx(
        "git-branch-delete-missing",
        rule,
        fam,
        r,
        [*stderr_lines(r), sig("deleted", "spike/new-parser")],
        "git's error: line; the branch name that was deleted",
    )
    r = g.run("git branch wip/refactor-store", "work")
    fx("git-branch-exists", rule, fam, r, stderr_lines(r), "git's fatal: line on stderr")
    r = g.run("git branch -r --merged main", "work")
    merged = g.sh("git for-each-ref --merged main --format='%(refname:lstrip=3)' refs/remotes/origin", "work").split()
    fx(
        "git-branch-remote-merged",
        rule,
        fam,
        r,
        [sig("remote_branch", n) for n in merged if n != "HEAD"],
        "git for-each-ref --merged main refs/remotes/origin (name after origin/)",
    )

    # ---------------------------------------------------------------- tag
    fam, rule = "git-tag", "git/tag"
    tags = g.sh("git for-each-ref --format='%(refname:short)' refs/tags", "work").split()
    r = g.run("git tag", "work")
    fx("git-tag-list", rule, fam, r, [sig("tag", t) for t in tags], "git for-each-ref refs/tags")
    r = g.run("git tag -n -l 'v2.*'", "work")
    ann = g.sh("git for-each-ref --format='%(refname:short)%00%(contents:subject)' 'refs/tags/v2.*'", "work")
    fx(
        "git-tag-annotations",
        rule,
        fam,
        r,
        [sig("tag", p) for line in ann.splitlines() for p in line.split("\0")],
        "git for-each-ref refs/tags/v2.*: name and %(contents:subject)",
    )
    r = g.run("git tag v1.0.0", "work")
    fx("git-tag-exists", rule, fam, r, stderr_lines(r), "git's fatal: line on stderr")

    # ------------------------------------------------------------- remote
    fam, rule = "git-remote", "git/remote"
    g.sh("git remote add upstream https://git.example.com/team/refsproj.git", "work")
    g.sh("git remote add mirror ../origin.git && git remote set-url --push mirror ../nowhere.git", "work")
    urls = [
        sig("url", g.sh(f"git config --get-all remote.{n}.{k}", "work").strip())
        for n in ("origin", "upstream", "mirror")
        for k in ("url",)
    ] + [sig("url", g.sh("git config remote.mirror.pushurl", "work").strip())]
    r = g.run("git remote -v", "work")
    fx(
        "git-remote-verbose",
        "git/remote-v",
        fam,
        r,
        [sig("remote", n) for n in ("origin", "upstream", "mirror")] + urls,
        "git config remote.<name>.url / pushurl",
    )
    # A remote branch deleted upstream and another created since the last fetch.
    g.sh("git -C ../origin.git branch zz-new-upstream main && git -C ../origin.git branch -D " + remote[5], "work")
    r = g.run("git remote show origin", "work")
    tracked_remote = g.sh("git for-each-ref --format='%(refname:lstrip=3)' refs/remotes/origin", "work").split()
    pulls = g.sh("git for-each-ref --format='%(refname:short)%00%(upstream:lstrip=3)' refs/heads", "work")
    fx(
        "git-remote-show-hundreds",
        rule,
        fam,
        r,
        [sig("url", g.sh("git config remote.origin.url", "work").strip())]
        + [sig("remote_branch", n) for n in tracked_remote if n != "HEAD"]
        + [sig("remote_branch", "zz-new-upstream")]
        + [sig("pull", ln.split("\0")[0]) for ln in pulls.splitlines() if ln.split("\0")[1]],
        "git config remote.origin.url; for-each-ref refs/remotes/origin; the branch created upstream; "
        "local branches with an upstream (for-each-ref %(upstream))",
    )
    r = g.run("git remote show upstream", "work")
    fx("git-remote-show-unreachable", rule, fam, r, stderr_lines(r, "fatal:"), "git's fatal: lines on stderr")
    r = g.run("git remote add origin ../elsewhere.git", "work")
    fx("git-remote-add-exists", rule, fam, r, stderr_lines(r), "git's error: line on stderr")

    # ----------------------------------------------------------- worktree
    fam, rule = "git-worktree", "git/worktree"
    r = g.run("git worktree add ../wt-hotfix -b hotfix/login-timeout", "work")
    fx(
        "git-worktree-add",
        rule,
        fam,
        r,
        [sig("branch", "hotfix/login-timeout"), sig("head", "HEAD is now at")],
        "the branch the worktree was created with; git's HEAD line",
    )
    g.sh("git worktree add -q ../wt-review origin/" + remote[7] + " --detach", "work")
    g.sh(
        "git worktree add -q ../wt-locked -b exp/locked && git worktree lock --reason 'on a USB disk' ../wt-locked",
        "work",
    )
    g.write("wt-hotfix/dirty.txt", "uncommitted\n")
    r = g.run("git worktree list", "work")
    porcelain = g.sh("git worktree list --porcelain", "work")
    wsigs = []
    for line in porcelain.splitlines():
        key, _, value = line.partition(" ")
        if key == "worktree":
            wsigs.append(sig("path", value.rsplit("/", 1)[-1]))
        elif key == "branch":
            wsigs.append(sig("branch", value.removeprefix("refs/heads/")))
        elif key in ("locked", "detached"):
            wsigs.append(sig("state", key))
    fx(
        "git-worktree-list",
        "git/worktree-list",
        fam,
        r,
        wsigs,
        "git worktree list --porcelain: paths, branches, detached/locked",
    )
    r = g.run("git worktree remove ../wt-hotfix", "work")
    fx("git-worktree-remove-dirty", rule, fam, r, stderr_lines(r), "git's fatal: line on stderr")

    # -------------------------------------------------------------- stash
    fam, rule = "git-stash", "git/stash"
    g.sh("git checkout -q main", "work")
    for n in range(4):
        g.write("work/src/app.py", g.ws.path("work/src/app.py").read_text() + f"debug_{n} = True\n")
        g.write(f"work/notes/n{n}.txt", f"note {n}\n")
        g.sh(f"git add notes && git stash push -q -m 'experiment {n}'", "work")
        g.tick()
    g.write("work/src/app.py", g.ws.path("work/src/app.py").read_text().replace("print('hi')", "print('hello')"))
    r = g.run("git stash push -m 'greeting change'", "work")
    fx("git-stash-push", rule, fam, r, [sig("message", "greeting change")], "the stash message it was created with")
    listing = g.sh("git stash list --format='%gd%x00%gs'", "work")
    r = g.run("git stash list", "work")
    fx(
        "git-stash-list",
        "git/stash-list",
        fam,
        r,
        [sig("stash", p) for ln in listing.splitlines() for p in ln.split("\0")],
        "git stash list --format='%gd%x00%gs'",
    )
    r = g.run("git stash show -p stash@{2}", "work")
    fx(
        "git-stash-show-patch",
        rule,
        fam,
        r,
        diff_line_signals(g.sh("git stash show -p --no-color stash@{2}", "work")),
        "every +/- line of git stash show -p --no-color",
    )
    r = g.run("git stash pop", "work")
    fx(
        "git-stash-pop-clean",
        rule,
        fam,
        r,
        [sig("path", "src/app.py"), sig("dropped", "refs/stash@{0}")],
        "the path the stash modified; the entry it dropped",
    )
    g.write("work/src/app.py", "print('conflicting edit')\n")
    g.sh("git commit -qam 'Rewrite app entry point'", "work")
    g.tick()
    r = g.run("git stash pop stash@{1}", "work")
    fx(
        "git-stash-pop-conflict",
        rule,
        fam,
        r,
        [*conflict_paths(g, "work"), sig("kept", "The stash entry is kept")],
        "git diff --name-only --diff-filter=U after the pop; the kept-entry notice",
    )
    g.sh("git reset -q --hard", "work")
    r = g.run("git stash apply stash@{9}", "work")
    fx("git-stash-missing-entry", rule, fam, r, stderr_lines(r), "git's fatal: line on stderr")
    return fixtures
