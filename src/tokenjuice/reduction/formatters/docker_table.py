"""docker ps / docker compose ps / docker images: long listings folded, problems kept.

Containers (`docker ps`, `docker compose ps`): every row that is not running cleanly
(exited non-zero, restarting, created, paused, dead, unhealthy, health starting) stays
as printed; when the listing is long, running rows and `Exited (0)` rows fold into one
line per state that still names every container (up to `maxNames`).

Images (`formatterOptions.mode = "images"`): when long, each repository keeps its
first `perRepo` rows and lists the rest of its tags on one line; dangling `<none>`
images become a count with their ids.

Short listings (up to `maxRows` rows) pass unchanged: they are already what the
agent asked for.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._devops_tables import Table, find_tables, name_list, realign

# Healthy states: running without a failing health check, or a clean exit.
_UP_RE = re.compile(r"^Up\b")
_BAD_UP_RE = re.compile(r"\((?:unhealthy|Paused|health: starting)\)")
_CLEAN_EXIT_RE = re.compile(r"^Exit(?:ed)? \(?0\)?(?:\s|$)")
_HEALTHY_RE = re.compile(r"\(healthy\)")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    if fi.options.get("mode") == "images":
        return _images(fi)
    return _containers(fi)


def _containers(fi: FormatInput) -> FormatOutput | None:
    lines = fi.lines
    tables = [t for t in find_tables(lines) if _status_col(t) is not None and _name_col(t) is not None]
    if not tables:
        return None
    max_rows = int(fi.options.get("maxRows", 25))
    max_names = int(fi.options.get("maxNames", 60))
    if sum(len(t.rows) for t in tables) <= max_rows:
        return None
    b = Builder(lines, fi.weights)
    in_table: dict[int, Table] = {}
    text: dict[int, str] = {}
    for t in tables:
        for r in t.rows:
            in_table[r] = t
        text.update(realign(t, lines, [r for r in t.rows if not _is_clean(t, lines[r])]))
    folded: dict[str, list[str]] = {}
    healthy = 0
    problems = 0
    flushed: set[int] = set()
    for i, line in enumerate(lines):
        row_t = in_table.get(i)
        if row_t is None:
            # Headers and anything around the tables (warnings) stay; fold lines go
            # after each table's last row.
            b.keep(i, protect=bool(line.strip()), text=text.get(i))
            continue
        status = row_t.cell(line, _status_col(row_t))  # type: ignore[arg-type]
        name = row_t.cell(line, _name_col(row_t))  # type: ignore[arg-type]
        if _UP_RE.match(status) and not _BAD_UP_RE.search(status):
            folded.setdefault("up", []).append(name)
            healthy += 1 if _HEALTHY_RE.search(status) else 0
            b.drop(i, "running containers")
        elif _CLEAN_EXIT_RE.match(status):
            folded.setdefault("exited (0)", []).append(name)
            b.drop(i, "cleanly exited containers")
        else:
            b.keep(i, protect=True, text=text.get(i))
            problems += 1
        if i == row_t.rows[-1] and id(row_t) not in flushed:
            flushed.add(id(row_t))
            _flush(b, folded, healthy, max_names)
            folded = {}
            healthy = 0
    b.facts["container"] = sum(len(t.rows) for t in tables)
    if problems:
        b.facts["problem container"] = problems
    return b.build(final=True)


def _flush(b: Builder, folded: dict[str, list[str]], healthy: int, max_names: int) -> None:
    for state, names in folded.items():
        extra = f", {healthy} healthy" if state == "up" and healthy else ""
        b.add(f"{state} ({len(names)}{extra}): {name_list(names, max_names)}")


def _is_clean(t: Table, line: str) -> bool:
    status = t.cell(line, _status_col(t))  # type: ignore[arg-type]
    return bool((_UP_RE.match(status) and not _BAD_UP_RE.search(status)) or _CLEAN_EXIT_RE.match(status))


def _status_col(t: Table) -> int | None:
    for name in ("STATUS", "State"):
        k = t.col(name)
        if k is not None:
            return k
    return None


def _name_col(t: Table) -> int | None:
    for name in ("NAMES", "NAME", "Name"):
        k = t.col(name)
        if k is not None:
            return k
    return None


def _images(fi: FormatInput) -> FormatOutput | None:
    lines = fi.lines
    tables = [t for t in find_tables(lines) if t.col("REPOSITORY") is not None and t.col("TAG") is not None]
    if len(tables) != 1:
        return None
    t = tables[0]
    max_rows = int(fi.options.get("maxRows", 25))
    if len(t.rows) <= max_rows:
        return None
    per_repo = int(fi.options.get("perRepo", 2))
    repo_k, tag_k = t.col("REPOSITORY"), t.col("TAG")
    id_k = t.col("IMAGE ID")
    groups: dict[str, list[int]] = {}
    for r in t.rows:
        groups.setdefault(t.cell(lines[r], repo_k), []).append(r)  # type: ignore[arg-type]
    kept = [r for repo, rows in groups.items() if repo != "<none>" for r in rows[:per_repo]]
    text = realign(t, lines, kept)
    b = Builder(lines, fi.weights)
    for i in range(t.header + 1):
        b.keep(i, text=text.get(i))
    for repo, rows in groups.items():
        if repo == "<none>":
            ids = [t.cell(lines[r], id_k) for r in rows] if id_k is not None else []
            for r in rows:
                b.drop(r, "dangling images")
            b.add(f"<none> ({len(rows)} dangling): {name_list(ids, 20)}")
            continue
        for r in rows[:per_repo]:
            b.keep(r, text=text[r])
        rest = rows[per_repo:]
        if rest:
            tags = [t.cell(lines[r], tag_k) for r in rest]  # type: ignore[arg-type]
            for r in rest:
                b.drop(r, "older tags")
            b.add(f"{repo}: {len(rest)} more tags: {name_list(tags, 30)}")
    for i in range(t.rows[-1] + 1, len(lines)):
        b.keep(i)
    b.facts["image"] = len(t.rows)
    b.facts["repository"] = sum(1 for repo in groups if repo != "<none>")
    return b.build(final=True)
