"""docker build: one line per build step, the failing step's output and error, the image.

BuildKit plain progress (`#N …` vertexes, as printed by buildx and by the 20.10
client): each step header stays, folded with its `DONE`/`CACHED` status; layer
downloads, context transfers and `[internal]` vertexes go; a step's own output goes
unless the step failed (then its last `tailLines` lines stay) or a line looks like an
error or warning; the `------` failure block, the Dockerfile excerpt, the final
`ERROR: failed to solve` and the exporting lines that name the image stay.

Classic builder (`Step k/n : …`): step headers stay, `---> Running in`/`Removing
intermediate container`/layer-id lines go, the failing step keeps its last lines, and
`Successfully built/tagged` or `returned a non-zero code` stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction import signals
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

VERTEX_RE = re.compile(r"^#(\d+) (.*)$")
TIMED_RE = re.compile(r"^\d+\.\d+ ?")  # step output: `#7 0.059 text`
STATUS_RE = re.compile(r"^(DONE \d+(?:\.\d+)?s|CACHED)$")
PROGRESS_RE = re.compile(
    r"^(?:sha256:[0-9a-f]{12,}\s|extracting sha256:|resolve \S+|transferring \w+:|"
    r"exporting layers|exporting manifest|exporting config|exporting attestation|"
    r"preparing layers for inline cache|writing layer sha256:|unpacking to|\[auth\] )"
)
KEEP_EXPORT_RE = re.compile(r"^(?:writing image sha256:|naming to |exporting to image|pushing )")
STEP_HEADER_RE = re.compile(r"^\[(?!internal\])[^\]]*\d+/\d+\] |^exporting to ")
ERROR_RE = re.compile(r"^ERROR\b|^error:|^\S*ERROR:|^executor failed|^failed to ")
CLASSIC_STEP_RE = re.compile(r"^Step \d+/\d+ : ")
CLASSIC_NOISE_RE = re.compile(
    r"^(?: ---> Running in [0-9a-f]+|Removing intermediate container [0-9a-f]+| ---> Using cache"
    r"|Sending build context to Docker daemon)"
)
CLASSIC_LAYER_RE = re.compile(r"^ ---> [0-9a-f]{12}$")
CLASSIC_END_RE = re.compile(r"^(?:Successfully built |Successfully tagged |The command .* returned a non-zero code)")
LEGACY_NOTICE_RE = re.compile(
    r"^(?:DEPRECATED: The legacy builder is deprecated|\s+Install the buildx component|\s+https://docs\.docker\.com/go/buildx/)"
)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    n_vertex = sum(1 for ln in lines[:400] if VERTEX_RE.match(ln))
    if n_vertex >= 2:
        return _buildkit(fi)
    if any(CLASSIC_STEP_RE.match(ln) for ln in lines):
        return _classic(fi)
    return None


def _buildkit(fi: FormatInput) -> FormatOutput:
    lines = fi.lines
    tail_n = int(fi.options.get("tailLines", 15))
    # First pass: which vertexes failed, where their output lines are, and the status lines.
    failed: set[str] = set()
    outputs: dict[str, list[int]] = {}
    header_of: dict[str, int] = {}
    status_of: dict[str, int] = {}
    for i, line in enumerate(lines):
        m = VERTEX_RE.match(line)
        if not m:
            continue
        vid, rest = m.group(1), m.group(2)
        if rest.startswith("ERROR"):
            failed.add(vid)
        elif STATUS_RE.match(rest):
            status_of[vid] = i
        elif vid not in header_of:
            header_of[vid] = i
        elif TIMED_RE.match(rest):
            outputs.setdefault(vid, []).append(i)
    if _failure_block_has_output(lines):
        tail_n = 0  # buildx repeats the failing step's last lines in its `------` block
    keep_output: set[int] = set()
    for vid in failed:
        keep_output.update(outputs.get(vid, [])[-tail_n:] if tail_n else [])
    # Step output that reads as an error or warning: judged for all lines at once.
    out_idx = [i for idx in outputs.values() for i in idx]
    out_text = [TIMED_RE.sub("", VERTEX_RE.match(lines[i]).group(2), count=1) for i in out_idx]  # type: ignore[union-attr]
    loud = {out_idx[k] for k in signals.find(out_text, locations=False)}
    loud.update(i for i, t in zip(out_idx, out_text, strict=True) if ERROR_RE.search(t))
    timed = set(out_idx)

    b = Builder(lines, fi.weights)
    steps = 0
    cached = 0
    status_merged: set[int] = set()
    for i, line in enumerate(lines):
        if i in status_merged:
            continue
        m = VERTEX_RE.match(line)
        if not m:
            if not line.strip():
                b.drop(i, "blank")
            else:
                # Failure block, Dockerfile excerpt, final error: all kept.
                b.keep(i, protect=_is_error(line) or line.startswith(" > ["))
            continue
        vid, rest = m.group(1), m.group(2)
        if header_of.get(vid) == i:
            internal = rest.startswith(("[internal]", "building with "))
            if internal and vid not in failed:
                b.drop(i, "internal steps")
                continue
            steps += 1 if STEP_HEADER_RE.match(rest) else 0
            st = status_of.get(vid)
            if st is not None and vid not in failed:
                status = VERTEX_RE.match(lines[st]).group(2)  # type: ignore[union-attr]
                cached += status == "CACHED"
                b.keep(i, text=f"{line} … {status}", protect=True)
                b.merge_into_last(st)
                status_merged.add(st)
            else:
                b.keep(i, protect=True)
            continue
        if rest.startswith("ERROR"):
            b.keep(i, protect=True)
        elif STATUS_RE.match(rest):
            if header_of.get(vid) is not None and lines[header_of[vid]].startswith(f"#{vid} [internal]"):
                b.drop(i, "internal steps")
            else:
                b.keep(i)
        elif KEEP_EXPORT_RE.match(rest):
            b.keep(i, protect=True)
        elif PROGRESS_RE.match(rest):
            b.drop(i, "progress")
        elif i in keep_output or (i in loud if i in timed else _is_error(TIMED_RE.sub("", rest, count=1))):
            b.keep(i, protect=True)
        elif lines[header_of.get(vid, i)].startswith(f"#{vid} [internal]"):
            b.drop(i, "internal steps")
        else:
            b.drop(i, "step output")
    if steps:
        b.facts["build step"] = steps
    if cached:
        b.facts["cached step"] = cached
    return b.build(final=True)


def _failure_block_has_output(lines: list[str]) -> bool:
    for i, line in enumerate(lines):
        if line.startswith(" > [") and i > 0 and lines[i - 1] == "------":
            return i + 1 < len(lines) and lines[i + 1] != "------"
    return False


def _classic(fi: FormatInput) -> FormatOutput:
    lines = fi.lines
    tail_n = int(fi.options.get("tailLines", 15))
    step_starts = [i for i, ln in enumerate(lines) if CLASSIC_STEP_RE.match(ln)]
    last_step = step_starts[-1] if step_starts else 0
    # The last step's output (before the final status lines) is the failing step's on error.
    last_output = [
        i
        for i in range(last_step + 1, len(lines))
        if not CLASSIC_NOISE_RE.match(lines[i])
        and not CLASSIC_LAYER_RE.match(lines[i])
        and not CLASSIC_END_RE.match(lines[i])
        and not LEGACY_NOTICE_RE.match(lines[i])
    ]
    keep_tail = set(last_output[-tail_n:]) if fi.failed else set()
    last_layer = max((i for i, ln in enumerate(lines) if CLASSIC_LAYER_RE.match(ln)), default=-1)
    b = Builder(lines, fi.weights)
    steps = 0
    for i, line in enumerate(lines):
        if CLASSIC_STEP_RE.match(line):
            steps += 1
            b.keep(i, protect=True)
        elif CLASSIC_END_RE.match(line):
            b.keep(i, protect=True)
        elif LEGACY_NOTICE_RE.match(line):
            b.drop(i, "legacy builder notice")
        elif CLASSIC_NOISE_RE.match(line):
            b.drop(i, "builder chatter")
        elif CLASSIC_LAYER_RE.match(line):
            if i == last_layer and not fi.failed:
                b.keep(i)
            else:
                b.drop(i, "layer ids")
        elif not line.strip():
            b.drop(i, "blank")
        elif i in keep_tail or _is_error(line):
            b.keep(i, protect=True)
        else:
            b.drop(i, "step output")
    b.facts["build step"] = steps
    return b.build(final=True)


def _is_error(text: str) -> bool:
    return ERROR_RE.search(text) is not None or signals.is_error_or_warning(text)
