"""Editing a host's JSON settings file safely: never lose the user's data.

* An unreadable or invalid file is an error naming the file; it is never overwritten.
* A file with comments (JSONC) is refused rather than silently stripped of them.
* Writes go to a temporary file in the same directory, then replace the original
  atomically, keeping its permission bits; the previous content is kept as `<file>.bak`
  with the same permission bits (settings can hold API keys).
* A settings file that is a symlink (dotfiles) is edited through the link: its target
  gets the new content and the link stays.
* A backup is tokenjuice's when the digest recorded as it was written (in the state
  directory) still matches it: only those are overwritten, and uninstall removes them.
  A `<file>.bak` of the user's own is left alone (ours then goes to `<file>.bak.1`…).
* Nothing is written when nothing changes, so running install twice is a no-op.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class SettingsError(Exception):
    """A settings file we will not touch; the message names the file and the fix."""


# Settings files are small; a larger "settings file" is not one to rewrite.
MAX_BYTES = 16 << 20
_BACKUPS_RECORD = "settings-backups.json"


def load(path: str) -> tuple[dict[str, object], bool]:
    """The settings object and whether the file exists ({} for a missing or empty file)."""
    from tokenjuice import _jsonc

    try:
        text = _read(path).decode("utf-8")
    except FileNotFoundError:
        return {}, False
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
        raise SettingsError(f"cannot read {path}: {why}") from None
    if not text.strip():
        return {}, True
    try:
        # Read on every hook call (permissions): without importing the json package.
        data = _jsonc.loads(text)
    except ValueError as exc:
        import json

        if not isinstance(exc, json.JSONDecodeError):
            raise
        if _strip_comments(text) is not None:
            raise SettingsError(
                f"{path} has comments, which rewriting it would lose; add the hook by hand "
                "(see `tokenjuice install --print`)"
            ) from None
        raise SettingsError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
    if not isinstance(data, dict):
        raise SettingsError(f"{path} does not hold a JSON object")
    return data, True


def loads_jsonc(text: str) -> object:
    """JSON with `//` and `/* */` comments allowed, as some hosts read their settings;
    ValueError when it is not valid even without them."""
    from tokenjuice import _jsonc

    try:
        return _jsonc.loads(text)
    except ValueError:
        value = _strip_comments(text)
        if value is None:
            raise ValueError("not valid JSON, even without comments") from None
        return value


def _strip_comments(text: str) -> object | None:
    """The JSON value if `text` is valid once // and /* */ comments are removed, else None."""
    import json

    out: list[str] = []
    i, n = 0, len(text)
    in_str = False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_str = False
            i += 1
            continue
        if c == '"':
            in_str = True
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        out.append(c)
        i += 1
    try:
        value: object = json.loads("".join(out))
    except json.JSONDecodeError:
        return None
    return value


def _read(path: str) -> bytes:
    # Never a FIFO or a device (a hook reads the settings on every call): regular files only.
    from tokenjuice._fs import read_regular

    return read_regular(path, MAX_BYTES)


def _target(path: str) -> str:
    """The file to write: a symlink's target, so the link itself stays."""
    return os.path.realpath(path) if os.path.islink(path) else path


def render(data: dict[str, object]) -> str:
    """The settings as `save` writes them."""
    import json

    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def diff(path: str, data: dict[str, object]) -> str:
    """What writing `data` to `path` would change, as a unified diff."""
    import difflib

    try:
        old = _read(_target(path)).decode("utf-8", "replace")
    except OSError:
        old = ""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), render(data).splitlines(keepends=True), path, f"{path} (new)"
    )
    return "".join(lines)


def save(path: str, data: dict[str, object], *, existed: bool, backup: bool = True) -> str | None:
    """Write `data` as indented JSON; return the backup path when an old file was kept."""

    target = _target(path)
    kept = None
    mode = 0o644
    if existed:
        try:
            mode = os.stat(target).st_mode & 0o777
            original = _read(target)
        except OSError as exc:
            raise SettingsError(f"cannot back up {path}: {exc.strerror or exc}") from None
        if backup:
            kept = _back_up(path, original, mode)
    _write_atomic(target, render(data).encode("utf-8"), mode)
    return kept


def _write_atomic(path: str, content: bytes, mode: int) -> None:
    from tokenjuice._fs import write_atomic

    try:
        write_atomic(path, content, mode)
    except OSError as exc:
        raise SettingsError(f"cannot write {path}: {exc.strerror or exc}") from None


def _back_up(path: str, original: bytes, mode: int) -> str:
    """Keep `original` beside `path` with its permission bits, in a backup of ours."""
    for n in range(10):
        backup = path + ".bak" + (f".{n}" if n else "")
        if not os.path.lexists(backup) or _ours(backup):
            _write_atomic(backup, original, mode)
            _record(backup, _digest(original))
            return backup
    raise SettingsError(f"cannot back up {path}: {path}.bak to .bak.9 all exist and are not tokenjuice's")


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _records_path() -> str:
    from tokenjuice.paths import state_dir

    return os.path.join(state_dir(), _BACKUPS_RECORD)


def _records() -> dict[str, str]:
    import json

    try:
        data = json.loads(_read(_records_path()))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


def _record(backup: str, digest: str | None) -> None:
    """Remember (or, with None, forget) that the backup at `backup` is ours."""
    import json

    from tokenjuice._fs import write_atomic

    records = _records()
    key = os.path.abspath(backup)
    if digest is None:
        if records.pop(key, None) is None:
            return
    else:
        records[key] = digest
    try:
        os.makedirs(os.path.dirname(_records_path()), mode=0o700, exist_ok=True)
        write_atomic(_records_path(), (json.dumps(records, indent=2, sort_keys=True) + "\n").encode(), 0o600)
    except OSError:
        pass  # not recorded: the backup is then left in place, as the user's


def _ours(backup: str) -> bool:
    digest = _records().get(os.path.abspath(backup))
    if digest is None:
        return False
    try:
        return _digest(_read(backup)) == digest
    except OSError:
        return False


def our_backup(path: str) -> str | None:
    """The backup of `path` tokenjuice made and nobody changed since, if any."""
    for n in range(10):
        backup = path + ".bak" + (f".{n}" if n else "")
        if _ours(backup):
            return backup
    return None


def drop_backup(path: str) -> None:
    """Remove tokenjuice's backup of `path` (the user's own stay)."""
    backup = our_backup(path)
    if backup is None:
        return
    try:
        os.unlink(backup)
    except OSError:
        return
    _record(backup, None)


def restore(path: str, data: dict[str, object]) -> str | None:
    """Undo our install byte for byte when nothing else changed since; None if we can't.

    If the backup made before the install holds exactly `data`, it is copied back (so the
    user's own formatting returns) and, being ours, removed; if there is no backup and
    `data` is empty, the file was ours alone and is deleted.
    """
    import json

    backup = our_backup(path) or path + ".bak"
    try:
        old = _read(backup)
    except FileNotFoundError:
        if data or os.path.islink(path):
            return None
        try:
            os.unlink(path)
        except OSError:
            return None
        return "deleted"
    except OSError:
        return None
    try:
        same = (json.loads(old) if old.strip() else {}) == data
    except ValueError:
        return None
    if not same:
        return None
    target = _target(path)
    try:
        mode = os.stat(target).st_mode & 0o777
    except OSError:
        mode = 0o644
    _write_atomic(target, old, mode)
    drop_backup(path)
    return "restored"


# ------------------------------------------------------------------ hook groups
# Claude Code, Codex and Gemini CLI share one shape:
#   {"hooks": {"<Event>": [{"matcher": "<tool>", "hooks": [{"type": "command", "command": …}]}]}}


def find_hooks(data: dict[str, object], event: str, is_ours: Callable[[str], bool]) -> list[dict[str, object]]:
    """Our hook entries under `event`."""
    found: list[dict[str, object]] = []
    for group in _groups(data, event):
        hooks = group.get("hooks")
        if isinstance(hooks, list):
            found.extend(h for h in hooks if isinstance(h, dict) and _is_ours(h, is_ours))
    return found


def _groups(data: dict[str, object], event: str) -> list[dict[str, object]]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    groups = hooks.get(event)
    if not isinstance(groups, list):
        return []
    return [g for g in groups if isinstance(g, dict)]


def _is_ours(hook: dict[str, object], is_ours: Callable[[str], bool]) -> bool:
    command = hook.get("command")
    return isinstance(command, str) and is_ours(command)


def remove_hooks(data: dict[str, object], event: str, is_ours: Callable[[str], bool]) -> int:
    """Drop our entries under `event` (and groups/keys left empty by that); return how many."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return 0
    groups = hooks.get(event)
    if not isinstance(groups, list):
        return 0
    removed = 0
    kept_groups: list[object] = []
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            entries = group["hooks"]
            assert isinstance(entries, list)
            kept = [h for h in entries if not (isinstance(h, dict) and _is_ours(h, is_ours))]
            removed += len(entries) - len(kept)
            if not kept and len(entries) > 0:
                continue
            if len(kept) != len(entries):
                group = {**group, "hooks": kept}
        kept_groups.append(group)
    if removed:
        if kept_groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
        if not hooks:
            del data["hooks"]
    return removed


def add_hook(data: dict[str, object], event: str, matcher: str | None, entry: dict[str, object]) -> None:
    """Append a group holding `entry` under `event` (creating `hooks` and the list as needed)."""
    hooks = data.get("hooks")
    if hooks is None:
        hooks = data["hooks"] = {}
    if not isinstance(hooks, dict):
        raise SettingsError('"hooks" is not a JSON object')
    groups = hooks.get(event)
    if groups is None:
        groups = hooks[event] = []
    if not isinstance(groups, list):
        raise SettingsError(f'"hooks.{event}" is not a JSON list')
    group: dict[str, object] = {"matcher": matcher} if matcher is not None else {}
    group["hooks"] = [entry]
    groups.append(group)
