"""The user's `config.toml` (`$XDG_CONFIG_HOME/tokenjuice/config.toml`), read once per process.

Sections: `[redaction]` (see `tokenjuice.redact`) and `[hooks]` (see `tokenjuice.hosts`).
A missing file is an empty config; an unreadable or invalid one is a warning and an
empty config, so a typo never stops a tool call.
"""

from __future__ import annotations

_cache: dict[str, dict[str, object]] | None = None


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

    try:
        with open(p, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        from tokenjuice import _log

        _log.warn(f"{p}: {exc}; using defaults")
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)}


def reset() -> None:
    """Forget the cached file (tests, long-lived hosts after an edit)."""
    global _cache
    _cache = None
