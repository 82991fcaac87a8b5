"""gh api (and gh … --json): the GitHub REST payload without its hypermedia.

GitHub's REST objects carry a dozen `*_url` templates per user and per repository,
GraphQL `node_id`s, avatar/gravatar ids and `_links` blocks; an agent reading the
response wants the data. With the rule's `prettyPrintJson` transform the input is
`json.dumps(indent=2)` text, so each value's lines are known and this formatter:

- drops `url`/`*_url` fields that point at api.github.com (and `avatar_url`,
  `gravatar_id`, `node_id`, `_links`), and fields whose value is null;
- writes a small object on one line: `"user": {"login": "mona", "id": 7001, …}`;
- replaces an object identical to one already shown (the same repository under every
  pull request's head and base) with `(same as [0].head.repo)`;
- drops trailing commas (the text stays readable; it is no longer strict JSON).

`html_url` and every other value stays. Output that is not one JSON document (an
error line from gh, `--paginate` pages, `--jq` results) is pruned line by line.
"""

from __future__ import annotations

import json
from typing import Any

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

API_PREFIX = "https://api.github.com/"
DROP_KEYS = frozenset({"node_id", "gravatar_id", "avatar_url", "_links", "user_view_type"})
INLINE_MAX_FIELDS = 8
INLINE_MAX_CHARS = 160
DEDUPE_MIN_LINES = 8
MEMBER_RE = re.compile(r'^\s*"([^"]+)": ')
LINE_DROP_RE = re.compile(
    r'^\s*"(?:\w+_url|url)": "https://api\.github\.com/|^\s*"(?:node_id|gravatar_id|avatar_url)": |^\s*"\w+": null,?$'
)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not lines:
        return None
    b = Builder(lines, fi.weights)
    text = "\n".join(lines)
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, (dict, list)) and json.dumps(value, indent=2, ensure_ascii=False).count("\n") + 1 == len(
        lines
    ):
        w = _Walker(b, lines, value)
        w.node(value, None, 0, "")
        return b.build(final=True)
    # Not a single pretty-printed document: prune field lines one by one.
    hits = 0
    for i, line in enumerate(lines):
        if LINE_DROP_RE.match(line):
            b.drop(i, "API links and nulls")
            hits += 1
        else:
            b.keep(i, protect=line.startswith("gh: "))
    return b.build(final=False) if hits else None


def _droppable(key: str | None, value: Any) -> str | None:
    if key is None:
        return None
    if key in DROP_KEYS:
        return "API links and ids"
    if (key == "url" or key.endswith("_url")) and isinstance(value, str) and value.startswith(API_PREFIX):
        return "API links and ids"
    if value is None:
        return "null fields"
    if key == "site_admin" and value is False:
        return "API links and ids"
    return None


def _derived(value: dict[str, Any]) -> set[str]:
    """Keys whose value is the object's html_url plus a suffix (diff_url, patch_url)."""
    html = value.get("html_url")
    if not isinstance(html, str):
        return set()
    return {
        k
        for k, v in value.items()
        if k != "html_url" and k.endswith("_url") and isinstance(v, str) and v.startswith(html) and v != html
    }


def _kept_items(value: dict[str, Any]) -> list[tuple[str, Any]]:
    derived = _derived(value)
    return [(k, v) for k, v in value.items() if k not in derived and _droppable(k, v) is None]


class _Walker:
    """Walks the value in json.dumps(indent=2) line order, deciding each line's fate.

    A first pass records, per container, its line count as printed, its line count
    once pruned and a digest of its pruned content (bottom-up, so the whole document
    is visited a constant number of times whatever its depth).
    """

    def __init__(self, b: Builder, lines: list[str], value: Any) -> None:
        self.b = b
        self.lines = lines
        self.pos = 0  # next input line
        self.seen: dict[int, str] = {}
        self.info: dict[int, tuple[int, int, int]] = {}
        self._analyze(value)

    def _analyze(self, value: Any) -> tuple[int, int, int]:
        """(lines as printed, lines once pruned, digest of the pruned value)."""
        if isinstance(value, dict):
            kept = {k for k, _ in _kept_items(value)}
            raw, pruned, parts = 2, 2, []
            for k, v in value.items():
                r, p, d = self._analyze(v)
                raw += r
                if k in kept:
                    pruned += p
                    parts.append((k, d))
            res = (raw if value else 1, pruned if parts else 1, hash(("d", tuple(parts))))
        elif isinstance(value, list):
            raw, digests = 2, []
            pruned = 2
            for v in value:
                r, p, d = self._analyze(v)
                raw += r
                pruned += p
                digests.append(d)
            res = (raw if value else 1, pruned if value else 1, hash(("l", tuple(digests))))
        else:
            return 1, 1, hash((type(value).__name__, value))
        self.info[id(value)] = res
        return res

    def size(self, value: Any) -> int:
        return self.info[id(value)][0] if isinstance(value, (dict, list)) else 1

    def skip(self, value: Any, reason: str) -> None:
        n = self.size(value)
        for i in range(self.pos, self.pos + n):
            self.b.drop(i, reason)
        self.pos += n

    def node(self, value: Any, key: str | None, depth: int, path: str) -> None:
        b = self.b
        reason = _droppable(key, value)
        if reason:
            self.skip(value, reason)
            return
        if not isinstance(value, (dict, list)) or not value:
            b.keep(self.pos, protect=True, text=self.lines[self.pos].rstrip(","))
            self.pos += 1
            return
        pad = "  " * depth
        label = f"{json.dumps(key, ensure_ascii=False)}: " if key is not None else ""
        n, pruned_size, digest = self.info[id(value)]
        if isinstance(value, dict) and pruned_size >= DEDUPE_MIN_LINES:
            if digest in self.seen:
                b.keep(self.pos, protect=True, text=f"{pad}{label}(same as {self.seen[digest]})")
                for i in range(self.pos + 1, self.pos + n):
                    b.merge_into_last(i)
                self.pos += n
                return
            self.seen[digest] = path or "the top"
        if isinstance(value, dict) and pruned_size <= INLINE_MAX_FIELDS + 2:
            kept = dict(_kept_items(value))
            if _inline(kept):
                b.keep(self.pos, protect=True, text=f"{pad}{label}{json.dumps(kept, ensure_ascii=False)}")
                for i in range(self.pos + 1, self.pos + n):
                    if _dropped_inside(value, kept, self.lines[i]):
                        b.drop(i, "API links and ids")
                    else:
                        b.merge_into_last(i)
                self.pos += n
                return
        b.keep(self.pos, protect=True, text=self.lines[self.pos].rstrip(","))  # the opening line
        self.pos += 1
        if isinstance(value, dict):
            derived = _derived(value)
            for ck, cv in value.items():
                if ck in derived:
                    self.skip(cv, "links derived from html_url")
                else:
                    self.node(cv, ck, depth + 1, f"{path}.{ck}")
        else:
            for k, cv in enumerate(value):
                self.node(cv, None, depth + 1, f"{path}[{k}]")
        b.keep(self.pos, protect=True, text=self.lines[self.pos].rstrip(","))  # the closing line
        self.pos += 1


def _inline(value: dict[str, Any]) -> bool:
    if not value or len(value) > INLINE_MAX_FIELDS:
        return False
    if any(isinstance(v, (dict, list)) and v for v in value.values()):
        return False
    return len(json.dumps(value, ensure_ascii=False)) <= INLINE_MAX_CHARS


def _dropped_inside(value: dict[str, Any], kept: dict[str, Any], line: str) -> bool:
    """Whether this member line of an inlined object was a pruned field."""
    m = MEMBER_RE.match(line)
    return m is not None and m.group(1) in value and m.group(1) not in kept
