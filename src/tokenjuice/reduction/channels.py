"""Which channel (stdout or stderr) each line of the combined output came from."""

from __future__ import annotations

from tokenjuice.model import STDERR, STDOUT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.model import ToolRun


def line_channels(run: ToolRun, n_lines: int) -> list[int] | None:
    """A channel tag per line of `run.combined` (after splitting on newlines), or None
    when the run has only one channel or the origin cannot be told."""
    if not run.stdout or not run.stderr:
        return None
    combined = run.combined
    if run.interleave:
        tags = _from_interleave(combined, run.interleave)
    elif not run.has_combined:
        n_out = _count_lines(run.stdout)
        tags = [STDOUT] * n_out + [STDERR] * (_count_lines(combined) - n_out)
    else:
        tags = _align(combined, run.stdout, run.stderr)
    return tags if len(tags) == n_lines else None


def _count_lines(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _from_interleave(combined: str, chunks: tuple[tuple[int, int], ...]) -> list[int]:
    tags: list[int] = []
    bounds: list[tuple[int, int]] = []  # (end offset, channel)
    pos = 0
    for channel, length in chunks:
        pos += length
        bounds.append((pos, channel))
    ci = 0
    start = 0
    n = len(combined)
    while start < n:
        while ci < len(bounds) - 1 and bounds[ci][0] <= start:
            ci += 1
        tags.append(bounds[ci][1] if bounds else STDOUT)
        nl = combined.find("\n", start)
        if nl < 0:
            break
        start = nl + 1
    return tags


def _align(combined: str, stdout: str, stderr: str) -> list[int]:
    """Greedy line alignment of the combined text against each channel's lines."""
    out_lines = stdout.split("\n")
    err_lines = stderr.split("\n")
    lines = combined.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    po = pe = 0
    tags = []
    for line in lines:
        if pe < len(err_lines) and line == err_lines[pe]:
            tags.append(STDERR)
            pe += 1
        elif po < len(out_lines) and line == out_lines[po]:
            tags.append(STDOUT)
            po += 1
        else:
            tags.append(STDOUT)
    return tags
