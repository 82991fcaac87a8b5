"""Trust for project rule layers: a repository's `.tokenjuice/rules` applies only after
`tokenjuice trust` in that project.

A project's rules decide what an agent sees of its own commands, so a cloned
repository could hide an error (`skipPatterns`) or put words in the agent's mouth
(`matchOutput` messages). Trusting pins a SHA-256 over the layer's file names and
contents; any added, removed or edited file needs trusting again. The pins live in
`$XDG_CONFIG_HOME/tokenjuice/trusted-projects.json`, outside every repository.
`TOKENJUICE_TRUST_ALL_PROJECT_RULES=1` turns the check off (for CI of a rules repo).
"""

from __future__ import annotations

import os

_PINS_FILE = "trusted-projects.json"


def _pins_path() -> str:
    from tokenjuice.paths import config_dir

    return os.path.join(config_dir(), _PINS_FILE)


# Rule files are small JSON; the loader refuses larger ones, and the digest reads no more.
MAX_RULE_FILE_BYTES = 4 << 20


def digest(rules_dir: str) -> str:
    """SHA-256 over every file under `rules_dir` (relative path and bytes, sorted).

    Only regular files are read, at most `MAX_RULE_FILE_BYTES` of them: a symlink to
    `/dev/zero` or a FIFO (which a pull can bring) stands in the digest as what it is,
    never read, and so does a file too large to be a rule file. A symlink is also
    pinned by its target, so retargeting it needs trusting again.
    """
    import hashlib

    from tokenjuice._fs import NotRegularFile, read_regular

    h = hashlib.sha256()
    entries: list[tuple[str, str]] = []
    for root, dirs, files in os.walk(rules_dir):
        dirs.sort()
        for name in files:
            full = os.path.join(root, name)
            entries.append((os.path.relpath(full, rules_dir), full))
    for rel, full in sorted(entries):
        h.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        if os.path.islink(full):
            try:
                h.update(b"<link>" + os.fsencode(os.readlink(full)) + b"\0")
            except OSError:
                h.update(b"<unreadable link>\0")
        try:
            h.update(read_regular(full, MAX_RULE_FILE_BYTES))
        except NotRegularFile as exc:
            h.update(f"<{exc.reason}>".encode())
        except OSError:
            h.update(b"<unreadable>")
        h.update(b"\0")
    return h.hexdigest()


def _load() -> dict[str, dict[str, object]]:
    import json

    try:
        with open(_pins_path(), encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        from tokenjuice import _log

        _log.warn(f"{_pins_path()}: {exc}; no project rules are trusted")
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def _save(pins: dict[str, dict[str, object]]) -> None:
    import json

    from tokenjuice._fs import write_atomic

    write_atomic(_pins_path(), (json.dumps(pins, indent=2, sort_keys=True) + "\n").encode("utf-8"))


def _key(rules_dir: str) -> str:
    return os.path.realpath(rules_dir)


def trust(rules_dir: str) -> str:
    """Pin the layer's current content; returns the digest."""
    import time

    pins = _load()
    d = digest(rules_dir)
    pins[_key(rules_dir)] = {"sha256": d, "trusted_at": int(time.time())}
    _save(pins)
    return d


def revoke(rules_dir: str) -> bool:
    pins = _load()
    if pins.pop(_key(rules_dir), None) is None:
        return False
    _save(pins)
    return True


def pinned() -> dict[str, dict[str, object]]:
    return _load()


def gate(rules_dir: str) -> str | None:
    """Why the project layer at `rules_dir` must not load, or None when it is trusted."""
    if os.environ.get("TOKENJUICE_TRUST_ALL_PROJECT_RULES", "").strip().lower() in ("1", "true", "yes", "on"):
        return None
    pin = _load().get(_key(rules_dir))
    if pin is None:
        return f"not trusted; review them and run `tokenjuice trust` in {os.path.dirname(os.path.dirname(rules_dir))}"
    if pin.get("sha256") != digest(rules_dir):
        return "changed since they were trusted; review them and run `tokenjuice trust` again"
    return None
