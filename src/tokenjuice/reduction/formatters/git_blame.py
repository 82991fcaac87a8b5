"""git blame: the per-line prefix (hash, author, timestamp, line number) said once per run.

A short blame (`-L` ranges, up to `formatterOptions.inlineMax` lines, default 80) keeps
every line of code under a header per run of lines from the same commit:

    2c7d35b6 Sam Ortiz 2023-11-16 · 200-201
        payload = request.json.get('item_39')  # validated
        return respond(payload, status=201)

A long blame becomes an index, one line per commit in order of first appearance, with
every line range it owns; the code itself is the file, which the agent can read:

    ^3deb18b Dana Dev 2023-11-14 · 1,183 lines: 1-12, 15-40, 45, …
    2c7d35b6 Sam Ortiz 2023-11-16 · 14 lines: 200-201, 205-206, …

`--porcelain`/`--line-porcelain` output is parsed the same way (and adds each commit's
summary). Output that is not blame (errors) is kept as it is.
"""

from __future__ import annotations

import datetime as _dt

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

HASH_RE = re.compile(r"^(\^?[0-9a-f]{7,40}) ")
LINENO_RE = re.compile(r"(\d+)\)(?: |$)")  # what `_lineno` finds
DATE_RE = re.compile(r"\s+(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?(?: ?[+-]\d{4})?)?\s*$")
PORCELAIN_RE = re.compile(r"^([0-9a-f]{40}) (\d+) (\d+)(?: \d+)?$")
DEFAULT_INLINE_MAX = 80


def _lineno(line: str, pos: int) -> tuple[int, str, int] | None:
    """`LINENO_RE.search(line, pos)` as (start, digits, end): the first `)` after digits
    and before a blank (which the match takes) or the end. Found from the `)`s: `re`
    would try every position, as the pattern starts with a digit class."""
    j = line.find(")", pos)
    while j >= 0:
        if j > pos and line[j - 1].isdecimal() and (j + 1 == len(line) or line[j + 1] == " "):
            k = j - 1
            while k > pos and line[k - 1].isdecimal():
                k -= 1
            return k, line[k:j], min(j + 2, len(line))
        j = line.find(")", j + 1)
    return None


class Run:
    __slots__ = ("code", "first", "key", "last", "rows")

    def __init__(self, key: str, lineno: int) -> None:
        self.key = key
        self.first = lineno
        self.last = lineno
        self.rows: list[int] = []  # input line indices
        self.code: list[str | None] = []  # None: a porcelain header line


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    b = Builder(lines, fi.weights)
    if PORCELAIN_RE.match(lines[0]):
        runs, other = _porcelain(lines)
    else:
        runs, other = _default(lines)
    if not runs:
        return None
    for i in other:
        b.keep(i, protect=True)
    total = sum(r.last - r.first + 1 for r in runs)
    inline_max = int(fi.options.get("inlineMax", DEFAULT_INLINE_MAX))
    commits: dict[str, list[Run]] = {}
    for r in runs:
        commits.setdefault(r.key, []).append(r)
    b.facts.update({"line": total, "commit": len(commits)})
    if total <= inline_max:
        seen: set[str] = set()
        for r in runs:
            span = f"{r.first}" if r.first == r.last else f"{r.first}-{r.last}"
            # The author and date are said once per commit; later runs name the hash.
            who = r.key if r.key not in seen else r.key.split(" ", 1)[0]
            seen.add(r.key)
            b.add(f"{who} · {span}", protect=True)
            for i, code in zip(r.rows, r.code, strict=True):
                if code is None:
                    b.drop(i, "porcelain headers")
                else:
                    b.keep(i, text=code)
        return b.build(final=True)
    # One index line per commit, standing for its first input line; the code goes.
    first_row = {rs[0].key: rs[0].rows[0] for rs in commits.values()}
    for key, rs in commits.items():
        n = sum(r.last - r.first + 1 for r in rs)
        spans = ", ".join(f"{r.first}" if r.first == r.last else f"{r.first}-{r.last}" for r in rs)
        b.keep(first_row[key], protect=True, text=f"{key} · {n:,} line{'s' if n != 1 else ''}: {spans}")
    for r in runs:
        for i, code in zip(r.rows, r.code, strict=True):
            if i != first_row[r.key]:
                b.drop(i, "code lines; read the file for them" if code is not None else "porcelain headers")
    return b.build(final=True, essential=True)


def _default(lines: list[str]) -> tuple[list[Run], list[int]]:
    runs: list[Run] = []
    other: list[int] = []
    for i, line in enumerate(lines):
        m = HASH_RE.match(line)
        n = _lineno(line, m.end()) if m else None
        if m is None or n is None:
            other.append(i)
            continue
        meta = line[m.end() : n[0]]
        pre, paren, who = meta.partition("(")
        if not paren:
            pre, who = meta, ""
        who = who.strip()
        d = DATE_RE.search(who)
        if d:
            who = f"{who[: d.start()].strip()} {d.group(1)}".strip()
        # Before "(": the file name (and original line number with -n) git adds for
        # lines that came from another path.
        parts = pre.split()
        path = parts[0] if parts and not parts[0].isdigit() else ""
        key = " ".join(p for p in (m.group(1), who, f"({path})" if path else "") if p)
        lineno = int(n[1])
        code = line[n[2] :]
        _add(runs, key, lineno, i, code)
    return runs, other


def _porcelain(lines: list[str]) -> tuple[list[Run], list[int]]:
    info: dict[str, dict[str, str]] = {}
    runs: list[Run] = []
    other: list[int] = []
    current: tuple[str, int] | None = None
    pending: list[int] = []
    for i, line in enumerate(lines):
        m = PORCELAIN_RE.match(line)
        if m:
            current = (m.group(1), int(m.group(3)))
            info.setdefault(m.group(1), {})
            pending.append(i)
            continue
        if current is None:
            other.append(i)
            continue
        if line.startswith("\t") or not line:  # content ("\t" alone was stripped to "")
            sha, lineno = current
            meta = info[sha]
            key = _porcelain_key(sha, meta)
            for j in pending:
                _add(runs, key, lineno, j, None)
            pending = []
            _add(runs, key, lineno, i, line[1:])
            current = None
            continue
        field, _, value = line.partition(" ")
        info[current[0]].setdefault(field, value)
        pending.append(i)
    other.extend(pending)
    return runs, other


def _porcelain_key(sha: str, meta: dict[str, str]) -> str:
    date = ""
    t = meta.get("author-time", "")
    if t.isdigit():
        date = _dt.datetime.fromtimestamp(int(t), tz=_dt.UTC).strftime("%Y-%m-%d")
    boundary = "^" if "boundary" in meta else ""
    parts = [f"{boundary}{sha[:8]}", meta.get("author", ""), date]
    if meta.get("summary"):
        parts.append(f'"{meta["summary"]}"')
    return " ".join(p for p in parts if p)


def _add(runs: list[Run], key: str, lineno: int, i: int, code: str | None) -> None:
    last = runs[-1] if runs else None
    if last is not None and last.key == key and lineno in (last.last, last.last + 1):
        last.last = lineno
    else:
        last = Run(key, lineno)
        runs.append(last)
    last.rows.append(i)
    last.code.append(code)
