"""git show: commits (patch, --stat, --name-status, merge, annotated tag), file reads
(`REV:path`), and the errors (unknown revision, missing path, not a repository).

Signals: `git show -s --format=%h%x00%s%x00%b` for the header; the +/- lines of
`git show --format= --no-color` for the patch; `git show --numstat --format=` paths for
--stat and --name-status; the file content as written for `REV:path`.
"""

from __future__ import annotations

import random
from typing import Any

from capture._git import Git, diff_line_signals, stderr_lines
from capture._lib import Result, Workspace, sig

FAMILY = "git-show"
RULE = "git/show"
RULE_FILE = "git/show-file"

MODULES = ["parser", "scheduler", "storage", "transport", "render", "metrics"]


def _module_text(name: str, n: int, rev: int = 0) -> str:
    out = [
        f'"""The {name} module (generated for the capture)."""',
        "",
        "import logging",
        "",
        "LOG = logging.getLogger(__name__)",
        "",
    ]
    for k in range(n):
        out += [
            "",
            f"def {name}_step_{k}(value, *, retries=3):",
            f'    """Step {k} of the {name} pipeline."""',
            "    attempt = 0",
            "    while attempt < retries:",
            "        attempt += 1",
            f"        if value is not None and value > {k}:",
            f"            return value - {k + rev}",
            f'    LOG.debug("{name} step {k} gave up after %d attempts", attempt)',
            "    return None",
        ]
    return "\n".join(out) + "\n"


def build(g: Git) -> dict[str, str]:
    """A project with a few long modules, a merged branch and an annotated tag."""
    repo = "showproj"
    g.init(repo)
    files = {f"src/proj/{m}.py": _module_text(m, 60) for m in MODULES}
    files["README.md"] = "# showproj\n\nUsed to capture `git show`.\n"
    files["src/proj/config.py"] = (
        '"""Runtime configuration."""\n\nDEFAULTS = {\n    "timeout": 30,\n    "retries": 3,\n'
        '    "endpoint": "https://api.example.com/v2",\n    "cache_dir": "~/.cache/showproj",\n}\n\n\n'
        "def load(overrides=None):\n    cfg = dict(DEFAULTS)\n    cfg.update(overrides or {})\n    return cfg\n"
    )
    refs = {"initial": g.commit(repo, "Initial import", files)}
    rng = random.Random(5)
    # Scattered one-line edits across every module: lots of context, few changed lines.
    for m in MODULES:
        path = g.ws.path(f"{repo}/src/proj/{m}.py")
        lines = path.read_text().splitlines()
        for _ in range(9):
            k = rng.randrange(8, len(lines) - 4)
            if "return value -" in lines[k]:
                lines[k] = lines[k].replace("return value -", "return max(0, value) -")
            elif "LOG.debug" in lines[k]:
                lines[k] = lines[k].replace("LOG.debug", "LOG.info")
            else:
                lines.insert(k, "    # NOTE: retries are bounded by the caller")
        path.write_text("\n".join(lines) + "\n")
    refs["scattered"] = g.commit(
        repo,
        "Clamp negative values and log give-ups at info level\n\n"
        "Negative inputs used to leak through every pipeline step; clamp them at the\n"
        "boundary instead. Give-ups are now logged at INFO so operators see them.\n\n"
        "Refs: #412",
    )
    g.commit(
        repo,
        "Raise default timeout",
        {
            "src/proj/config.py": g.ws.path(f"{repo}/src/proj/config.py")
            .read_text()
            .replace('"timeout": 30', '"timeout": 60')
        },
    )
    g.commit(repo, "Document the cache directory", {"docs/cache.md": "# Cache\n\nLives in `~/.cache/showproj`.\n"})
    refs["stat"] = g.commit(
        repo,
        "Split transport retries into their own module",
        {
            "src/proj/retry.py": "def backoff(attempt):\n    return min(30, 2 ** attempt)\n",
            "src/proj/transport.py": g.ws.path(f"{repo}/src/proj/transport.py")
            .read_text()
            .replace("retries=3", "retries=5"),
            "tests/test_retry.py": "from proj.retry import backoff\n\n\ndef test_backoff():\n    assert backoff(10) == 30\n",
        },
    )
    g.sh("git rm -q docs/cache.md && git mv README.md README.rst", repo)
    refs["name_status"] = g.commit(repo, "Move docs into the README")
    # A merge that needed a manual resolution, so `git show` prints a combined diff.
    g.sh("git checkout -q -b feature/endpoint", repo)
    cfg = g.ws.path(f"{repo}/src/proj/config.py")
    g.commit(repo, "Point at the v3 endpoint", {"src/proj/config.py": cfg.read_text().replace("/v2", "/v3")})
    g.sh("git checkout -q main", repo)
    staging = cfg.read_text().replace("api.example", "staging.example")
    g.commit(repo, "Point at the staging endpoint", {"src/proj/config.py": staging})
    g.sh("git merge -q --no-ff feature/endpoint -m 'Merge feature/endpoint'", repo, check=False)
    cfg.write_text(staging.replace("/v2", "/v3"))
    g.sh("git add -A && git commit -q --no-edit", repo)
    g.tick()
    refs["merge"] = g.sh("git rev-parse --short HEAD", repo).strip()
    g.sh("git tag -a v2.0.0 -m 'Release 2.0.0' -m 'Highlights: clamped inputs, retry module, v3 endpoint.'", repo)
    return refs


def header_signals(g: Git, repo: str, rev: str) -> list[Any]:
    out = g.sh(f"git show -s --format=%h%x00%s%x00%b {rev}", repo)
    h, subject, body = ([*out.split("\x00"), "", ""])[:3]
    sigs = [sig("commit", h.strip()), sig("subject", subject.strip())]
    sigs += [sig("message", ln.strip()) for ln in body.splitlines() if ln.strip()]
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("git")
    g = Git(ws)
    version = g.version()
    refs = build(g)
    repo = "showproj"
    fixtures: list[dict[str, Any]] = []

    def fx(id: str, rule: str, r: Result, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, rule, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version)
        )

    header = "git show -s --format=%h%x00%s%x00%b (hash, subject, message lines)"
    patch = "; every +/- line of git show --format= --no-color"

    rev = refs["scattered"]
    r = g.run(f"git show {rev}", repo)
    sigs = header_signals(g, repo, rev) + diff_line_signals(g.sh(f"git show --format= --no-color {rev}", repo))
    fx("git-show-scattered-edits", RULE, r, sigs, header + patch)

    r = g.run("git show --stat HEAD~3", repo)
    paths = [
        sig("path", ln.split("\t")[2])
        for ln in g.sh("git show --numstat --format= HEAD~3", repo).splitlines()
        if ln.count("\t") >= 2
    ]
    fx("git-show-stat", RULE, r, header_signals(g, repo, "HEAD~3") + paths, header + "; git show --numstat paths")

    r = g.run(f"git show --name-status {refs['name_status']}", repo)
    ns = [
        sig("path", p)
        for ln in g.sh(f"git show --name-status --format= {refs['name_status']}", repo).splitlines()
        for p in ln.split("\t")[1:]
    ]
    fx(
        "git-show-name-status",
        RULE,
        r,
        header_signals(g, repo, refs["name_status"]) + ns,
        header + "; --name-status paths",
    )

    r = g.run("git show HEAD", repo)
    cc = [
        sig("diff_line", ln)
        for ln in g.sh("git show --format= --no-color HEAD", repo).splitlines()
        if ln[:2] in ("++", "--", "+ ", "- ", " +", " -") and not ln.startswith(("+++", "---"))
    ]
    fx("git-show-merge-resolution", RULE, r, header_signals(g, repo, "HEAD") + cc, header + "; combined-diff lines")

    r = g.run("git show v2.0.0 --stat", repo)
    fx(
        "git-show-annotated-tag",
        RULE,
        r,
        [sig("tag", "v2.0.0"), sig("message", "Release 2.0.0"), *header_signals(g, repo, "v2.0.0^{commit}")],
        "the tag name and message it was created with; " + header,
    )

    cfg_text = g.ws.path(f"{repo}/src/proj/config.py").read_text()
    r = g.run(f"git show {refs['initial']}:src/proj/config.py", repo)
    old = g.sh(f"git cat-file -p {refs['initial']}:src/proj/config.py", repo)
    fx(
        "git-show-file-at-rev",
        RULE_FILE,
        r,
        [sig("content", ln.strip()) for ln in old.splitlines() if ln.strip()],
        "git cat-file -p of the same blob: every non-blank line",
    )
    assert cfg_text  # the working copy differs from the old blob on purpose

    r = g.run("git show HEAD:src/proj/parser.py", repo)
    blob = g.sh("git cat-file -p HEAD:src/proj/parser.py", repo)
    fx(
        "git-show-file-long",
        RULE_FILE,
        r,
        [sig("content", ln.strip()) for ln in blob.splitlines()[:5] if ln.strip()],
        "git cat-file -p of the same blob: its first lines (a long file is windowed like a file read)",
    )

    r = g.run("git show HEAD:src/proj/nope.py", repo)
    fx("git-show-file-missing", RULE_FILE, r, stderr_lines(r), "git's fatal: line on stderr")

    r = g.run("git show no-such-rev", repo)
    fx("git-show-unknown-revision", RULE, r, stderr_lines(r), "git's fatal: line on stderr")

    ws.path("not-a-repo").mkdir(exist_ok=True)
    r = g.run("git show HEAD", "not-a-repo")
    fx("git-show-not-a-repo", RULE, r, stderr_lines(r), "git's fatal: line on stderr")
    return fixtures
