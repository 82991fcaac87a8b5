"""Load rules from the three layers: built-in, user, project.

* built-in: `tokenjuice/rules/builtin/**/*.json` inside the package;
* user: `$XDG_CONFIG_HOME/tokenjuice/rules` (default `~/.config/tokenjuice/rules`);
* project: `.tokenjuice/rules` in the nearest directory at or above the cwd that has
  one (the search stops at the repository root or the home directory).

A rule in a higher layer replaces the rule with the same id below it, and every rule
below it that lists that id in its `aliases`. A file may hold
one rule object or an array of rules. A malformed file or rule is skipped with a
warning that names the file, the rule id and the field; it never stops the others.

Parsing and validating every file on every tool call would cost more than the
reduction itself, so the validated rules are cached (marshal, in the XDG cache dir),
one file per set of layer directories, holding every rule file's path, size and mtime:
any edit makes it stale.
"""

from __future__ import annotations

import os

from tokenjuice import _log
from tokenjuice.rules.rule import FALLBACK_ID, LAYER_RANK, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

    # A parsed rule: (layer, path, data, marshalled data). From the cache `data` is only
    # the rule's head and the rest waits in the blob; freshly parsed there is no blob.
    Parsed = tuple[str, str, dict[str, Any], bytes | None]

BUILTIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "builtin")
_NOT_RULES = (".fixture.json", ".schema.json", ".expected.json")
CACHE_FORMAT = 4
_CACHE_KEEP = 16


def user_rules_dir() -> str:
    from tokenjuice.paths import config_dir

    return os.path.join(config_dir(), "rules")


def find_project_rules_dir(cwd: str | os.PathLike[str] | None) -> str | None:
    """The nearest `.tokenjuice/rules` at or above `cwd` (not above the repo root or home)."""
    if cwd is None:
        return None
    try:
        here = os.path.realpath(os.fspath(cwd))
    except (OSError, ValueError):
        return None
    home = os.path.realpath(os.path.expanduser("~"))
    d = here
    while True:
        candidate = os.path.join(d, ".tokenjuice", "rules")
        if os.path.isdir(candidate):
            return candidate
        if d == home or os.path.exists(os.path.join(d, ".git")):
            return None
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def project_root(rules_dir: str) -> str:
    return os.path.dirname(os.path.dirname(rules_dir))


class Problem:
    """Something wrong with a rule file; loading carries on without it."""

    __slots__ = ("field", "message", "path", "rule_id")

    def __init__(self, path: str, message: str, rule_id: str | None = None, field: str | None = None) -> None:
        self.path = path
        self.rule_id = rule_id
        self.field = field
        self.message = message

    def __str__(self) -> str:
        parts = [self.path]
        if self.rule_id:
            parts.append(f"rule {self.rule_id!r}")
        return ": ".join([*parts, self.message])


class RuleSet:
    """The merged rules of all layers, ready for selection."""

    def __init__(self) -> None:
        self.rules: list[Rule] = []
        self.by_id: dict[str, Rule] = {}
        self.problems: list[Problem] = []
        self.layer_dirs: dict[str, str | None] = {}
        self.layer_counts: dict[str, int] = {}
        self.overrides: list[tuple[str, str, str]] = []  # (id, replaced layer, by layer)
        self.skipped_layers: dict[str, str] = {}  # layer → why it was not loaded
        self.from_cache = False
        self._by_program: dict[str, list[Rule]] | None = None
        self._generic: list[Rule] = []
        self._aliased: dict[str, list[Rule]] = {}  # alias → rules that answer to it

    @property
    def fallback(self) -> Rule:
        rule = self.by_id.get(FALLBACK_ID)
        if rule is None:
            rule = Rule({"id": FALLBACK_ID, "family": "generic", "match": {}}, "builtin", "<default>")
            self.by_id[FALLBACK_ID] = rule
        return rule

    def add(self, rule: Rule) -> None:
        self._replace_aliased(rule)
        old = self.by_id.get(rule.id)
        if old is not None:
            if LAYER_RANK[rule.layer] > LAYER_RANK[old.layer]:
                self.overrides.append((rule.id, old.layer, rule.layer))
                self.rules.remove(old)
            else:
                self.problems.append(
                    Problem(rule.path, f"duplicate id (already defined in {old.path}); ignored", rule.id, "id")
                )
                return
        self.by_id[rule.id] = rule
        self.rules.append(rule)
        self._by_program = None

    def _replace_aliased(self, rule: Rule) -> None:
        """Drop lower-layer rules that name `rule.id` among their aliases: one built-in
        tool split into several rules is replaced whole by an override of its one id."""
        for a in rule.aliases:
            self._aliased.setdefault(a, []).append(rule)
        rank = LAYER_RANK[rule.layer]
        for old in self._aliased.get(rule.id, ()):
            if LAYER_RANK[old.layer] < rank and self.by_id.get(old.id) is old:
                self.overrides.append((old.id, old.layer, rule.layer))
                self.rules.remove(old)
                del self.by_id[old.id]
                self._by_program = None

    def candidates(self, program_names: Iterable[str]) -> list[Rule]:
        """Rules that could match a command with one of these program names.

        Rules that name programs (`argv0`, `gitSubcommands`) are indexed by them so a
        reduction only looks at a handful of rules; rules that do not are always
        candidates.
        """
        if self._by_program is None:
            by: dict[str, list[Rule]] = {}
            generic: list[Rule] = []
            for rule in self.rules:
                if rule.is_fallback:
                    continue
                m = rule.match  # not the parsed criteria: those are worked out for candidates only
                names = set(m.get("argv0") or ())
                if m.get("gitSubcommands"):
                    names.add("git")
                if names:
                    for name in names:
                        by.setdefault(name.lower(), []).append(rule)
                else:
                    generic.append(rule)
            self._by_program = by
            self._generic = generic
        out: list[Rule] = []
        seen: set[str] = set()
        for name in program_names:
            for rule in self._by_program.get(name.lower(), ()):
                if rule.id not in seen:
                    seen.add(rule.id)
                    out.append(rule)
        out.extend(self._generic)
        return out


def rule_files(directory: str) -> list[str]:
    """Rule files under `directory`, in a stable order."""
    return [e.path for e in _rule_entries(directory)]


def _rule_entries(directory: str) -> Iterator[os.DirEntry[str]]:
    """The rule files of a directory, then those of its subdirectories, by name (as
    `os.walk`: hidden and `_` entries skipped, linked directories not entered)."""
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return
    subdirs = []
    for e in entries:
        name = e.name
        if name.startswith((".", "_")):
            continue
        try:
            if e.is_dir():
                if not e.is_symlink():
                    subdirs.append(e.path)
            elif name.endswith(".json") and not name.endswith(_NOT_RULES):
                yield e
        except OSError:
            continue
    for sub in subdirs:
        yield from _rule_entries(sub)


def load_file(path: str) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Parse and validate one rule file."""
    problems: list[Problem] = []
    from tokenjuice._fs import NotRegularFile, read_regular
    from tokenjuice.rules.trust import MAX_RULE_FILE_BYTES

    try:
        import json

        # Not `open`: a rule file that is a FIFO or a link to a device must not hang us.
        data = json.loads(read_regular(path, MAX_RULE_FILE_BYTES).decode("utf-8"))
    except NotRegularFile as exc:
        return [], [Problem(path, f"cannot read: {exc.reason}")]
    except OSError as exc:
        return [], [Problem(path, f"cannot read: {exc.strerror or exc}")]
    except UnicodeDecodeError:
        return [], [Problem(path, "not UTF-8 text")]
    except ValueError as exc:
        return [], [Problem(path, f"invalid JSON: {exc}")]
    except RecursionError:
        return [], [Problem(path, "invalid JSON: nested too deeply")]
    items = data if isinstance(data, list) else [data]
    rules: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        label = f"[{i}]" if isinstance(data, list) else ""
        if not isinstance(item, dict):
            problems.append(Problem(path + label, "a rule must be a JSON object"))
            continue
        rule_id = item.get("id") if isinstance(item.get("id"), str) else None
        from tokenjuice.rules.schema import validate

        errors = validate(item)
        if errors:
            for err in errors:
                fld, _, msg = err.partition(": ")
                problems.append(Problem(path + label, f"{fld}: {msg}", rule_id, fld))
            continue
        rules.append(item)
    return rules, problems


def load_layer_files(paths: list[str], layer: str, into: RuleSet) -> None:
    """Add rules from explicit files or directories (API callers' own rules)."""
    for p in paths:
        files = rule_files(p) if os.path.isdir(p) else [p]
        for path in files:
            datas, problems = load_file(path)
            for prob in problems:
                into.problems.append(prob)
                _log.warn(f"{prob}; rule skipped", key=f"rule-problem:{prob}")
            for data in datas:
                into.add(Rule(data, layer, path))
                into.layer_counts[layer] = into.layer_counts.get(layer, 0) + 1


def _parse_layers(layers: list[tuple[str, str | None]]) -> tuple[list[Parsed], list[Problem]]:
    rules: list[Parsed] = []
    problems: list[Problem] = []
    for layer, directory in layers:
        if directory is None:
            continue
        for path in rule_files(directory):
            datas, probs = load_file(path)
            problems.extend(probs)
            rules.extend((layer, path, d, None) for d in datas)
    return rules, problems


def _signature(layers: list[tuple[str, str | None]]) -> tuple[str, str]:
    """(name, signature) of the cache for these layers: the file's name comes from the
    layer directories, and the file must hold the signature, every rule file's path,
    size and mtime. Compared whole, not hashed: no checksum module to load, and no
    collision to fear."""
    import sys

    from tokenjuice import __version__
    from tokenjuice.paths import short_digest

    head = [f"{CACHE_FORMAT}|{__version__}|{sys.version_info[:2]}"]
    parts: list[str] = []
    for layer, directory in layers:
        head.append(f"\0{layer}\0{directory}")
        parts.append(f"\0{layer}\0{directory}")
        if directory is None:
            continue
        if layer == "builtin" and _installed(directory):
            parts.extend(_directory_stamps(directory))
            continue
        for e in _rule_entries(directory):
            try:
                st = e.stat()
            except OSError:
                continue
            parts.append(f"\0{e.path}\0{st.st_size}\0{st.st_mtime_ns}")
    name = "".join(head)
    return short_digest(name), name + "".join(parts)


def _installed(directory: str) -> bool:
    """Is this an installed package's directory (not a source checkout or an editable
    install, where rule files are edited in place)?"""
    return f"{os.sep}site-packages{os.sep}" in directory or f"{os.sep}dist-packages{os.sep}" in directory


def _directory_stamps(directory: str) -> list[str]:
    """The mtimes of an installed rule tree's directories (`builtin/<family>/`). They
    stand for the files': installing or upgrading the package removes and creates the
    files, which changes each directory holding them, and the version is in the
    signature too. A stat per family instead of one per rule file."""
    out = []
    try:
        out.append(f"\0{directory}\0{os.stat(directory).st_mtime_ns}")
        for e in sorted(os.scandir(directory), key=lambda e: e.name):
            if e.is_dir() and not e.name.startswith((".", "_")):
                out.append(f"\0{e.path}\0{e.stat().st_mtime_ns}")
    except OSError:
        out.append("\0unreadable")  # never equal to a good signature's parts
    return out


def _read_cache(key: tuple[str, str]) -> tuple[list[Parsed], list[Problem]] | None:
    import marshal

    from tokenjuice.paths import cache_dir

    name, signature = key
    path = os.path.join(cache_dir(), f"rules-{name}.marshal")
    try:
        with open(path, "rb") as f:
            data = marshal.loads(f.read())  # far faster than marshal.load(f), which reads in small pieces
        if data["signature"] != signature:
            return None  # a rule file changed (or another set of layers by that name)
        rules: list[Parsed] = [(r[0], r[1], r[2], r[3]) for r in data["rules"]]
        problems = [Problem(*p) for p in data["problems"]]
    except (OSError, EOFError, ValueError, TypeError, KeyError, IndexError):
        return None
    return rules, problems


def _write_cache(key: tuple[str, str], rules: list[Parsed], problems: list[Problem]) -> None:
    import marshal

    from tokenjuice.paths import cache_dir
    from tokenjuice.rules.rule import head

    name, signature = key
    directory = cache_dir()
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        data = {
            "signature": signature,
            "rules": [(layer, path, head(d), marshal.dumps(d)) for layer, path, d, _ in rules],
            "problems": [(p.path, p.message, p.rule_id, p.field) for p in problems],
        }
        tmp = os.path.join(directory, f".rules-{name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            marshal.dump(data, f)
        os.replace(tmp, os.path.join(directory, f"rules-{name}.marshal"))
        old = sorted(
            (e for e in os.scandir(directory) if e.name.startswith("rules-")),
            key=lambda e: e.stat().st_mtime,
            reverse=True,
        )
        for e in old[_CACHE_KEEP:]:
            os.unlink(e.path)
    except (OSError, ValueError) as exc:
        _log.debug(f"rule cache not written: {exc}")


def load_rules(
    cwd: str | os.PathLike[str] | None = None,
    *,
    user: bool = True,
    project: bool = True,
    builtin_dir: str | None = None,
    user_dir: str | None = None,
    project_dir: str | None = None,
    project_gate: Callable[[str], str | None] | None = None,
    cache: bool | None = None,
) -> RuleSet:
    """Load and merge the rule layers for a working directory.

    `project_gate(rules_dir)` returns a reason to refuse a project's rules (e.g. they
    are not trusted), or None to load them. `cache` defaults to on unless
    `TOKENJUICE_NO_CACHE` is set.
    """
    rs = RuleSet()
    layers: list[tuple[str, str | None]] = [("builtin", os.fspath(builtin_dir or BUILTIN_DIR))]
    rs.layer_dirs["builtin"] = layers[0][1]
    if user:
        udir = os.fspath(user_dir) if user_dir else user_rules_dir()
        rs.layer_dirs["user"] = udir
        layers.append(("user", udir if os.path.isdir(udir) else None))
    if project:
        pdir = (
            os.fspath(project_dir) if project_dir else find_project_rules_dir(cwd if cwd is not None else os.getcwd())
        )
        refusal = project_gate(pdir) if (pdir is not None and project_gate is not None) else None
        rs.layer_dirs["project"] = pdir
        if refusal:
            rs.skipped_layers["project"] = refusal
            _log.warn(f"project rules in {pdir} ignored: {refusal}", key=f"project-gate:{pdir}")
        else:
            layers.append(("project", pdir))

    if cache is None:
        cache = not os.environ.get("TOKENJUICE_NO_CACHE")
    parsed = None
    key = ("", "")
    if cache:
        key = _signature(layers)
        parsed = _read_cache(key)
        rs.from_cache = parsed is not None
    if parsed is None:
        parsed = _parse_layers(layers)
        if cache:
            _write_cache(key, *parsed)
    rules, problems = parsed
    for p in problems:
        rs.problems.append(p)
        _log.warn(f"{p}; rule skipped", key=f"rule-problem:{p}")
    counts = {layer: 0 for layer, _ in layers}
    for layer, path, data, blob in rules:
        rs.add(Rule(data, layer, path, blob))
        counts[layer] += 1
    rs.layer_counts.update(counts)
    if "project" in rs.skipped_layers:
        rs.layer_counts["project"] = 0
    rs.fallback  # noqa: B018 - make sure a fallback always exists
    return rs
