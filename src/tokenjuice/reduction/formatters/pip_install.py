"""pip install / uninstall / download / wheel: what changed, every warning and error.

Kept: `Successfully installed …` (wrapped when long), `Successfully uninstalled …`,
`Saved …`, every `ERROR:`/`WARNING:`/`DEPRECATION:` line, the resolver's conflict
explanation, subprocess error boxes (their error lines and last lines), and the
top-level `Requirement already satisfied` lines. Dropped: Collecting/Downloading/Using
cached lines, progress bars, build-step status lines, uninstall steps, the
already-satisfied lines of dependencies (counted), generic "to fix this" hints, and
with `-v` the build backends' chatter (their errors and distinct warnings stay).
Error lines stay whole, even a `(from versions: …)` list kilobytes long.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._install_common import Seen, errorish, keep_wrapped, warnish

PROGRESS_RE = re.compile(r"^\s*(?:[━╸╺█▏▎▍▌▋▊▉]|\|[█▏▎▍▌▋▊▉ ]+\|)")
DOWNLOAD_RE = re.compile(
    r"^\s*(?:Downloading |Using cached |Obtaining |Processing |File was already downloaded |"
    r"Looking in links: |Link requires a different Python)"
)
INDEXES_RE = re.compile(r"^\s*Looking in indexes: ")
COLLECTING_RE = re.compile(r"^\s*Collecting ")
SATISFIED_RE = re.compile(r"^\s*Requirement already satisfied: ")
# Build-step status lines; a step that did not end with 'done' is kept.
BUILD_STEP_RE = re.compile(
    r"^\s*(?:Installing build dependencies|Installing backend dependencies|Getting requirements to build "
    r"(?:wheel|editable)|Preparing (?:editable )?metadata \([^)]*\)|Building (?:wheel|editable) for \S+ \([^)]*\)|"
    r"Checking if build backend supports \S+)(?::| \.\.\.) (?:started|finished with status 'done'|done)$"
)
BUILD_INFO_RE = re.compile(
    r"^\s*(?:Running command |Created wheel for |Stored in directory: |Successfully built |"
    r"Building wheels for collected packages: |Running setup\.py (?:install|develop) for \S+)"
)
UNINSTALL_STEP_RE = re.compile(
    r"^\s*(?:Attempting uninstall: |Found existing installation: |Uninstalling \S+:$|"
    r"Removing file or directory |Proceed \(Y/n\)\?)"
)
COLLECTED_RE = re.compile(r"^\s*Installing collected packages: ")
INTERNAL_RE = re.compile(
    r"^\s*(?:Using pip \S+ from |\[notice\] |Created temporary directory: |Skipping link: |Found link |"
    r"Fetched page |Getting page |Fetching project page |Given no hashes to check |Added \S+ to build tracker |"
    r"Removed \S+ from build tracker |Removed build tracker: |Looking up \"|Starting new HTTPS? connection |"
    r"https?://\S+ \"(?:GET|HEAD|POST) |Source in \S+ has version |Remote version of pip: |"
    r"Local version of pip: |\d+ location\(s\) to search for versions |Requirement not yet installed|"
    r"Skipping because |Cache entry |Initialized build tracking |Entered build tracker |"
    r"Using version \S+ \(newest of versions)"
)
INSTALLED_RE = re.compile(r"^\s*Successfully installed (.+)$")
UNINSTALLED_RE = re.compile(r"^\s*Successfully uninstalled \S+")
PIP_MSG_RE = re.compile(r"^\s*(?:ERROR|WARNING|DEPRECATION|error|warning|hint|note): ")
BOX_RE = re.compile(r"^\s*╰─> \[(\d+) lines? of output\]")
BOX_END_RE = re.compile(r"^\s*\[end of output\]")
HINT_HEAD_RE = re.compile(r"^\s*To fix this you could try to:")
HINT_ITEM_RE = re.compile(r"^\s*\d+\. ")
# Build-backend chatter that says nothing about the result (setuptools manifest checks).
BUILD_NOISE_WARN_RE = re.compile(
    r"warning: no (?:previously-included )?(?:files|directories) (?:found )?matching|"
    r"byte-compiling is disabled|warning: check: missing required meta-data"
)
VERBOSE_FLAGS = frozenset({"-v", "-vv", "-vvv", "--verbose"})

BOX_TAIL = 4  # last lines of a failed subprocess's output kept besides its error lines


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    verbose = any(a in VERBOSE_FLAGS for a in fi.cmd.argv[1:]) or any(ln.startswith("Running command ") for ln in lines)
    has_installed = any(INSTALLED_RE.match(ln) for ln in lines)
    seen = Seen()
    satisfied = 0
    installed = 0
    saw_pip = False
    box: list[int] | None = None
    in_hints = False
    pending_blank: int | None = None

    for i, line in enumerate(lines):
        if box is not None:
            if BOX_END_RE.match(line):
                _emit_box(b, box, lines)
                box = None
                b.keep(i)
            else:
                box.append(i)
            continue
        if in_hints:
            if HINT_ITEM_RE.match(line):
                b.drop(i, "hints")
                continue
            in_hints = False
        if not line.strip():
            # Kept only between kept lines (decided when the next line is kept).
            if pending_blank is not None:
                b.drop(pending_blank, "blank")
            pending_blank = i
            continue
        if pending_blank is not None:
            if b.lines and b.lines[-1].strip():
                b.keep(pending_blank)
            else:
                b.drop(pending_blank, "blank")
            pending_blank = None
        if verbose and line.startswith(" ") and not BOX_RE.match(line):
            _build_output(b, i, line, seen)
            continue
        if PROGRESS_RE.match(line):
            b.drop(i, "progress")
            continue
        if COLLECTING_RE.match(line) or DOWNLOAD_RE.match(line):
            saw_pip = True
            b.drop(i, "downloads")
            continue
        if INDEXES_RE.match(line):
            if fi.failed:
                b.keep(i)
            else:
                b.drop(i, "downloads")
            continue
        if SATISFIED_RE.match(line):
            saw_pip = True
            satisfied += fi.weights[i]
            if "(from " in line:
                b.drop(i, "already satisfied (dependencies)")
            else:
                b.keep(i)
            continue
        if BUILD_STEP_RE.match(line) or BUILD_INFO_RE.match(line):
            saw_pip = True
            b.drop(i, "build steps")
            continue
        if UNINSTALL_STEP_RE.match(line):
            saw_pip = True
            b.drop(i, "uninstall steps")
            continue
        if COLLECTED_RE.match(line):
            saw_pip = True
            if has_installed:
                b.drop(i, "installing")
            else:
                b.keep(i)
            continue
        if INTERNAL_RE.match(line):
            b.drop(i, "pip internals")
            continue
        m = INSTALLED_RE.match(line)
        if m:
            saw_pip = True
            items = m.group(1).split()
            installed += len(items)
            keep_wrapped(b, i, "Successfully installed ", items)
            continue
        if UNINSTALLED_RE.match(line):
            saw_pip = True
            b.keep(i, protect=True, text=line.strip())
            continue
        bm = BOX_RE.match(line)
        if bm:
            b.keep(i, protect=True)
            box = []
            continue
        if HINT_HEAD_RE.match(line):
            in_hints = True
            b.drop(i, "hints")
            continue
        if PIP_MSG_RE.match(line) or errorish(line):
            saw_pip = True
            b.keep(i, protect=True)
            continue
        b.keep(i)
    if box is not None:  # output cut off inside a box
        _emit_box(b, box, lines)
    if pending_blank is not None:
        b.drop(pending_blank, "blank")
    if not saw_pip:
        return None
    if installed:
        b.facts["installed package"] = installed
    if satisfied:
        b.facts["satisfied requirement"] = satisfied
    return b.build(final=False)


def _build_output(b: Builder, i: int, line: str, seen: Seen) -> None:
    """A build backend's own output, or pip's inside an isolated build env (pip -v
    streams both indented): its errors and distinct warnings stay."""
    is_error = errorish(line) and not BUILD_STEP_RE.match(line)
    is_news = warnish(line) and not BUILD_NOISE_WARN_RE.search(line)
    if is_error or (is_news and seen.first(line)):
        b.keep(i, protect=True)
    else:
        b.drop(i, "build output")


def _emit_box(b: Builder, idxs: list[int], lines: list[str]) -> None:
    """A failed subprocess's output: its error lines and its last lines."""
    tail = set(idxs[-BOX_TAIL:])
    dropped = 0
    for j in idxs:
        if j in tail or errorish(lines[j]):
            if dropped:
                b.add(f"      … {dropped:,} lines of build output omitted …")
                dropped = 0
            b.keep(j, protect=True)
        else:
            b.drop(j, "build output")
            dropped += b.src_weights[j]
    if dropped:
        b.add(f"      … {dropped:,} lines of build output omitted …")
