"""The user's `config.toml` (`$XDG_CONFIG_HOME/tokenjuice/config.toml`), read once per process.

Sections: `[redaction]` (see `tokenjuice.redact`) and `[hooks]` (see `tokenjuice.hosts`).
A missing file is an empty config; an unreadable or invalid one (not UTF-8, not TOML,
not a regular file, larger than `MAX_BYTES`) is a warning and an empty config, so a
typo never stops a tool call.
"""

from __future__ import annotations

_cache: dict[str, dict[str, object]] | None = None
# A config file is a few lines; anything this large is not one.
MAX_BYTES = 1 << 20


def path() -> str:
    import os

    from tokenjuice.paths import config_dir

    return os.path.join(config_dir(), "config.toml")


def section(name: str) -> dict[str, object]:
    """One `[name]` table of config.toml ({} when absent or not a table)."""
    global _cache
    if _cache is None:
        _cache = _load()
    value = _cache.get(name, {})
    return value if isinstance(value, dict) else {}


def _load() -> dict[str, dict[str, object]]:
    import os

    p = path()
    if not os.path.exists(p):
        return {}
    import tomllib

    from tokenjuice._fs import read_regular

    try:
        data = tomllib.loads(read_regular(p, MAX_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        # ValueError: not UTF-8 (UnicodeDecodeError) or not TOML (TOMLDecodeError).
        from tokenjuice import _log

        why = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc) or type(exc).__name__
        _log.warn(f"{p}: {why}; using defaults")
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)}


def reset() -> None:
    """Forget the cached file (tests, long-lived hosts after an edit)."""
    global _cache
    _cache = None
