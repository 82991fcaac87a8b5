"""Writing a small file so that readers see the old content or the new, never half."""

from __future__ import annotations

import contextlib
import os


def write_atomic(path: str, data: bytes, mode: int | None = None) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`.

    `mode` defaults to the existing file's permission bits (0o644 for a new file).
    Raises OSError; the temporary file never stays behind.
    """
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    if mode is None:
        try:
            mode = os.stat(path).st_mode & 0o777
        except FileNotFoundError:
            mode = 0o644
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tokenjuice-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
