"""Line handling shared by the git formatters: grouped name lists and hint condensing."""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters._common import Builder

WRAP = 160


def pack(b: Builder, label: str, items: list[tuple[int, str]], *, indent: str = "  ") -> None:
    """`label: a, b, c`, wrapped at about WRAP characters.

    Every name is kept verbatim (protected) and every input line is accounted for:
    each output line stands for the input lines whose names it carries.
    """
    if not items:
        return
    chunks: list[list[tuple[int, str]]] = [[]]
    width = len(label) + 2
    for item in items:
        if chunks[-1] and width + len(item[1]) + 2 > WRAP:
            chunks.append([])
            width = len(indent)
        chunks[-1].append(item)
        width += len(item[1]) + 2
    for k, chunk in enumerate(chunks):
        head = (f"{label}: " if label else indent) if k == 0 else indent
        tail = "," if k + 1 < len(chunks) else ""
        b.keep(chunk[0][0], protect=True, text=head + ", ".join(n for _, n in chunk) + tail)
        for i, _ in chunk[1:]:
            b.merge_into_last(i)


def first_sentence(text: str) -> str:
    head, sep, _ = text.partition(". ")
    return head + "." if sep else text


def stat_line(line: str) -> tuple[str, str] | None:
    """A `--stat` line's path and change count (`12`, or `Bin 0 -> 1 bytes`).

    What follows the count holds no `|`, so the bar before it is the line's last one;
    the path is what comes before the blanks in front of it."""
    if not line.startswith(" ") or len(line) < 2 or line[1].isspace():
        return None
    bar = line.rfind("|")
    if bar < 2:
        return None
    end = len(line[:bar].rstrip())
    tail = STAT_TAIL_RE.match(line, bar + 1) if end < bar else None
    return None if tail is None else (line[1:end], tail.group(1))


class Hints:
    """Condense `hint:` paragraphs to the first sentence of each run of hints.

    git's hints are how-to boilerplate after the line that matters (rejected, conflict,
    divergent); their first sentence says why, the rest repeats the manual.
    """

    __slots__ = ("open",)

    def __init__(self) -> None:
        self.open = False

    def feed(self, b: Builder, i: int, line: str) -> bool:
        """Handle line i if it is a hint; False (and the run closed) otherwise."""
        if not line.startswith("hint:"):
            self.open = False
            return False
        text = line[5:].strip()
        if not text:
            b.drop(i, "hints")
        elif not self.open:
            self.open = True
            b.keep(i, protect=True, text="hint: " + first_sentence(text))
        elif b.lines and b.lines[-1].startswith("hint:") and not b.lines[-1].endswith((".", ":")):
            b.lines[-1] += " " + first_sentence(text)
            b.merge_into_last(i)
        else:
            b.drop(i, "hints")
        return True


MODE_RE = re.compile(r"^ (create|delete) mode \d{6} (.+)$")
# What `stat_line` reads (a test holds it to this): the lazy path tried the rest of the
# pattern after every character.
STAT_RE = re.compile(r"^ (\S.*?)\s+\|\s+(\d+|Bin [^|]*)(?: ([+-]+))?$")
STAT_TAIL_RE = re.compile(r"\s+(\d+|Bin [^|]*)(?: [+-]+)?$")
STAT_SUMMARY_RE = re.compile(r"^ \d+ files? changed")
COULD_NOT_RE = re.compile(r"^(?:error: )?[Cc]ould not (apply|revert) ([0-9a-f]{7,40})\.\.\. ")
SIGNAL_RE = re.compile(
    r"^(?:error|fatal|warning|CONFLICT|Automatic merge failed|ssh|Permission denied|remote: (?:error|fatal)|Aborting)\b"
)
PROGRESS_RE = re.compile(r"^Rebasing \(\d+/\d+\)$")
# the words SIGNAL_RE begins with
SIGNAL_STARTS = (
    "error",
    "fatal",
    "warning",
    "CONFLICT",
    "Automatic merge failed",
    "ssh",
    "Permission denied",
    "remote: ",
    "Aborting",
)
MODE_GROUP_MIN = 4


class Outcome:
    """The lines git prints after changing the work tree (merge, rebase, cherry-pick,
    revert, pull, commit): conflicts and errors kept, noise folded.

    - `Auto-merging x` goes (the CONFLICT lines name the paths that matter);
    - `Could not apply abc...` repeats the `error: could not apply abc...` line;
    - per-file stat bars shrink to counts; the summary line stays;
    - runs of `create mode`/`delete mode` lines become `created (n): a, b, …`;
    - paths listed under "would be overwritten" (tab-indented) stay;
    - hints keep their first sentence.
    """

    __slots__ = ("b", "hints", "mode_at", "modes", "seen_could_not")

    def __init__(self, b: Builder, lines: list[str]) -> None:
        self.b = b
        self.hints = Hints()
        self.seen_could_not: set[str] = set()
        self.mode_at = {i: m for i, m in enumerate(map(MODE_RE.match, lines)) if m}
        self.modes: dict[str, list[tuple[int, str]]] = {}
        for i, m in self.mode_at.items():
            self.modes.setdefault(m.group(1), []).append((i, m.group(2)))

    def feed(self, i: int, line: str) -> bool:
        """Handle line i (`line`, of the lines the outcome was made with); False when the
        caller should decide (not an outcome line). Each pattern is tried only on lines
        holding its literal: most lines are none of these."""
        b = self.b
        if self.hints.feed(b, i, line):
            return True
        if line.startswith("Auto-merging "):
            b.drop(i, "auto-merging")
            return True
        if line.startswith("Rebasing (") and PROGRESS_RE.match(line):
            b.drop(i, "progress")
            return True
        c = COULD_NOT_RE.match(line) if "ould not " in line else None
        if c:
            key = c.group(1) + c.group(2)
            if key in self.seen_could_not:
                b.drop(i, "repeated")
            else:
                self.seen_could_not.add(key)
                b.keep(i, protect=True)
            return True
        m = self.mode_at.get(i)
        if m:
            items = self.modes[m.group(1)]
            if len(items) < MODE_GROUP_MIN:
                b.keep(i, protect=True)
            elif items[0][0] == i:
                pack(b, f"{m.group(1)}d ({len(items)})", items)
            return True
        s = stat_line(line)
        if s:
            b.keep(i, protect=True, text=f"{s[0]} | {s[1]}")
            return True
        if (
            ("changed" in line and STAT_SUMMARY_RE.match(line))
            or (line.startswith(SIGNAL_STARTS) and SIGNAL_RE.match(line))
            or line.startswith("\t")
        ):
            b.keep(i, protect=True)
            return True
        return False
