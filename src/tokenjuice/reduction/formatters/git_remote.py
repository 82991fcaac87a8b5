"""git remote: `-v` pairs folded, `remote show` lists grouped by state.

`git remote -v` prints every remote twice; when fetch and push URLs agree it becomes
one line, `origin file:///srv/app.git (fetch, push)`.

`git remote show <name>` keeps the URLs and HEAD branch, and turns its per-branch
tables into one line per state, every branch name kept:

    remote branches (300) tracked: chore/auth-1559, chore/auth-2576, …
    remote branches (1) new (next fetch will store in remotes/origin): zz-new-upstream
    git pull (12) merges with the same-named remote branch: chore/auth-1559, …
    git push (1) up to date: main
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._git_lines import pack

VERBOSE_RE = re.compile(r"^(\S+)\t(\S+) \((fetch|push)\)$")
SECTION_RE = re.compile(
    r"^  (Remote branch(?:es)?|Local branch(?:es)? configured for 'git pull'"
    r"|Local refs? configured for 'git push')(.*):$"
)
BRANCH_STATE_RE = re.compile(r"^    (\S+)\s+(tracked|new \(.*\)|stale \(.*\)|skipped)$")
PULL_RE = re.compile(r"^    (\S+)\s+(merges with remote|rebases onto remote|rebases interactively onto remote) (\S+)$")
PULL_MORE_RE = re.compile(r"^\s+and with remote (\S+)$")
PUSH_RE = re.compile(r"^    (\S+)\s+(pushes|forces) to (\S+)\s+\((.+)\)$")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    b = Builder(lines, fi.weights)
    if any(VERBOSE_RE.match(line) for line in lines[:4]):
        _verbose(b, lines)
        return b.build(final=True, essential=True)
    if not any(line.startswith("* remote ") for line in lines):
        return None
    section = ""
    groups: dict[str, list[tuple[int, str]]] = {}
    order: list[str] = []
    urls: dict[str, int] = {}

    def add(key: str, i: int, name: str) -> None:
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((i, name))

    for i, line in enumerate(lines):
        sec = SECTION_RE.match(line)
        if sec:
            _flush(b, groups, order)
            section = "remote" if sec.group(1).startswith("Remote") else ("pull" if "pull" in sec.group(1) else "push")
            b.drop(i, "headings")
            continue
        if line.startswith("* remote "):
            _flush(b, groups, order)
            section = ""
            b.keep(i, protect=True)
            continue
        if line.startswith(("  Fetch URL: ", "  Push  URL: ")):
            url = line.split("URL: ", 1)[1]
            if line.startswith("  Push") and url in urls:
                b.lines[urls[url]] = b.lines[urls[url]].replace("Fetch URL:", "URL (fetch, push):")
                b.weights[urls[url]] += b.src_weights[i]
                continue
            urls[url] = len(b.lines)
            b.keep(i, protect=True)
            continue
        if section == "remote" and (m := BRANCH_STATE_RE.match(line)):
            add(f"remote branches {m.group(2)}", i, m.group(1))
            continue
        if section == "pull" and (m := PULL_RE.match(line)):
            if m.group(1) == m.group(3) and m.group(2) == "merges with remote":
                add("git pull merges with the same-named remote branch", i, m.group(1))
            else:
                _flush(b, groups, order)
                b.keep(i, protect=True, text=f"  git pull: {m.group(1)} {m.group(2)} {m.group(3)}")
            continue
        if section == "pull" and PULL_MORE_RE.match(line):
            _flush(b, groups, order)
            b.keep(i, protect=True)
            continue
        if section == "push" and (m := PUSH_RE.match(line)):
            if m.group(1) == m.group(3) and m.group(2) == "pushes":
                add(f"git push {m.group(4)}", i, m.group(1))
            else:
                _flush(b, groups, order)
                b.keep(i, protect=True, text=f"  git push: {m.group(1)} {m.group(2)} to {m.group(3)} ({m.group(4)})")
            continue
        _flush(b, groups, order)
        b.keep(i, protect=True)
    _flush(b, groups, order)
    return b.build(final=True, essential=True)


def _verbose(b: Builder, lines: list[str]) -> None:
    seen: dict[tuple[str, str], int] = {}
    for i, line in enumerate(lines):
        m = VERBOSE_RE.match(line)
        if m is None:
            b.keep(i, protect=True)
            continue
        key = (m.group(1), m.group(2))
        if m.group(3) == "push" and key in seen:
            at = seen[key]
            b.lines[at] = b.lines[at].replace(" (fetch)", " (fetch, push)")
            b.weights[at] += b.src_weights[i]
            continue
        seen[key] = len(b.lines)
        b.keep(i, protect=True, text=f"{m.group(1)} {m.group(2)} ({m.group(3)})")


def _flush(b: Builder, groups: dict[str, list[tuple[int, str]]], order: list[str]) -> None:
    """Emit the pending groups as `label (n): a, b, …` lines, in order of appearance."""
    for key in order:
        pack(b, f"  {key} ({len(groups[key])})", groups[key], indent="    ")
    groups.clear()
    order.clear()
