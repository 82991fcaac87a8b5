"""git blame: a long file shaped by 40 commits of five authors, a line range, the
short-date and email variants, a renamed file (`-C`), and a missing path.

Signals come from `git blame --porcelain` with the same arguments: every commit (its
first 7 hex digits, which every abbreviation git prints starts with) and every author;
for a short range, also every line's content.
"""

from __future__ import annotations

import random
from typing import Any

from capture._git import Git, stderr_lines
from capture._lib import Result, Workspace, sig

FAMILY = "git-blame"
RULE = "git/blame"
AUTHORS = [
    "Dana Dev <dana@example.com>",
    "Rae Coder <rae@example.com>",
    "Sam Ortiz <sam.ortiz@example.org>",
    "Kim Lee <kim@example.net>",
    "Alex Novak <alex.novak@example.com>",
]


def build(g: Git) -> None:
    repo = "blameproj"
    g.init(repo)
    rng = random.Random(17)
    lines = []
    for k in range(300):
        lines += [
            f"def handler_{k}(request):",
            f'    """Handle route {k}."""',
            f"    payload = request.json.get('item_{k}')",
            "    return respond(payload)",
            "",
        ]
    g.commit(repo, "Generate the route handlers", {"app/routes.py": "\n".join(lines) + "\n"}, author=AUTHORS[0])
    for n in range(40):
        author = AUTHORS[rng.randrange(len(AUTHORS))]
        start = rng.randrange(0, len(lines) - 30)
        for j in range(start, start + rng.randrange(3, 25)):
            if lines[j].startswith("    return"):
                lines[j] = f"    return respond(payload, status={200 + n % 5})"
            elif lines[j].startswith("    payload"):
                lines[j] = lines[j].replace(".get(", ".get_strict(") if n % 2 else lines[j] + "  # validated"
        if n % 7 == 3:
            at = rng.randrange(len(lines))
            lines[at:at] = [f"# section {n}: see docs/routes.md", ""]
        g.commit(repo, f"Route change {n}", {"app/routes.py": "\n".join(lines) + "\n"}, author=author)
    g.sh("git mv app/routes.py app/handlers.py", repo)
    g.commit(repo, "Rename routes to handlers", author=AUTHORS[1])
    g.commit(
        repo,
        "Tune handler 42",
        {"app/handlers.py": g.ws.path(f"{repo}/app/handlers.py").read_text().replace("item_42'", "item_42', None")},
        author=AUTHORS[3],
    )


def porcelain_signals(g: Git, repo: str, args: str, *, content: bool = False, emails: bool = False) -> list[Any]:
    out = g.sh(f"git blame --porcelain {args}", repo)
    commits: dict[str, None] = {}
    authors: dict[str, None] = {}
    texts: dict[str, None] = {}
    for line in out.splitlines():
        head = line.split(" ", 1)[0]
        if len(head) == 40 and all(c in "0123456789abcdef" for c in head):
            commits.setdefault(head[:7], None)
        elif line.startswith("author-mail " if emails else "author "):
            authors.setdefault(line.split(" ", 1)[1], None)
        elif line.startswith("\t") and line.strip():
            texts.setdefault(line[1:].strip(), None)
    sigs = [sig("commit", c) for c in commits] + [sig("author", a) for a in authors]
    if content:
        sigs += [sig("content", t) for t in texts]
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("git")
    g = Git(ws)
    version = g.version()
    build(g)
    repo = "blameproj"
    fixtures: list[dict[str, Any]] = []

    def fx(id: str, r: Result, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version)
        )

    src = "git blame --porcelain with the same arguments: every commit (7 hex digits) and author"
    r = g.run("git blame app/handlers.py", repo)
    fx("git-blame-long-file", r, porcelain_signals(g, repo, "app/handlers.py"), src)

    r = g.run("git blame -L 200,236 app/handlers.py", repo)
    fx(
        "git-blame-line-range",
        r,
        porcelain_signals(g, repo, "-L 200,236 app/handlers.py", content=True),
        src + "; and every line's content",
    )

    r = g.run("git blame -e --date=short -L 1,400 app/handlers.py", repo)
    fx(
        "git-blame-email-short-date",
        r,
        porcelain_signals(g, repo, "-L 1,400 app/handlers.py", emails=True),
        src.replace("author", "author e-mail"),
    )

    r = g.run("git blame -C -C -n -f -L 1,60 app/handlers.py", repo)
    fx(
        "git-blame-copies-filenames",
        r,
        [*porcelain_signals(g, repo, "-C -C -L 1,60 app/handlers.py", content=True), sig("path", "app/routes.py")],
        src + "; every line's content; the pre-rename path git reports for the old lines",
    )

    r = g.run("git blame --porcelain -L 150,175 app/handlers.py", repo)
    fx(
        "git-blame-porcelain",
        r,
        porcelain_signals(g, repo, "-L 150,175 app/handlers.py", content=True),
        src + "; and every line's content",
    )

    r = g.run("git blame app/nope.py", repo)
    fx("git-blame-missing-path", r, stderr_lines(r), "git's fatal: line on stderr")
    return fixtures
