"""File listings (find, fd, git ls-files, rg --files, ls, ls -R, tree) grouped by directory.

A short listing passes unchanged. A longer one becomes one line per directory that
still names every entry (`src/app/ (3): main.py util.py views.py`), when that fits the
size target. A big one becomes per-directory counts with the leading extensions,
collapsed below the deepest level that fits:

    2,412 paths in 214 directories; extensions: .py 1,022 · .json 120 · (none) 38 …
    ./ (4): LICENSE README.md pyproject.toml setup.cfg
    src/pkg/ (38: .py 36 · .typed 1 · .txt 1)
    src/pkg/vendor/ (120 in 14 subdirectories: .py 110 · .pem 10)

A grouped `ls -l` listing also keeps, under the header, what only the long format
shows: its modes and owners (those held by three entries or fewer with the entries),
the five largest files and where links point:

    modes: -rw-r--r-- 50 · lrwxrwxrwx config.yaml current · -rw------- signing.key
    largest: index.parquet 179200 (175.0 KB) · snapshot.tar 46080 (45.0 KB) · …
    links: config.yaml -> /srv/shared/config.yaml · current -> releases/v2.4.1

Errors (`Permission denied`, `No such file or directory`, tree's `[error opening
dir]`) are kept verbatim and first. Inventory listings carry no must-keep lines, so
the names themselves may be summarised.

`formatterOptions.input`: `paths` (one path per line), `ls` (ls, ls -l, ls -R
sections) or `tree`.
"""

from __future__ import annotations

from itertools import compress, repeat

from tokenjuice import _re as re
from tokenjuice._humanize import plural, size
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.linematch import containing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SMALL_LINES = 40
SMALL_CHARS = 2500
TARGET_CHARS = 9000
TARGET_RATIO = 0.5
INLINE_NAMES = 6
WRAP_CHARS = 200
TOP_EXTENSIONS = 4
# `ls -l` summary lines: a value held by at most this many entries names them.
RARE_NAMES = 3
SHOWN_VALUES = 8
TOP_SIZES = 5
SHOWN_LINKS = 10

ERROR_RE = re.compile(
    r"^(?:find|fd|fdfind|ls|tree|git|rg|du|fatal|error)(?:\[\d+\])?: |Permission denied|No such file or directory|"
    r"\[error opening dir\]|Not a directory|Input/output error|Too many levels of symbolic links"
)
# Every ERROR_RE match holds one of these: only lines with one are searched.
_ERROR_LITERALS = (
    ": ",
    "Permission denied",
    "No such file or directory",
    "[error opening dir]",
    "Not a directory",
    "Input/output error",
    "Too many levels of symbolic links",
)
# Groups: type, owner, group, size, name (with ` -> target` for a link).
LS_LONG_RE = re.compile(
    r"^([-dlcbpsD?])[-rwxsStTlL?]{9}[.+@]?\s+\d+\s+(\S+)\s+(\S+)\s+(\S+(?:,\s*\d+)?)\s+"
    r"(?:\w{3}\s+\d{1,2}\s+(?:\d{4}|\d\d:\d\d)|\d{4}-\d\d-\d\d(?: \d\d:\d\d(?::\d\d(?:\.\d+)?)?(?: [+-]\d{4})?)?)"
    r" (.+)$"
)
# LS_LONG_RE's first two characters: a line without them needs no regex step.
_LS_TYPES = frozenset("-dlcbpsD?")
_LS_MODES = frozenset("-rwxsStTlL?")
LS_TOTAL_RE = re.compile(r"^total \d+(?:[.,]\d+)?[KMGTP]?$")
# tree indents with `│` + two no-break spaces + a space (UTF-8 locales), `|   `, or four
# blanks: four characters a level, the first of them `│`, `|` or a blank (one class, not
# an alternation: `re` repeats a fixed-width unit much faster than a branch).
TREE_RE = re.compile(r"^((?:[│|\u00a0 ][\u00a0 ]{3})*)(?:[├└]── |[|`]-- )(.*)$")
TREE_SUMMARY_RE = re.compile(r"^\d+ director(?:y|ies)(?:, \d+ files?)?$")


class Entry:
    """One listed path; `path` empty for a line that only stands for directory `owner`
    (ls's `total N`, `.` and `..`, tree's root line)."""

    __slots__ = ("idx", "is_dir", "owner", "path")

    def __init__(self, path: str, idx: int, is_dir: bool = False, owner: str = "") -> None:
        self.path = path
        self.idx = idx
        self.is_dir = is_dir
        self.owner = owner


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    weights = fi.weights
    b = Builder(lines, weights)
    total_chars = sum(map(len, lines)) + len(lines)
    n_lines = len(lines) - lines.count("")
    if n_lines <= fi.options.get("smallLines", SMALL_LINES) and total_chars <= fi.options.get(
        "smallChars", SMALL_CHARS
    ):
        for i in range(len(lines)):
            b.keep(i, protect=bool(ERROR_RE.search(lines[i])))
        return b.build(final=True)
    mode = fi.options.get("input", "paths")
    long: _Long | None = None
    errors: list[int] = []
    other: list[int] = []
    summary: list[int] = []
    if mode == "tree":
        entries = _parse_tree(lines, errors, other, summary)
    elif mode == "ls":
        long = _Long()
        entries = _parse_ls(lines, errors, other, long)
    else:
        entries = _parse_paths(lines, errors, other)
    if not entries:
        return None
    target = min(
        fi.options.get("targetChars", TARGET_CHARS),
        max(600, int(total_chars * fi.options.get("targetRatio", TARGET_RATIO))),
    )
    tree = _Tree(entries, weights)
    for i in summary:
        b.headline_from(i, lines[i])
    for i in errors:
        b.keep(i, protect=True)
    rendered = tree.render_complete(target)
    if rendered is None:
        rendered = tree.render_summary(target)
    b.add(tree.header(counts=not summary))
    if long is not None and long.modes:
        for text in long.lines():
            b.add(text)
    for text, w in rendered:
        b.add(text)
        b.weights[-1] = w
    for i in other:
        if lines[i].strip():
            b.keep(i)
        else:
            b.drop(i, "blank")
    return b.build(final=True)


# ------------------------------------------------------------------ parsers


def _error_lines(lines: list[str]) -> set[int]:
    cand = containing(_ERROR_LITERALS, lines)
    return {i for i in (range(len(lines)) if cand is None else cand) if ERROR_RE.search(lines[i])}


def _parse_paths(lines: list[str], errors: list[int], other: list[int]) -> list[Entry]:
    out = []
    err = _error_lines(lines)
    for i, line in enumerate(lines):
        if not line or line.isspace():
            other.append(i)
        elif i in err:
            errors.append(i)
        else:
            is_dir = line.endswith("/") and len(line) > 1
            out.append(Entry(line.rstrip("/") if is_dir else line, i, is_dir))
    return out


def _ls_long(line: str) -> re.Match[str] | None:
    if len(line) > 10 and line[0] in _LS_TYPES and line[1] in _LS_MODES:
        return LS_LONG_RE.match(line)
    return None


def _parse_ls(lines: list[str], errors: list[int], other: list[int], long: _Long | None = None) -> list[Entry]:
    out = []
    section = ""
    sections = sum(1 for ln in compress(lines, map(str.endswith, lines, repeat(":"))) if not _ls_long(ln))
    err = _error_lines(lines)
    for i, line in enumerate(lines):
        if not line or line.isspace():
            other.append(i)
            continue
        if i in err:
            errors.append(i)
            continue
        m = _ls_long(line)
        if sections and not m and line.endswith(":"):
            section = line[:-1]
            out.append(Entry(section, i, True))
            continue
        if line.startswith("total ") and LS_TOTAL_RE.match(line):
            out.append(Entry("", i, True, section))
            continue
        is_dir = False
        name = line
        kind, owner, group, size = "", "", "", ""
        if m:
            kind, owner, group, size, name = m.groups()
            is_dir = kind == "d"
        target = ""
        if kind == "l" and " -> " in name:
            name, target = name.split(" -> ", 1)
        if name in (".", ".."):
            out.append(Entry("", i, True, section))
            continue
        path = f"{section}/{name}" if section else name
        out.append(Entry(path, i, is_dir))
        if m and long is not None:
            long.add(path, line[:10], f"{owner}:{group}", size if kind == "-" else "", target)
    return out


class _Long:
    """What `ls -l` says of the entries besides their names, for a few summary lines:
    the modes and owners (the rare ones with the entries that have them), the largest
    files and where links point. Bounded: names are held for rare values only."""

    __slots__ = ("links", "modes", "n_links", "owners", "top")

    def __init__(self) -> None:
        self.modes: dict[str, list[Any]] = {}  # mode -> [count, first paths]
        self.owners: dict[str, list[Any]] = {}
        self.top: list[tuple[float, str, str]] = []  # the largest files: (bytes, size as shown, path)
        self.links: list[str] = []
        self.n_links = 0

    def add(self, path: str, mode: str, owner: str, size: str, target: str) -> None:
        for table, key in ((self.modes, mode), (self.owners, owner)):
            got = table.get(key)
            if got is None:
                table[key] = [1, [path]]
            else:
                got[0] += 1
                if got[0] <= RARE_NAMES:
                    got[1].append(path)
        if size:
            n = _bytes(size)
            top = self.top
            if n is not None and (len(top) < TOP_SIZES or n > top[-1][0]) and all(t[2] != path for t in top):
                top.append((n, size, path))
                top.sort(key=lambda t: -t[0])  # stable: the first listed wins a tie
                del top[TOP_SIZES:]
        if target:
            self.n_links += 1
            if len(self.links) < SHOWN_LINKS:
                self.links.append(f"{path} -> {target}")

    def lines(self) -> list[str]:
        out = [_counted("modes", self.modes), _counted("owners", self.owners)]
        if self.top:
            out.append("largest: " + " · ".join(f"{p} {_shown(n, s)}" for n, s, p in self.top))
        if self.links:
            more = f" · … {self.n_links - len(self.links):,} more" if self.n_links > len(self.links) else ""
            out.append("links: " + " · ".join(self.links) + more)
        return out


def _shown(n: float, printed: str) -> str:
    """A size as the tool printed it; bytes past 10 KB also in units, for reading."""
    return f"{printed} ({size(n)})" if printed.isdigit() and n >= 10 * 1024 else printed


def _counted(label: str, table: dict[str, list[Any]]) -> str:
    """`modes: -rw-r--r-- 250 · drwxr-xr-x 12 · -rw------- secret.key`: common values
    counted, rare ones with their entries."""
    ranked = sorted(table.items(), key=lambda kv: (-kv[1][0], kv[0]))
    if len(ranked) == 1:
        key, (n, _) = ranked[0]
        return f"{label}: {key} (all {n:,})"
    parts = [
        f"{key} {' '.join(names)}" if n <= RARE_NAMES else f"{key} {n:,}" for key, (n, names) in ranked[:SHOWN_VALUES]
    ]
    more = f" · … {len(ranked) - SHOWN_VALUES} more" if len(ranked) > SHOWN_VALUES else ""
    return f"{label}: " + " · ".join(parts) + more


_UNITS = {"K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4, "P": 1024**5}


def _bytes(size: str) -> float | None:
    """ls's size column (`12070`, or `-h`'s `4.0K`, `1,5M`) in bytes; None if not one."""
    if size.isdigit():
        return int(size)
    unit = _UNITS.get(size[-1:].upper())
    try:
        return float(size[:-1].replace(",", ".")) * unit if unit else None
    except ValueError:
        return None


def _parse_tree(lines: list[str], errors: list[int], other: list[int], summary: list[int]) -> list[Entry]:
    out: list[Entry] = []
    # parents[d]: the directory an entry at depth d + 1 is in (the root and the names
    # above it joined), so no line joins its whole path again.
    parents: list[str] = []
    root = ""
    err = _error_lines(lines)
    for i, line in enumerate(lines):
        if not line or line.isspace():
            other.append(i)
            continue
        if line[0].isdecimal() and TREE_SUMMARY_RE.match(line):
            summary.append(i)
            continue
        m = TREE_RE.match(line)
        if not m:
            if i in err:
                errors.append(i)
            elif not out or not parents:
                root = line.rstrip("/")  # the root line (`.` or the directory given)
                parents = []
                out.append(Entry("", i, True, root))
            else:
                other.append(i)
            continue
        depth = m.end(1) // 4
        name = m.group(2)
        error = "[" in name and ("[error opening dir]" in name or "[Permission denied]" in name)
        if error:
            errors.append(i)
            name = name.split("  [", 1)[0]
        if " -> " in name:
            name = name.split(" -> ", 1)[0]
        del parents[depth:]
        d = len(parents)
        parent = parents[-1] if d else root
        bare = name.rstrip("/")
        path = f"{parent}/{bare}" if parent else bare
        out.append(Entry(path, i, name.endswith("/") or error))
        parents.append(f"{parent}/{bare}" if root or d else bare)
    return out


# ----------------------------------------------------------------- the tree


class _Dir:
    __slots__ = ("dirs", "ext", "files", "path", "w")

    def __init__(self, path: str) -> None:
        self.path = path
        self.files: list[str] = []
        self.dirs: list[str] = []
        self.w = 0  # weight of the input lines this directory stands for (itself and its files)
        self.ext: dict[str, int] = {}  # extension -> number of its own files

    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1] + "/"


class _Tree:
    """Directories with their files; totals below each directory are worked out once
    (a listing of a big tree is summarised at several depths before one fits)."""

    def __init__(self, entries: list[Entry], weights: list[int]) -> None:
        # Where each path's parent ends (`_parent`, inlined: this runs once per entry).
        cuts = [e.path.rfind("/") for e in entries]
        parents = {
            e.path[:c] if c > 0 else ("/" if c == 0 else "") for e, c in zip(entries, cuts, strict=True) if e.path
        }
        self.dirs: dict[str, _Dir] = {}
        self.n_files = 0
        self.ext: dict[str, int] = {}
        ext = self.ext
        last_parent: str | None = None
        d = None
        for e, cut in zip(entries, cuts, strict=True):
            path = e.path
            if not path:
                self._dir(e.owner).w += weights[e.idx]
                continue
            if e.is_dir or path in parents:
                self._dir(path).w += weights[e.idx]
                continue
            parent = path[:cut] if cut > 0 else ("/" if cut == 0 else "")
            if d is None or parent != last_parent:
                d = self._dir(parent)
                last_parent = parent
            name = path[cut + 1 :]
            d.files.append(name)
            d.w += weights[e.idx]
            self.n_files += 1
            dot = name.rfind(".")
            x = name[dot:].lower() if dot > 0 else "(none)"
            ext[x] = ext.get(x, 0) + 1
            d.ext[x] = d.ext.get(x, 0) + 1
        self._order: list[_Dir] | None = None
        self._below: dict[str, tuple[int, int, int, dict[str, int]]] | None = None

    def _dir(self, path: str) -> _Dir:
        d = self.dirs.get(path)
        if d is None:
            d = self.dirs[path] = _Dir(path)
            if path and path != "/":  # "" tops a relative listing, "/" an absolute one
                self._dir(_parent(path)).dirs.append(path)
        return d

    def header(self, counts: bool = True) -> str:
        exts = sorted(self.ext.items(), key=lambda kv: (-kv[1], kv[0]))
        shown = " · ".join(f"{x} {n:,}" for x, n in exts[:8])
        more = f" · … {len(exts) - 8} more" if len(exts) > 8 else ""
        if not counts:
            return f"by extension: {shown}{more}"
        n_dirs = sum(1 for d in self.dirs.values() if d.files or d.dirs or d.w)
        return (
            f"{self.n_files:,} files in {n_dirs:,} director{'y' if n_dirs == 1 else 'ies'}; by extension: {shown}{more}"
        )

    def _leaf(self, d: _Dir) -> bool:
        """A directory listed only as an entry of its parent (nothing known inside)."""
        return not d.files and not d.dirs and bool(d.path)

    def _ordered(self) -> list[_Dir]:
        if self._order is None:
            keys = sorted(self.dirs, key=lambda p: p.split("/"))
            self._order = [self.dirs[k] for k in keys if not self._leaf(self.dirs[k])]
        return self._order

    def render_complete(self, target: int) -> list[tuple[str, int]] | None:
        """Every name, one line per directory (wrapped); None when that exceeds `target`."""
        out: list[tuple[str, int]] = []
        used = 0
        for d in self._ordered():
            leaves = [self.dirs[p] for p in d.dirs if self._leaf(self.dirs[p])]
            names = d.files + [leaf.name() for leaf in leaves]
            w = d.w + sum(leaf.w for leaf in leaves)
            if not names:
                if not d.w:
                    continue
                text = f"{_label(d.path)} ({plural(len(d.dirs), 'subdirectory', 'subdirectories')})"
                out.append((text, w))
                used += len(text) + 1
                continue
            head = f"{_label(d.path)} ({len(names)}): "
            for k, chunk in enumerate(_wrap(names, WRAP_CHARS - len(head))):
                text = (head if k == 0 else "    ") + chunk
                used += len(text) + 1
                out.append((text, w if k == 0 else 0))
            if used > target:
                return None
        return out

    def render_summary(self, target: int) -> list[tuple[str, int]]:
        depths = sorted({_depth(p) for p in self.dirs})
        best: list[tuple[str, int]] | None = None
        for depth in depths:
            lines = self._summary_at(depth)
            if best is not None and sum(len(t) + 1 for t, _ in lines) > target:
                break
            best = lines
        return best or []

    def _summary_at(self, max_depth: int) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        for d in self._ordered():
            depth = _depth(d.path)
            if depth > max_depth:
                continue
            if depth < max_depth or not d.dirs:
                leaves = [self.dirs[p] for p in d.dirs if self._leaf(self.dirs[p])]
                w = d.w + sum(leaf.w for leaf in leaves)
                if not d.files and not (d.w or any(leaf.w for leaf in leaves)):
                    continue
                if not d.files:
                    out.append((f"{_label(d.path)} ({plural(len(d.dirs), 'subdirectory', 'subdirectories')})", w))
                    continue
                text = f"{_label(d.path)} ({_files_text(d.files, d.ext)}"
                if leaves:  # directories listed as entries are entries too
                    names = [leaf.name() for leaf in leaves]
                    shown = " ".join(names) if len(names) <= INLINE_NAMES else f"{len(names):,}"
                    text += f" + {plural(len(names), 'subdirectory', 'subdirectories')}"
                    text += f": {shown}" if len(names) <= INLINE_NAMES else ""
                out.append((text, w))
                continue
            n_files, w, n_sub, ext = self.below(d)
            text = f"{_label(d.path)} ({n_files:,} in {n_sub} subdirector{'y' if n_sub == 1 else 'ies'}"
            text += f": {_ext_text(ext)})" if n_files else ")"
            out.append((text, w))
        return out

    def below(self, d: _Dir) -> tuple[int, int, int, dict[str, int]]:
        """Files, weight, subdirectories and extensions of d and everything under it."""
        if self._below is None:
            totals: dict[str, tuple[int, int, int, dict[str, int]]] = {}
            # Deepest first: a directory's children are done before it.
            for path in sorted(self.dirs, key=lambda p: -_level(p)):
                cur = self.dirs[path]
                n_files, w, n_sub, ext = len(cur.files), cur.w, 0, dict(cur.ext)
                for child in cur.dirs:
                    cf, cw, cs, cx = totals[child]
                    n_files += cf
                    w += cw
                    n_sub += 1 + cs
                    for x, n in cx.items():
                        ext[x] = ext.get(x, 0) + n
                totals[path] = (n_files, w, n_sub, ext)
            self._below = totals
        return self._below[d.path]


def _wrap(names: list[str], width: int) -> list[str]:
    chunks: list[str] = []
    cur: list[str] = []
    used = 0
    for n in names:
        if cur and used + len(n) + 1 > width:
            chunks.append(" ".join(cur))
            cur, used = [], 0
            width = WRAP_CHARS - 4
        cur.append(n)
        used += len(n) + 1
    if cur:
        chunks.append(" ".join(cur))
    return chunks


def _parent(path: str) -> str:
    cut = path.rfind("/")
    return path[:cut] if cut > 0 else ("/" if cut == 0 else "")


def _level(path: str) -> int:
    """How many directories `path` is below the top of its listing ("" or "/")."""
    if path in ("", "/"):
        return 0
    return path.count("/") + (0 if path.startswith("/") else 1)


def _depth(path: str) -> int:
    if not path or path == "/":
        return 0
    p = path[2:] if path.startswith("./") else path
    return 0 if p in (".", "") else p.count("/") + 1


def _label(path: str) -> str:
    return (path or ".") + "/" if not path.endswith("/") else path


def _ext_text(counts: dict[str, int]) -> str:
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    text = " · ".join(f"{x} {n:,}" for x, n in top[:TOP_EXTENSIONS])
    return text + (" · …" if len(top) > TOP_EXTENSIONS else "")


def _files_text(files: list[str], ext: dict[str, int]) -> str:
    if len(files) <= INLINE_NAMES:
        return f"{len(files)}): " + " ".join(files)
    return f"{len(files):,}: {_ext_text(ext)})"
