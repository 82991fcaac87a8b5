"""The store's second place: a private folder in the temporary directory.

A sandbox can leave the state directory read-only while the command may still write
the temporary directory (Codex's `workspace-write` sandbox allows the workspace and
`/tmp`, nothing in the home directory). Then the raw output goes to
`<tmp>/tokenjuice-<uid>-<digest of the state directory>`, and every reader of that
state directory looks there too, so `tokenjuice cat ID` finds what `wrap` kept. The
folder is 0700, owned by the user, and never a symlink: one that is not is neither
written nor read.
"""

from __future__ import annotations

import contextlib
import os
import stat


def temp_dir() -> str | None:
    """The temporary directory a sandboxed command may write: `$TMPDIR` (or `$TEMP`,
    `$TMP`), else `/tmp` or `/var/tmp`; never the working directory (`tempfile`'s last
    resort), where a store would land in the user's project."""
    for candidate in (os.environ.get("TMPDIR"), os.environ.get("TEMP"), os.environ.get("TMP"), "/tmp", "/var/tmp"):
        if candidate and os.path.isabs(candidate) and os.path.isdir(candidate):
            return candidate
    return None


def fallback_root(primary: str) -> str | None:
    """The fallback folder for the store of state directory `primary` (None: no temp dir)."""
    from tokenjuice.paths import short_digest

    base = temp_dir()
    if base is None:
        return None
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(base, f"tokenjuice-{uid}-{short_digest(os.path.abspath(primary))}")


def make_private(path: str) -> None:
    """Create `path` as this user's 0700 folder, or check that it is one; OSError if not."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    if not is_private(path):
        raise PermissionError(f"{path} is not a private folder of this user (owner, mode or a symlink)")


def is_private(path: str) -> bool:
    """Whether `path` is a real folder (not a symlink) owned by this user, closed to others."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or st.st_mode & 0o077:
        return False
    return not hasattr(os, "getuid") or st.st_uid == os.getuid()
