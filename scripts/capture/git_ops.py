"""git commit / merge / rebase / cherry-pick / revert / checkout / switch / restore.

Passing: commits (with many new files), a fast-forward merge with a long stat, a
three-way merge, a clean rebase, a clean cherry-pick. Failing: nothing to commit, a
pre-commit hook that rejects the commit, merge/rebase/cherry-pick/revert conflicts
(content, modify/delete, add/add), a merge refused because local changes would be
overwritten, checkout/switch refused for the same reason, unknown branch/pathspec.

Signals: `git diff --name-only --diff-filter=U` (conflicting paths), `git log -1
--format=%h%x00%s` (new commits), `git diff --numstat` (changed paths), `git status
--porcelain` (paths of an embedded status), the hook's own messages (written by us),
and the paths we modified for the "would be overwritten" refusals.
"""

from __future__ import annotations

import random
from typing import Any

from capture._git import Git, conflict_paths, numstat_paths, stderr_lines
from capture._lib import Result, Workspace, sig

MODULES = ["billing", "catalog", "checkout", "inventory", "search", "shipping", "users"]


def _lines(name: str, n: int) -> str:
    return "".join(f"{name}_setting_{k} = {k * 7}\n" for k in range(n))


def build(g: Git) -> None:
    g.init("shop")
    files = {f"shop/{m}.py": _lines(m, 40) for m in MODULES}
    files["README.md"] = "# shop\n"
    g.commit("shop", "Initial import", files)


def head_signals(g: Git, repo: str) -> list[Any]:
    h, _, s = g.sh("git log -1 --format=%h%x00%s", repo).strip().partition("\0")
    return [sig("commit", h), sig("subject", s)]


def porcelain_paths(g: Git, repo: str) -> list[Any]:
    out = g.sh("git status --porcelain=v1 -z", repo)
    entries = [e for e in out.split("\0") if e]
    return [sig("path", e[3:]) for e in entries if len(e) > 3]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("git")
    g = Git(ws)
    version = g.version()
    build(g)
    rng = random.Random(41)
    repo = "shop"
    fixtures: list[dict[str, Any]] = []

    def fx(id: str, rule: str, family: str, r: Result, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, rule, r, family=family, signals=signals, signal_source=source, tool_version=version)
        )

    # ------------------------------------------------------------ commit
    fam, rule = "git-commit", "git/commit"
    for k in range(60):
        g.write(f"{repo}/migrations/{k:04d}_step.sql", f"-- migration {k}\nALTER TABLE t{k} ADD COLUMN c{k} int;\n")
    g.write(f"{repo}/shop/billing.py", _lines("billing", 40).replace("= 14", "= 15"))
    g.sh("git add -A", repo)
    r = g.run("git commit -m 'Add the schema migrations'", repo)
    g.tick()
    created = g.sh("git diff --name-only --diff-filter=A HEAD~1 HEAD", repo).split()
    fx(
        "git-commit-many-files",
        rule,
        fam,
        r,
        [*head_signals(g, repo), *(sig("path", p) for p in created)],
        "git log -1 --format=%h%x00%s; git diff --name-only --diff-filter=A HEAD~1 HEAD (the files it created)",
    )
    r = g.run("git commit -m 'Nothing here'", repo)
    fx("git-commit-nothing", rule, fam, r, [sig("status", "nothing to commit")], "git's nothing-to-commit line")
    g.write(f"{repo}/shop/users.py", _lines("users", 40) + "DEBUG = True\n")
    g.write(f"{repo}/notes.txt", "todo\n")
    r = g.run("git commit -m 'Forgot to stage'", repo)
    fx("git-commit-nothing-staged", rule, fam, r, porcelain_paths(g, repo), "git status --porcelain paths")
    hook = ws.path(f"{repo}/.git/hooks/pre-commit")
    hook.write_text(
        "#!/bin/sh\n"
        "echo 'Running lint on staged files...'\n"
        'for i in $(seq 1 40); do echo "checked shop/module_$i.py"; done\n'
        "echo 'shop/users.py:41:1: E999 debug flag left on (DEBUG = True)' >&2\n"
        "echo 'pre-commit: lint failed, commit aborted' >&2\n"
        "exit 1\n"
    )
    hook.chmod(0o755)
    g.sh("git add shop/users.py", repo)
    r = g.run("git commit -m 'Enable debug'", repo)
    fx(
        "git-commit-hook-rejects",
        rule,
        fam,
        r,
        [sig("error", "shop/users.py:41:1: E999 debug flag left on"), sig("error", "lint failed, commit aborted")],
        "the messages the pre-commit hook was written to print",
    )
    hook.unlink()
    g.sh("git reset -q && git checkout -q -- shop/users.py && rm notes.txt", repo)

    # --------------------------------------------------------------- merge
    fam = "git-merge"
    g.sh("git checkout -q -b feature/bulk-pricing", repo)
    for n in range(12):
        m = MODULES[n % len(MODULES)]
        p = ws.path(f"{repo}/shop/{m}.py")
        text = p.read_text().splitlines()
        text[rng.randrange(len(text))] += f"  # bulk {n}"
        p.write_text("\n".join(text) + "\n")
        g.write(f"{repo}/pricing/rule_{n:02d}.py", f"RULE = {n}\n")
        g.commit(repo, f"Bulk pricing step {n}")
    g.sh("git checkout -q main", repo)
    old = g.sh("git rev-parse --short HEAD", repo).strip()
    r = g.run("git merge feature/bulk-pricing", repo)
    new = g.sh("git rev-parse --short HEAD", repo).strip()
    fx(
        "git-merge-fast-forward",
        "git/merge",
        fam,
        r,
        [sig("range", f"{old}..{new}"), *numstat_paths(g, repo, f"{old} {new}")],
        "rev-parse --short before/after; git diff --numstat of the range",
    )
    g.sh("git checkout -q -b feature/search-tuning HEAD~3", repo)
    g.commit(repo, "Tune search weights", {"shop/search.py": _lines("search", 40).replace("= 21", "= 22")})
    g.sh("git checkout -q main", repo)
    g.commit(repo, "Note the release", {"CHANGELOG.md": "## 1.1\n- bulk pricing\n"})
    r = g.run("git merge --no-edit feature/search-tuning", repo)
    g.tick()
    fx(
        "git-merge-three-way",
        "git/merge",
        fam,
        r,
        [sig("strategy", "Merge made by"), sig("path", "shop/search.py")],
        "git's merge-made line; the path the branch changed",
    )
    # Conflicting branches: content, modify/delete and add/add conflicts.
    g.sh("git checkout -q -b feature/rename-users", repo)
    g.commit(
        repo,
        "Rework users and shipping",
        {
            "shop/users.py": _lines("users", 40).replace("users_setting_3 ", "users_flag_3 "),
            "shop/shipping.py": _lines("shipping", 40).replace("= 7\n", "= 8\n"),
            "shop/returns.py": "RETURNS = 'feature'\n",
        },
    )
    g.sh("git checkout -q main", repo)
    g.sh("git rm -q shop/shipping.py", repo)
    g.commit(
        repo,
        "Drop shipping, edit users",
        {
            "shop/users.py": _lines("users", 40).replace("users_setting_3 ", "users_option_3 "),
            "shop/returns.py": "RETURNS = 'main'\n",
        },
    )
    r = g.run("git merge feature/rename-users", repo)
    fx(
        "git-merge-conflicts",
        "git/merge",
        fam,
        r,
        [*conflict_paths(g, repo), sig("status", "Automatic merge failed")],
        "git diff --name-only --diff-filter=U; git's merge-failed line",
    )
    g.sh("git merge --abort", repo, check=False)
    g.write(f"{repo}/shop/users.py", "LOCAL = 'edit'\n")
    r = g.run("git merge feature/rename-users", repo)
    fx(
        "git-merge-local-changes",
        "git/merge",
        fam,
        r,
        [sig("path", "shop/users.py"), *stderr_lines(r, "error:")],
        "the path we modified; git's error: line",
    )
    g.sh("git checkout -q -- shop/users.py", repo)
    r = g.run("git merge no-such-branch", repo)
    fx("git-merge-unknown-branch", "git/merge", fam, r, stderr_lines(r, "merge:", "fatal:"), "git's error line")

    # -------------------------------------------------------------- rebase
    g.sh("git checkout -q -b topic/catalog feature/bulk-pricing~4", repo)
    for n in range(5):
        g.commit(repo, f"Catalog cleanup {n}", {f"catalog/part_{n}.md": f"part {n}\n"})
    r = g.run("git rebase main", repo)
    fx(
        "git-rebase-clean",
        "git/rebase",
        fam,
        r,
        [sig("done", "Successfully rebased and updated refs/heads/topic/catalog")],
        "git's success line for the branch we rebased",
    )
    g.sh("git checkout -q -b topic/users-again feature/rename-users", repo)
    g.commit(
        repo, "More users work", {"shop/users.py": _lines("users", 40).replace("users_setting_9 ", "users_knob_9 ")}
    )
    r = g.run("git rebase main", repo)
    fx(
        "git-rebase-conflict",
        "git/rebase",
        fam,
        r,
        [*conflict_paths(g, repo), sig("apply", "could not apply")],
        "git diff --name-only --diff-filter=U; the commit git could not apply",
    )
    g.sh("git rebase --abort", repo, check=False)

    # --------------------------------------------------------- cherry-pick
    g.sh("git checkout -q main", repo)
    pick = g.sh("git rev-parse --short feature/search-tuning", repo).strip()
    g.sh("git checkout -q -b release/1.1 HEAD~6", repo)
    r = g.run(f"git cherry-pick {pick}", repo)
    g.tick()
    fx("git-cherry-pick-clean", "git/cherry-pick", fam, r, head_signals(g, repo), "git log -1 --format=%h%x00%s")
    g.commit(
        repo,
        "Release-only users tweak",
        {"shop/users.py": _lines("users", 40).replace("users_setting_3 ", "users_release_3 ")},
    )
    r = g.run("git cherry-pick feature/rename-users", repo)
    fx(
        "git-cherry-pick-conflict",
        "git/cherry-pick",
        fam,
        r,
        [*conflict_paths(g, repo), sig("apply", "could not apply")],
        "git diff --name-only --diff-filter=U; the commit git could not apply",
    )
    g.sh("git cherry-pick --abort", repo, check=False)
    g.sh("git checkout -q main", repo)
    base = ws.path(f"{repo}/shop/inventory.py").read_text()
    g.commit(
        repo, "Raise the stock threshold", {"shop/inventory.py": base.replace("setting_20 = 140", "setting_20 = 141")}
    )
    g.commit(repo, "Raise it again", {"shop/inventory.py": base.replace("setting_20 = 140", "setting_20 = 142")})
    r = g.run("git revert --no-edit HEAD~1", repo)
    fx(
        "git-revert-conflict",
        "git/cherry-pick",
        fam,
        r,
        [*conflict_paths(g, repo), sig("apply", "could not revert")],
        "git diff --name-only --diff-filter=U; the commit git could not revert",
    )
    g.sh("git revert --abort", repo, check=False)
    g.sh("git reset -q --hard", repo)

    # ---------------------------------------------------- checkout / switch
    fam, rule = "git-checkout", "git/checkout"
    for m in ("users", "shipping", "billing"):
        g.write(f"{repo}/shop/{m}.py", f"LOCAL_{m.upper()} = 1\n")
    r = g.run("git checkout feature/bulk-pricing~8", repo)
    fx(
        "git-checkout-would-overwrite",
        rule,
        fam,
        r,
        [sig("path", f"shop/{m}.py") for m in ("users", "billing")]
        + [sig("error", "would be overwritten by checkout")],
        "the tracked paths we modified that the target commit changes; git's refusal",
    )
    g.sh("git checkout -q -- shop && git clean -fdq", repo)
    g.write(f"{repo}/shop/users.py", "LOCAL_USERS = 1\n")
    r = g.run("git switch feature/rename-users", repo)
    fx(
        "git-switch-would-overwrite",
        rule,
        fam,
        r,
        [sig("path", "shop/users.py"), sig("error", "would be overwritten")],
        "the modified path the target branch changes; git's refusal",
    )
    g.write(f"{repo}/shop/catalog.py", "LOCAL_CATALOG = 1\n")
    r = g.run("git switch topic/catalog", repo)
    fx(
        "git-switch-carries-changes",
        rule,
        fam,
        r,
        [*porcelain_paths(g, repo), sig("branch", "topic/catalog")],
        "git status --porcelain paths after the switch; the branch",
    )
    g.sh("git checkout -q -- shop/users.py", repo)
    r = g.run("git checkout feature/bulk-pricing~2", repo)
    fx(
        "git-checkout-detached",
        rule,
        fam,
        r,
        [sig("head", g.sh("git log -1 --format=%h", repo).strip()), *porcelain_paths(g, repo)],
        "git log -1 --format=%h after the checkout; git status --porcelain paths carried along",
    )
    r = g.run("git switch -c hotfix/price-rounding", repo)
    fx("git-switch-create", rule, fam, r, [sig("branch", "hotfix/price-rounding")], "the branch we created")
    r = g.run("git checkout no-such-branch", repo)
    fx("git-checkout-unknown", rule, fam, r, stderr_lines(r), "git's error: line on stderr")
    r = g.run("git restore shop/nope.py", repo)
    fx("git-restore-unknown-path", rule, fam, r, stderr_lines(r), "git's error: line on stderr")
    return fixtures
