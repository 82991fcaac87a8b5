"""Where tokenjuice keeps things: the XDG base-directory layout, on every OS.

User rules are in `$XDG_CONFIG_HOME/tokenjuice/rules` (default `~/.config/…`) on macOS
too, where the TypeScript tokenjuice keeps them. The XDG lookup is three environment
variables with fixed defaults; it is written out here rather than taken from
`platformdirs`, whose import (pathlib, tempfile, shutil) every tool call would pay
for three lookups. `TOKENJUICE_HOME` moves everything
under one directory (tests, sandboxes); `TOKENJUICE_STATE_DIR` moves only the store.
"""

from __future__ import annotations

import os

_DEFAULTS = {
    "XDG_CONFIG_HOME": (".config",),
    "XDG_STATE_HOME": (".local", "state"),
    "XDG_CACHE_HOME": (".cache",),
}


def _xdg(var: str, sub: str) -> str:
    home_override = os.environ.get("TOKENJUICE_HOME")
    if home_override:
        return os.path.join(home_override, sub)
    base = os.environ.get(var, "")
    # The spec says relative paths are invalid and must be ignored.
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), *_DEFAULTS[var])
    return os.path.join(base, "tokenjuice")


def config_dir() -> str:
    return _xdg("XDG_CONFIG_HOME", "config")


def state_dir() -> str:
    return os.environ.get("TOKENJUICE_STATE_DIR") or _xdg("XDG_STATE_HOME", "state")


def cache_dir() -> str:
    return _xdg("XDG_CACHE_HOME", "cache")


def short_digest(text: str) -> str:
    """Eight hex digits of FNV-1a over `text`'s UTF-8: the same in every process (unlike
    `hash`) and no checksum module to load, for naming cache files. The files hold what
    their name stands for and are checked against it: a collision is only a miss."""
    h = 0x811C9DC5
    for byte in text.encode("utf-8", "surrogateescape"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"
