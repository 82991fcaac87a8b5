"""grep and rg results grouped by file: every file path, its match count, `line: text`.

    src/core/command-match.ts (3):
      267: export function unwrapShellRunner(input: Pick<ToolExecutionInput, …
      286: export function stripLeadingEnvAssignments(argv: string[]): string[] {
    src/core/env.ts:4: export function readNoOmissionFromEnv(env: NodeJS.ProcessEnv …

A file with one match keeps grep's own `path:line: text` form. Matched text is trimmed
to TEXT_CHARS around the first occurrence of the pattern's longest literal part
(found with `str.find`, never by running the user's regex). When the result is
large, each file keeps its first matches and lists the line numbers of the others,
so every `file:line` location stays; context lines (-A/-B/-C) go first.

`-c` counts drop the files with 0 matches; `-l`/`--files-with-matches` lists and short
results pass unchanged. Error lines (`grep: x: No such file or directory`, rg's regex
parse errors, binary file notices) always stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

# path:line:text (match) or path-line-text (context); the path has no whitespace.
PATH_LINE_RE = re.compile(r"^([^\s:][^:\t]*+):(\d+):(.*)$")
PATH_TEXT_RE = re.compile(r"^([^\s:][^:\t]*):(.*)$")
CONTEXT_NUM_RE = re.compile(r"(\d+)-")
COUNT_RE = re.compile(r"^(.+):(\d+)$")
ERROR_RE = re.compile(
    r"^(?:grep|rg|egrep|fgrep|ugrep|ag): |^Binary file .* matches$|^error: |^regex parse error|"
    r"(?:No such file or directory|Permission denied|binary file matches)"
)
SMALL_LINES = 25
SMALL_CHARS = 3000
TEXT_CHARS = 160
TEXT_LIMITS = (160, 100, 72)
# The grouped text aims at this share of the output, within [MIN_CHARS, TARGET_CHARS].
TARGET_RATIO = 0.6
MIN_CHARS = 4000
TARGET_CHARS = 10000
# Line numbers of matches not shown are listed in full while there are at most
# MAX_NUMBERS of them in all; beyond that each file lists its first LINE_NUMBERS_LISTED.
LINE_NUMBERS_LISTED = 15
MAX_NUMBERS = 1500
_META = re.compile(r"\\[A-Za-z]|[.*+?()\[\]{}|^$\\]")

_GREP_VALUE_OPTS = frozenset(
    {
        "-e",
        "-f",
        "-m",
        "-A",
        "-B",
        "-C",
        "-d",
        "-D",
        "--regexp",
        "--file",
        "--max-count",
        "--context",
        "--after-context",
        "--before-context",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--label",
        "--color",
        "--colour",
        "--binary-files",
        "--devices",
        "--directories",
        "--exclude-from",
        "--group-separator",
    }
)
_RG_VALUE_OPTS = frozenset(
    {
        "-e",
        "-f",
        "-g",
        "-t",
        "-T",
        "-m",
        "-A",
        "-B",
        "-C",
        "-M",
        "-r",
        "-j",
        "-E",
        "--regexp",
        "--file",
        "--glob",
        "--iglob",
        "--type",
        "--type-not",
        "--max-count",
        "--context",
        "--after-context",
        "--before-context",
        "--max-columns",
        "--replace",
        "--threads",
        "--encoding",
        "--sort",
        "--sortr",
        "--type-add",
        "--colors",
        "--color",
        "--max-depth",
        "--max-filesize",
        "--path-separator",
        "--pre",
        "--pre-glob",
        "--engine",
        "--context-separator",
        "--field-match-separator",
        "--field-context-separator",
        "--ignore-file",
        "-d",
    }
)


class _Hit:
    __slots__ = ("idx", "line", "match", "size", "text")

    def __init__(self, idx: int, line: int, match: bool, text: str) -> None:
        self.idx = idx
        self.line = line
        self.match = match
        self.text = text
        self.size = len(text.strip()) + 9  # rendered cost before trimming


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    argv = fi.cmd.argv
    b = Builder(lines, fi.weights)
    n = sum(1 for ln in lines if ln)
    chars = sum(len(ln) + 1 for ln in lines)
    counting = _has_flag(argv, "c", ("--count", "--count-matches"))
    if counting:
        return _counts(fi, b)
    small = n <= SMALL_LINES and chars <= SMALL_CHARS and all(len(ln) <= TEXT_CHARS * 2 for ln in lines)
    prog = fi.cmd.program.lower()
    listing = _has_flag(
        argv, "l" if prog == "rg" else "lL", ("--files-with-matches", "--files-without-match", "--files")
    )
    if small or listing:
        for i, line in enumerate(lines):
            b.keep(i, protect=bool(ERROR_RE.search(line)) or listing)
        return b.build(final=True, essential=listing)
    needle, fold = _needle(argv)
    groups, other = _parse(lines)
    if groups is None:
        # One file (no path prefix): lines are trimmed around the match, then windowed.
        for i, line in enumerate(lines):
            if ERROR_RE.search(line):
                b.keep(i, protect=True)
            else:
                b.keep(i, text=_trim(line, needle, fold))
        return b.build(final=False)
    for i in other:
        if lines[i].strip() and lines[i] != "--":
            b.keep(i, protect=True)
        else:
            b.drop(i, "separators")
    target = min(
        fi.options.get("targetChars", TARGET_CHARS),
        max(fi.options.get("minChars", MIN_CHARS), int(chars * fi.options.get("targetRatio", TARGET_RATIO))),
    )
    n_matches = sum(1 for hits in groups.values() for h in hits if h.match)
    b.facts["match"] = n_matches
    b.facts["file"] = len(groups)
    # Every match with its text while it fits (shorter text first), then the first
    # matches of each file with the line numbers of the others; context lines only
    # when everything fits.
    best = max(len(hits) for hits in groups.values())
    with_context = _size(groups, best, True, TEXT_CHARS) <= target
    per_file, limit = best, TEXT_CHARS
    for limit in TEXT_LIMITS:
        if _size(groups, best, with_context, limit) <= target:
            break
    else:
        limit = TEXT_LIMITS[-1]
        while per_file > 0 and _size(groups, per_file, with_context, limit) > target:
            per_file = per_file // 2 if per_file > 8 else per_file - 1
    hidden = sum(max(0, sum(1 for h in hits if h.match) - per_file) for hits in groups.values())
    cap = LINE_NUMBERS_LISTED if hidden > MAX_NUMBERS else hidden
    for path, hits in groups.items():
        _render_file(b, path, hits, per_file, with_context, needle, fold, limit, cap)
    return b.build(final=True)


# ------------------------------------------------------------------- parsing


def _has_flag(argv: tuple[str, ...], short: str, long: tuple[str, ...]) -> bool:
    for a in argv[1:]:
        if a == "--":
            break
        if a.startswith("--"):
            if a.split("=", 1)[0] in long:
                return True
        elif a.startswith("-") and len(a) > 1 and a[1:].isalpha() and any(c in a[1:] for c in short):
            return True
    return False


def _parse(lines: list[str]) -> tuple[dict[str, list[_Hit]] | None, list[int]]:
    """Hits grouped by file (None when lines carry no path), and the other lines."""
    numbered = [_path_line(ln) for ln in lines]
    with_line = sum(1 for h in numbered if h is not None)
    body = sum(1 for ln in lines if ln and ln != "--")
    if not body:
        return None, []
    use_numbers = with_line * 2 >= body
    parsed = numbered
    if not use_numbers:
        parsed = [_path_text(ln) for ln in lines]
        if sum(1 for h in parsed if h is not None) * 2 < body:
            return None, []
    groups: dict[str, list[_Hit]] = {}
    other: list[int] = []
    last_path = ""
    for i, line in enumerate(lines):
        hit = parsed[i]
        if (hit is None or not use_numbers) and numbered[i] is None and ERROR_RE.search(line):
            other.append(i)
            continue
        if hit is not None:
            path, num, text = hit
            groups.setdefault(path, []).append(_Hit(i, num, True, text))
            last_path = path
            continue
        ctx = _context(line, last_path, use_numbers)
        if ctx is not None:
            num, text = ctx
            groups[last_path].append(_Hit(i, num, False, text))
            continue
        other.append(i)
    return groups, other


def _path_line(line: str) -> tuple[str, int, str] | None:
    m = PATH_LINE_RE.match(line)
    if m is None or not _plausible_path(m.group(1)):
        return None
    return m.group(1), int(m.group(2)), m.group(3)


def _path_text(line: str) -> tuple[str, int, str] | None:
    m = PATH_TEXT_RE.match(line)
    if m is None or not _plausible_path(m.group(1)):
        return None
    return m.group(1), 0, m.group(2)


def _plausible_path(p: str) -> bool:
    return (" " not in p or "/" in p) and ("/" in p or "." in p) and len(p) < 400


def _context(line: str, path: str, numbered: bool) -> tuple[int, str] | None:
    if not path or not line.startswith(path + "-"):
        return None
    rest = line[len(path) + 1 :]
    if numbered:
        m = CONTEXT_NUM_RE.match(rest)
        if m is None:
            return None
        return int(m.group(1)), rest[m.end() :]
    return 0, rest


# ------------------------------------------------------------------ rendering


def _needle(argv: tuple[str, ...]) -> tuple[str, bool]:
    """The longest literal part of the search pattern, and whether case is ignored."""
    prog = argv[0].rsplit("/", 1)[-1] if argv else ""
    value_opts = _RG_VALUE_OPTS if prog == "rg" else _GREP_VALUE_OPTS
    pattern = ""
    fold = False
    fixed = False
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("-e", "--regexp") and i + 1 < len(argv):
            pattern = pattern or argv[i + 1]
            i += 2
            continue
        if a.startswith("--regexp="):
            pattern = pattern or a.split("=", 1)[1]
        elif a in ("-i", "--ignore-case") or (a.startswith("-") and not a.startswith("--") and "i" in a[1:]):
            fold = True
        if a in ("-F", "--fixed-strings") or (a.startswith("-") and not a.startswith("--") and "F" in a[1:]):
            fixed = True
        if a in value_opts:
            i += 2
            continue
        if not a.startswith("-") and not pattern:
            pattern = a
            i += 1
            break
        i += 1
    if fixed:
        return pattern, fold
    pieces = [p for p in _META.split(pattern) if p]
    return (max(pieces, key=len) if pieces else ""), fold


def _trim(text: str, needle: str, fold: bool, limit: int = TEXT_CHARS) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    pos = -1
    if needle:
        pos = text.lower().find(needle.lower()) if fold else text.find(needle)
    if pos < limit * 2 // 3:
        return text[:limit].rstrip() + " …"
    start = max(0, pos - limit // 3)
    end = start + limit
    return "… " + text[start:end].strip() + (" …" if end < len(text) else "")


def _size(groups: dict[str, list[_Hit]], per_file: int, context: bool, limit: int) -> int:
    """Estimated size of the rendering (text lengths are pre-computed per hit)."""
    total = 0
    cost = limit + 13
    for path, hits in groups.items():
        shown = hits if context else [h for h in hits if h.match]
        total += len(path) + 8
        if len(shown) == 1:
            total += min(shown[0].size, cost)
            continue
        for h in shown if context else shown[:per_file]:
            total += min(h.size, cost)
        if not context and len(shown) > per_file:
            total += (0 if per_file == 0 else 24) + 6 * min(len(shown) - per_file, LINE_NUMBERS_LISTED)
    return total


def _render_file(
    b: Builder,
    path: str,
    hits: list[_Hit],
    per_file: int,
    context: bool,
    needle: str,
    fold: bool,
    limit: int,
    cap: int,
) -> None:
    matches = [h for h in hits if h.match]
    if len(matches) == 1 and (not context or len(hits) == 1):
        h = matches[0]
        loc = f"{path}:{h.line}" if h.line else path
        b.keep(h.idx, protect=True, text=f"{loc}: {_trim(h.text, needle, fold, limit)}")
        for c in hits:
            if c is not h:
                b.drop(c.idx, "context lines")
        return
    if per_file == 0 and not context:
        # Only the locations: `path (N): 12, 45, 78, …`.
        nums = [str(h.line) for h in matches if h.line]
        listed = ", ".join(nums[:cap]) + (", …" if len(nums) > cap else "")
        b.add(f"{path} ({len(matches)}){': ' + listed if listed else ''}", protect=True)
        b.weights[-1] = sum(b.src_weights[h.idx] for h in hits)
        return
    b.add(f"{path} ({len(matches)}):", protect=True)
    shown = hits if context else matches[:per_file]
    shown_ids = {id(h) for h in shown}
    for h in shown:
        sep = ":" if h.match else "-"
        prefix = f"  {h.line}{sep} " if h.line else "  "
        b.keep(h.idx, text=prefix + _trim(h.text, needle, fold, limit))
    rest = [h for h in matches if id(h) not in shown_ids]
    for h in hits:
        if not h.match and id(h) not in shown_ids:
            b.drop(h.idx, "context lines")
    if rest:
        nums = [str(h.line) for h in rest if h.line]
        listed = ", ".join(nums[:cap]) + (", …" if len(nums) > cap else "")
        where = f" at lines {listed}" if nums else ""
        b.add(f"  … {len(rest)} more{where}")
        b.weights[-1] = sum(b.src_weights[h.idx] for h in rest)


def _counts(fi: FormatInput, b: Builder) -> FormatOutput:
    lines = fi.lines
    zero: list[int] = []
    for i, line in enumerate(lines):
        m = COUNT_RE.match(line)
        if m and m.group(2) == "0" and not ERROR_RE.search(line):
            zero.append(i)
    all_zero = len(zero) == sum(1 for ln in lines if COUNT_RE.match(ln))
    zero_set = set() if all_zero else set(zero)
    for i in range(len(lines)):
        if i in zero_set:
            b.drop(i, "files with 0 matches")
        else:
            b.keep(i, protect=True)
    if zero_set:
        b.add(f"… {len(zero_set):,} files with 0 matches not listed")
    return b.build(final=True, essential=True)
