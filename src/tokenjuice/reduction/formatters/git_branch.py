"""git branch: every branch name kept, one line per group instead of one per branch.

    * main
    local (16): chore/auth-1559, chore/auth-2576, …, wip/refactor-store
    origin (300): HEAD -> origin/main; chore/auth-1559, chore/auth-2576, …

Remote-tracking names lose their `remotes/<remote>/` prefix under a per-remote heading;
when a remote carries most local branches, that is said once ("every local branch
except …") instead of repeating the names. `-v`/`-vv` keep one line per branch (padding
collapsed) while there are few; with many, branches whose upstream is ahead, behind or
gone keep their line and the rest are grouped by tracking state. Error lines stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._git_lines import pack

LIST_RE = re.compile(r"^([*+ ]) (\S.*)$")
VERBOSE_RE = re.compile(r"^([*+ ]) (\S+)\s+([0-9a-f]{7,40}) (?:\[([^\]]+)\] ?)?(.*)$")
DETACHED_RE = re.compile(r"^([*+ ]) (\((?:HEAD detached|no branch)[^)]*\))\s+([0-9a-f]{7,40}) ?(.*)$")
DEFAULT_FULL_MAX = 40


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    argv = fi.cmd.argv
    remotes_only = any(a in ("-r", "--remotes") for a in argv)
    verbose = any(a in ("-v", "-vv", "--verbose") for a in argv)
    if verbose:
        return _verbose(fi)
    b = Builder(lines, fi.weights)
    current: int | None = None
    local: list[tuple[int, str]] = []
    remote: dict[str, list[tuple[int, str]]] = {}
    for i, line in enumerate(lines):
        m = LIST_RE.match(line)
        if m is None:
            b.keep(i, protect=True)
            continue
        name = m.group(2)
        if m.group(1) == "*":
            current = i
            continue
        if name.startswith("remotes/") or remotes_only:
            rest = name.removeprefix("remotes/")
            where, _, short = rest.partition("/")  # a symref's target may hold no "/": partition, not split
            remote.setdefault(where, []).append((i, short))
        else:
            local.append((i, name))
    if current is None and not local and not remote:
        return None
    if current is not None:
        b.keep(current, protect=True)
    if local:
        pack(b, f"local ({len(local) + (current is not None)})", local)
    local_names = {n for _, n in local}
    if current is not None:
        local_names.add(lines[current][2:])
    for where, items in remote.items():
        shared = [(i, n) for i, n in items if n in local_names]
        if len(shared) >= 5:
            missing = sorted(local_names - {n for _, n in shared})
            note = "every local branch" + (f" except {', '.join(missing)}" if missing else "")
            b.add(f"{where} ({len(items)}): {note}; and:")
            for i, _ in shared:
                b.drop(i, "remote names equal to local ones")
            items = [(i, n) for i, n in items if n not in local_names]
            pack(b, "", items)
        else:
            pack(b, f"{where} ({len(items)})", items)
    b.facts["branch"] = len(local) + (current is not None) + sum(len(v) for v in remote.values())
    return b.build(final=True, essential=True)


def _verbose(fi: FormatInput) -> FormatOutput | None:
    lines = fi.lines
    b = Builder(lines, fi.weights)
    parsed: list[tuple[int, str, str, str, str, str] | None] = []
    for line in lines:
        m = VERBOSE_RE.match(line) or DETACHED_RE.match(line)
        if m is None:
            parsed.append(None)
            continue
        groups = m.groups()
        track = groups[3] if len(groups) == 5 else None
        subject = groups[-1]
        parsed.append((0, groups[0], groups[1], groups[2], track or "", subject))
    n_branches = sum(p is not None for p in parsed)
    if not n_branches:
        return None
    full_max = int(fi.options.get("fullMax", DEFAULT_FULL_MAX))
    in_sync: list[tuple[int, str]] = []
    no_upstream: list[tuple[int, str]] = []
    for i, p in enumerate(parsed):
        if p is None:
            b.keep(i, protect=True)
            continue
        _, mark, name, sha, track, subject = p
        line = " ".join(x for x in (mark.strip() or "", name, sha, f"[{track}]" if track else "", subject) if x)
        notable = mark != " " or ":" in track or n_branches <= full_max
        if notable:
            b.keep(i, protect=True, text=line)
        elif track:
            in_sync.append((i, name))
        else:
            no_upstream.append((i, name))
    pack(b, f"in sync with upstream ({len(in_sync)})", in_sync)
    pack(b, f"no upstream ({len(no_upstream)})", no_upstream)
    b.facts["branch"] = n_branches
    return b.build(final=True, essential=True)
