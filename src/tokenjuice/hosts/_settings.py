"""Editing a host's JSON settings file safely: never lose the user's data.

* An unreadable or invalid file is an error naming the file; it is never overwritten.
* A file with comments (JSONC) is refused rather than silently stripped of them.
* Writes go to a temporary file in the same directory, then replace the original
  atomically, keeping its permission bits; the previous content is kept as `<file>.bak`.
* Nothing is written when nothing changes, so running install twice is a no-op.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class SettingsError(Exception):
    """A settings file we will not touch; the message names the file and the fix."""


def load(path: str) -> tuple[dict[str, object], bool]:
    """The settings object and whether the file exists ({} for a missing or empty file)."""
    from tokenjuice import _jsonc

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return {}, False
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
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


def save(path: str, data: dict[str, object], *, existed: bool) -> str | None:
    """Write `data` as indented JSON; return the backup path when an old file was kept."""
    import json

    backup = None
    mode = 0o644
    if existed:
        try:
            mode = os.stat(path).st_mode & 0o777
            backup = path + ".bak"
            with open(path, "rb") as src, open(backup, "wb") as dst:
                dst.write(src.read())
        except OSError as exc:
            raise SettingsError(f"cannot back up {path}: {exc.strerror or exc}") from None
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    _write_atomic(path, text.encode("utf-8"), mode)
    return backup


def _write_atomic(path: str, content: bytes, mode: int) -> None:
    from tokenjuice._fs import write_atomic

    try:
        write_atomic(path, content, mode)
    except OSError as exc:
        raise SettingsError(f"cannot write {path}: {exc.strerror or exc}") from None


def restore(path: str, data: dict[str, object]) -> str | None:
    """Undo our install byte for byte when nothing else changed since; None if we can't.

    If the backup made before the install holds exactly `data`, it is copied back (so the
    user's own formatting returns); if there is no backup and `data` is empty, the file
    was ours alone and is deleted.
    """
    import json

    backup = path + ".bak"
    try:
        with open(backup, "rb") as f:
            old = f.read()
    except FileNotFoundError:
        if data:
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
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = 0o644
    _write_atomic(path, old, mode)
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
