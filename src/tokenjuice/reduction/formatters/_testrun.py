"""Helpers shared by the test-runner formatters (unittest, jest, go test, cargo test, …).

Not a formatter itself (no `format`): the test-runner modules import it. What they
share: keeping the head and tail of a run of lines (captured output, long diffs), and
telling stack frames inside dependencies, runtimes and the standard library (which an
agent never edits) from frames in the project.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters._common import Builder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# Frames an agent cannot fix: package managers' install dirs, language runtimes and
# standard libraries, test-framework internals.
VENDOR_RE = re.compile(
    r"node_modules/|node:internal|\(internal/|\(node:|<node_internals>|"
    r"/lib/python\d|site-packages/|dist-packages/|<frozen |"
    r"/usr/lib/go|/usr/local/go/src/|/go/src/(?:testing|runtime|reflect)/|"
    r"/rustc/[0-9a-f]|/library/(?:std|core|alloc|test)/src/|"
    r"\bjava\.base/|\bjdk\.internal\.|\bsun\.reflect\.|\bjava\.lang\.reflect\.|"
    r"\borg\.junit\.|\borg\.apache\.maven\.|\borg\.gradle\.|\bworker\.org\.gradle\.|"
    r"/usr/share/php/|/vendor/phpunit/|/vendor/bin/phpunit|/usr/bin/phpunit|"
    r"/gems/|/usr/lib/ruby/|/rspec-core|/rspec-expectations|/rspec-support|"
    r"\bbun:(?:test|internal|main)\b"
)


# A JS stack frame with a source position (`at f (file.js:3:9)`, `at file.js:3:9`).
JS_LOCATED_RE = re.compile(r":\d+:\d+\)?,?(?: \{)?$")


def is_vendor(line: str) -> bool:
    return VENDOR_RE.search(line) is not None


def js_frame_useful(frame: str) -> bool:
    """A JS `at …` frame worth showing: it has a position and is not in a dependency."""
    return JS_LOCATED_RE.search(frame) is not None and VENDOR_RE.search(frame) is None


def keep_head_tail(b: Builder, idxs: list[int], head: int, tail: int, what: str) -> None:
    """Keep the first `head` and last `tail` of `idxs`; one marker for the rest."""
    if len(idxs) <= head + tail + 1:
        for j in idxs:
            b.keep(j)
        return
    for j in idxs[:head]:
        b.keep(j)
    cut = idxs[head : len(idxs) - tail] if tail else idxs[head:]
    n = sum(b.src_weights[j] for j in cut)
    b.add(f"… {n:,} {what} lines omitted …")
    for j in cut:
        b.drop(j, what)
    for j in idxs[len(idxs) - tail :] if tail else ():
        b.keep(j)


class Run:
    """A run of lines collected now and emitted later as head + tail (see keep_head_tail)."""

    __slots__ = ("b", "head", "idxs", "tail", "what")

    def __init__(self, b: Builder, head: int, tail: int, what: str) -> None:
        self.b = b
        self.head = head
        self.tail = tail
        self.what = what
        self.idxs: list[int] = []

    def add(self, i: int) -> None:
        self.idxs.append(i)

    def flush(self) -> None:
        if self.idxs:
            keep_head_tail(self.b, self.idxs, self.head, self.tail, self.what)
            self.idxs = []


def add_counts(facts: dict[str, int], pairs: list[tuple[str, str]], aliases: dict[str, str] | None = None) -> None:
    """Add `(number, word)` pairs found in a summary line to `facts`."""
    for num, word in pairs:
        key = word.lower()
        if aliases:
            key = aliases.get(key, key)
        facts[key] = facts.get(key, 0) + int(num.replace(",", ""))


# Rust: a backtrace frame is `  N: symbol` followed by `at path:line:col`; frames of
# the standard library, the panic machinery and the test harness are not the project's.
RUST_FRAME_RE = re.compile(r"^\s*(\d+): (\S.*)$")
RUST_AT_RE = re.compile(r"^\s+at (\S+)$")
RUST_STD_SYMBOL_RE = re.compile(
    r"^(?:std::|core::|alloc::|test::|__rustc::|rust_begin_unwind|<(?:fn|std|core|alloc|test)\b|"
    r"__libc_start|_start\b|start_thread|clone3?\b|__clone)"
)
RUST_PANIC_RE = re.compile(r"^thread '[^']*'(?: \(\d+\))? panicked at (\S+:\d+:\d+):?$")
RUST_NOTE_RE = re.compile(r"^note: (?:run with `RUST_BACKTRACE=|Some details are omitted)")


def rust_frame_is_std(symbol: str) -> bool:
    return RUST_STD_SYMBOL_RE.match(symbol) is not None


class RustPanic:
    """A panic and its backtrace in libtest output, fed line by line.

    The `panicked at file:line:col` line and the first message line are protected, the
    rest of the message is windowed by `message`, std/harness frames go and at most
    `max_frames` project frames stay, RUST_BACKTRACE hints go. `step` returns True for a
    line it consumed; `flush` is called before a panic or backtrace starts.
    """

    __slots__ = ("b", "first", "flush", "frames", "keep_at", "max_frames", "message", "state")

    def __init__(self, b: Builder, message: Run, max_frames: int, flush: Callable[[], None]) -> None:
        self.b = b
        self.message = message
        self.max_frames = max_frames
        self.flush = flush
        self.state: str | None = None  # "panic", "backtrace"
        self.first = False
        self.frames = 0
        self.keep_at = False

    def step(self, i: int, line: str) -> bool:
        b = self.b
        if RUST_PANIC_RE.match(line):
            self.flush()
            self.state, self.first = "panic", True
            b.keep(i, protect=True)
            return True
        if line == "stack backtrace:":
            self.flush()
            self.state, self.frames = "backtrace", 0
            b.drop(i, "std frames")
            return True
        if RUST_NOTE_RE.match(line):
            self.flush()
            b.drop(i, "hints")
            return True
        if self.state == "backtrace":
            f = RUST_FRAME_RE.match(line)
            if f:
                self.keep_at = not rust_frame_is_std(f.group(2)) and self.frames < self.max_frames
                self.frames += self.keep_at
            if f or RUST_AT_RE.match(line):
                if self.keep_at:
                    b.keep(i)
                else:
                    b.drop(i, "std frames")
                return True
            self.state = None
        elif self.state == "panic":
            if line and not line.startswith("note: "):
                if self.first:
                    self.first = False
                    b.keep(i, protect=True)
                else:
                    self.message.add(i)
                return True
            self.message.flush()
            self.state = None
        return False


class Failure:
    """The failure block being read, the state machine the test-runner formatters share.

    `start` keeps a failure's header, protected; in its body the first message line
    (the error) is protected (`message_line`), project stack frames stay up to
    `max_frames` (`frame`), and the rest of the message keeps a head and tail. `flush`
    ends every open run of lines (the message and the runner's other `runs`) before
    a line that belongs to none of them.
    """

    __slots__ = ("b", "first", "frames", "max_frames", "message", "open", "repeated", "runs")

    def __init__(self, b: Builder, message: Run, *runs: Run, max_frames: int = 0) -> None:
        self.b = b
        self.message = message
        self.runs = (message, *runs)
        self.max_frames = max_frames
        self.open = False  # inside a failure's body
        self.first = False  # its first message line is still to come
        self.frames = 0  # project frames kept so far
        self.repeated = False  # its code was already shown (`test.each`): frames go

    def flush(self) -> None:
        for run in self.runs:
            run.flush()

    def start(self, i: int | None = None, text: str | None = None) -> None:
        """A new failure; input line `i` (shown as `text`) is its header, protected."""
        self.flush()
        self.open = self.first = True
        self.frames = 0
        self.repeated = False
        if i is not None:
            self.b.keep(i, protect=True, text=text)

    def error(self, i: int) -> None:
        """An error line that is the failure's header and first message line at once;
        the frame count and `repeated` carry on (bun shows the code frame before it)."""
        self.flush()
        self.open = True
        self.first = False
        self.b.keep(i, protect=True)

    def close(self) -> None:
        """The failure is over (the next one starts afresh)."""
        self.flush()
        self.open = False
        self.frames = 0
        self.repeated = False

    def frame(
        self, i: int, *, library: bool, repeated: str = "", cap: str = "stack frames", text: str | None = None
    ) -> bool:
        """A stack frame: a library one goes, as does one beyond the cap (`cap`) or one
        the runner saw already (`repeated` is then the reason); a project frame stays
        (True), shown as `text` when given."""
        self.message.flush()
        if library:
            self.b.drop(i, "library frames")
        elif repeated:
            self.b.drop(i, repeated)
        elif self.frames >= self.max_frames:
            self.b.drop(i, cap)
        else:
            self.frames += 1
            self.b.keep(i, text=text)
            return True
        return False

    def message_line(self, i: int, *, protect: bool = False, text: str | None = None) -> None:
        """A line of the message: the first one and a `protect` one (Expected/Received)
        are kept and protected, the others windowed to a head and tail."""
        if self.first:
            self.first = False
            self.b.keep(i, protect=True, text=text)
        elif protect:
            self.message.flush()
            self.b.keep(i, protect=True, text=text)
        else:
            self.message.add(i)
