"""gradle / gradlew builds: compiler diagnostics, failing tests, what went wrong, outcome.

Goes: task progress (`> Task :app:jar`, `:compileJava UP-TO-DATE`, old consoles'
`:classes`), daemon start-up and JVM banners, `--info` chatter (up-to-date checks,
caches, task threads, test-worker start/stop), the JDK's SecurityManager deprecation
notices from Gradle's own test worker, the `* Try:` advice and help links, the
`--warning-mode` advice under the deprecation notice. Failed tasks (`… FAILED`) stay.
javac diagnostics fold to one line each (errors keep symbol/location; see `javac`),
Kotlin `e:`/`w:` lines are grouped like other diagnostics; failing tests with their
exception line, test counts, `* What went wrong:` with its explanation, and
BUILD SUCCESSFUL/FAILED stay. Old Gradle consoles print a task name and the compiler's
first line on one line (`:compileJava/src/App.java:3: error: …`) and a bare ` FAILED`
after the task's output: they are split, and the ` FAILED` line names its task. The
rich console's progress bar and worker status fragments (left run together once their
cursor moves are stripped) go.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._compiler_diag import Collector, emit
from tokenjuice.reduction.formatters.javac import JavacParser

_OUTCOME = r"(?: (?:UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE))?"
TASK_RE = re.compile(rf"^(?:> Task )?:[\w:.-]+{_OUTCOME}$")
TASK_FAILED_RE = re.compile(r"^(?:> Task )?:[\w:.-]+ FAILED$")
GLUED_RE = re.compile(r"^(:[\w:-]*?[a-z])((?:/|[A-Za-z]:\\|WARNING: |Note: |warning: |error: )\S.*)$")
KOTLIN_RE = re.compile(r"^(?P<sev>[ew]): (?:file://)?(?P<loc>\S+?(?::\d+:\d+|: \(\d+, \d+\)))(?::)? (?P<msg>.*)$")
NOISE_RE = re.compile(
    r"^(?:Starting a Gradle Daemon|Daemon will be stopped at the end of the build|"
    r"openjdk version \"|OpenJDK (?:Runtime Environment|64-Bit Server VM)|"
    r"To honour the JVM settings for this build|Configuration cache entry (?:reused|stored)|"
    r"Reusing configuration cache|Calculating task graph|Type-safe project accessors is an incubating|"
    r"WARNING: (?:A terminally deprecated method in java\.lang\.System has been called|"
    r"System::setSecurityManager (?:has been called by org\.gradle|will be removed)|"
    r"Please consider reporting this to the maintainers of org\.gradle))"
)
# `--info` chatter: task scheduling, up-to-date checks, caches, daemon and test-worker life.
INFO_RE = re.compile(
    r"^(?:Putting task artifact state for task|Skipping task '[^']*' as it has|Up-to-date check for task|"
    r"  (?:Output|Input) property '|  No history is available|  Task '[^']*' class has changed|"
    r"All input files are considered out-of-date|Compiling with (?:JDK Java compiler API|Java command line compiler)|"
    r"file or directory '[^']*', not found|Evaluating (?:root )?project '|Starting process 'Gradle Test Executor|"
    r"Successfully started process 'Gradle Test Executor|Gradle Test Executor \d+ (?:started|finished) executing tests|"
    r"Finished generating test (?:XML|html) results|Generating HTML test report|Initialized native services in|"
    r"The client will now receive all logging|Starting \d+\w* build in daemon|Using \d+ worker leases|"
    r"Creating new cache for|Closing daemon's stdin|The daemon will no longer process|Starting Build$|"
    r"Settings evaluated using|Projects loaded\. Root project|Included projects: |All projects evaluated\.|"
    r"Selected primary task|Tasks to be executed: |:[\w:.-]+ \(Thread\[[^]]*\]\) (?:started|completed)|"
    r"Resolve mutations for|Caching disabled for task|Build cache key for task|Watching the file system|"
    r"Received \d+ file system events|Virtual file system retained information)"
)
# The rich console redraws a progress bar and worker status lines with cursor moves; what
# survives escape stripping is their text run together on a line.
RICH_PROGRESS_RE = re.compile(r"^(?:<[-=]+> \d+%(?: [A-Z]+ \[[\dms ]+\])?\s*)+$")
RICH_STATUS_RE = re.compile(
    r"^(?:> (?:Connecting to Daemon|Starting Daemon|IDLE|root project|settings|loading|Configuring|"
    r"Resolving [^>]*|:[\w:.-]+)\s*)+$"
)
TRY_RE = re.compile(r"^\* Try:$")
HELP_RE = re.compile(
    r"^(?:\* Get more help at |You can use '--warning-mode all' to show|"
    r"For more on this, please refer to https://docs\.gradle\.org|"
    r"Use '--warning-mode all' to show the individual deprecation warnings)"
)
SECTION_RE = re.compile(r"^\* (?:What went wrong|Where|Exception is):$")
TEST_FAILED_RE = re.compile(r"^\S.* > .+ FAILED$")
TEST_COUNT_RE = re.compile(r"^\d+ tests? completed(?:, \d+ (?:failed|skipped))*$")
OUTCOME_RE = re.compile(r"^BUILD (?:SUCCESSFUL|FAILED)\b")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = list(fi.lines)
    col = Collector(lines, fi.weights)
    # Split glued task names first so the javac parser sees its own lines.
    split: dict[int, str] = {}
    for i, line in enumerate(lines):
        g = GLUED_RE.match(line)
        if g:
            split[i] = g.group(1)
            lines[i] = g.group(2)
    javac = JavacParser(lines, col)
    gradle = False
    skipping = False  # inside the `* Try:` block
    task: str | None = None  # the task whose output was glued to its name
    for i, line in enumerate(lines):
        if i in split:
            gradle = True
            task = split[i]
        at = line.find("> Task :")
        if at > 0 and line[:at].startswith("> "):
            line = lines[i] = line[at:]  # status fragments glued before the task line
        if RICH_PROGRESS_RE.match(line) or RICH_STATUS_RE.match(line):
            col.drop(i, "progress")
            continue
        if line == " FAILED" and task is not None:
            # Old consoles end a task's output with a bare ` FAILED`: name the task again.
            col.keep(i, protect=True, text=f"{task} FAILED")
            continue
        if skipping:
            if line.strip() and not line.startswith("* ") and not OUTCOME_RE.match(line):
                col.drop(i, "advice")
                continue
            skipping = False
        if javac.feed(i, line):
            continue
        k = KOTLIN_RE.match(line)
        if k:
            sev = "error" if k.group("sev") == "e" else "warning"
            d = col.new(i, sev, k.group("msg"), k.group("loc"))
            d.prefix, d.sep = f"{k.group('sev')}: ", " "
            col.diag(d)
            continue
        if TASK_FAILED_RE.match(line):
            gradle = True
            col.keep(i, protect=True)
        elif TASK_RE.match(line):
            gradle = True
            col.drop(i, "tasks")
        elif NOISE_RE.match(line):
            col.drop(i, "noise")
        elif INFO_RE.match(line):
            col.drop(i, "info logging")
        elif TRY_RE.match(line):
            gradle = True
            skipping = True
            col.drop(i, "advice")
        elif HELP_RE.match(line):
            col.drop(i, "advice")
        elif not line.strip():
            col.drop(i, "blank")
        elif OUTCOME_RE.match(line) or TEST_FAILED_RE.match(line) or TEST_COUNT_RE.match(line):
            gradle = True
            col.keep(i, protect=True)
        else:
            gradle = gradle or SECTION_RE.match(line) is not None
            col.keep(i)
    if not gradle:
        return None
    b = Builder(lines, fi.weights)
    emit(b, col.items)
    return b.build(final=True)
