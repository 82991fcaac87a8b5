"""jest (default and --verbose reporters): the `●` failure blocks and the counts.

Each failure keeps its `● suite › test` header, the error message, Expected/Received
and the head of the diff, the failing source line of the code frame (`> 14 | …`) and
its project stack frames; frames inside node_modules and node internals, the rest of
the code frame, passing/skipped tree lines and PASS suites go. A code frame repeated
by `test.each` is shown once. `console.*` blocks keep a head and tail of the messages.
The "Summary of all failing tests" repeats blocks already shown: they go. `Tests:` and
`Test Suites:` become the facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Failure, Run, add_counts, js_frame_useful

SUITE_RE = re.compile(r"^\s*(PASS|FAIL)\s+(\S.*)$")
TREE_PASS_RE = re.compile(r"^\s+(?:[✓✔√]|○|✎)\s")
TREE_FAIL_RE = re.compile(r"^\s+[✕✗×]\s")
BULLET_RE = re.compile(r"^\s{0,4}● (.+)$")
CONSOLE_LABEL_RE = re.compile(r"^\s+console\.(\w+)$")
SUMMARY_RE = re.compile(r"^(Tests|Test Suites|Snapshots|Time):\s+(.*)$")
COUNT_RE = re.compile(r"(\d+) (failed|passed|skipped|todo|pending|total|obsolete|written|updated)")
FRAME_LINE_RE = re.compile(r"^\s*(>?)\s*\d+ \|")
CARET_LINE_RE = re.compile(r"^\s+\|\s*\^?\s*$")
AT_RE = re.compile(r"^\s+at \S")
EXPECT_RE = re.compile(r"^\s+(?:Expected|Received)\b[^:]*:")

MESSAGE_HEAD = 14
MESSAGE_TAIL = 4
CONSOLE_HEAD = 4
CONSOLE_TAIL = 4
MAX_FRAMES = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    has_bullets = any("● " in ln for ln in lines)
    saw = False
    block: str | None = None  # "tree", "console", "failure", "dup"
    seen_headers: set[str] = set()
    seen_code: set[str] = set()
    in_summary_repeat = False
    console = Run(b, CONSOLE_HEAD, CONSOLE_TAIL, "console")
    fail = Failure(b, Run(b, MESSAGE_HEAD, MESSAGE_TAIL, "message"), console, max_frames=MAX_FRAMES)
    flush = fail.flush
    last_at = ""

    for i, line in enumerate(lines):
        s = SUMMARY_RE.match(line)
        if s:
            flush()
            saw = True
            block = None
            in_summary_repeat = False
            _summary(b, i, s.group(1), s.group(2))
            continue
        if line.startswith("Ran all test suites"):
            flush()
            b.drop(i, "timing")
            continue
        if line.strip() == "Summary of all failing tests":
            flush()
            in_summary_repeat = True
            b.drop(i, "repeated failures")
            continue
        m = SUITE_RE.match(line)
        if m:
            flush()
            saw = True
            block = "tree"
            if m.group(1) == "PASS":
                b.drop(i, "passed suites")
            elif in_summary_repeat and f"FAIL {m.group(2)}" in seen_headers:
                b.drop(i, "repeated failures")
            else:
                seen_headers.add(f"FAIL {m.group(2)}")
                b.keep(i, protect=True, text=f"FAIL {m.group(2)}")
            continue
        bullet = BULLET_RE.match(line)
        if bullet:
            flush()
            saw = True
            title = bullet.group(1).strip()
            last_at = ""
            if title == "Console":
                block = "console"
                b.keep(i, text="● Console")
                continue
            if in_summary_repeat and title in seen_headers:
                block = "dup"
                b.drop(i, "repeated failures")
                continue
            seen_headers.add(title)
            block = "failure"
            fail.start(i, f"● {title}")
            continue

        if block == "dup":
            b.drop(i, "repeated failures")
            continue
        if block == "tree":
            _tree_line(b, i, line, console, has_bullets)
            continue
        if block == "console":
            _console_line(b, i, line, console)
            continue
        if block == "failure":
            if not line.strip():
                b.drop(i, "blank")
                continue
            f = FRAME_LINE_RE.match(line)
            if f:
                fail.message.flush()
                if f.group(1) and not fail.repeated:
                    key = line.strip()
                    if key in seen_code:
                        fail.repeated = True
                        b.drop(i, "repeated code frames")
                    else:
                        seen_code.add(key)
                        b.keep(i)
                else:
                    b.drop(i, "code frames" if not fail.repeated else "repeated code frames")
                continue
            if CARET_LINE_RE.match(line):
                b.drop(i, "code frames")
                continue
            if AT_RE.match(line):
                stripped = line.strip()
                again = "repeated code frames" if fail.repeated else ("stack frames" if stripped == last_at else "")
                fail.frame(i, library=not js_frame_useful(line), repeated=again)
                last_at = stripped
                continue
            fail.message_line(i, protect=EXPECT_RE.match(line) is not None)
            continue
        # Outside any block: warnings jest prints itself, stray output.
        if not line.strip():
            b.drop(i, "blank")
            continue
        b.keep(i)
    flush()
    if not saw:
        return None
    return b.build(final=True)


def _summary(b: Builder, i: int, key: str, rest: str) -> None:
    """`Tests:`/`Test Suites:` (and a `Snapshots:` line with news) become the facts line."""
    if key in ("Tests", "Test Suites"):
        b.headline_from(i, f"{key}: {rest}")
        if key == "Tests":
            add_counts(b.facts, COUNT_RE.findall(rest))
        else:
            failed = re.search(r"(\d+) failed", rest)
            if failed:
                b.facts["failed suites"] = int(failed.group(1))
    elif key == "Snapshots" and re.search(r"failed|obsolete|written|updated", rest):
        b.headline_from(i, f"Snapshots: {rest}")
    else:
        b.drop(i, "timing")


def _tree_line(b: Builder, i: int, line: str, console: Run, has_bullets: bool) -> None:
    """A line of a suite's test tree."""
    if TREE_PASS_RE.match(line):
        b.drop(i, "passed" if ("✓" in line or "✔" in line or "√" in line) else "skipped")
    elif TREE_FAIL_RE.match(line):
        if has_bullets:
            b.drop(i, "status lines")  # the ● block names the test again
        else:
            b.keep(i, protect=True)
    elif not line.strip():
        b.drop(i, "blank")
    elif line.startswith(" "):
        b.drop(i, "tree")  # describe headings of the verbose tree
    else:
        console.add(i)  # unindented text inside the tree: output a test wrote directly


def _console_line(b: Builder, i: int, line: str, console: Run) -> None:
    """A line of a `● Console` block: warn/error labels stay, messages keep a head and tail."""
    c = CONSOLE_LABEL_RE.match(line)
    if c:
        if c.group(1) in ("warn", "error"):
            console.flush()
            b.keep(i, text=f"console.{c.group(1)}")
        else:
            b.drop(i, "console")
    elif not line.strip() or AT_RE.match(line):
        b.drop(i, "console")
    else:
        console.add(i)
