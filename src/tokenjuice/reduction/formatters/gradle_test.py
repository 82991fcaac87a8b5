"""gradle test / check / build (old `:task` and modern `> Task :x` consoles).

Kept: `Class > method FAILED` lines with their exception line, `Caused by:` lines and
up to three project frames (JUnit/JDK/gradle frames go), javac errors, the failing
task line, "What went wrong" and the report pointer. Dropped: task progress
(`:compileJava`, `> Task :classes UP-TO-DATE`), PASSED/SKIPPED event lines, the JVM's
SecurityManager warnings about Gradle's own worker, daemon/JDK banners, the `* Try:`
and help boilerplate, `actionable tasks`. `N tests completed, M failed` and the
BUILD verdict become the facts line.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._testrun import Run, add_counts, is_vendor

TASK_RE = re.compile(r"^(?:> Task )?(:[\w:.-]*\w)(?: (UP-TO-DATE|NO-SOURCE|FROM-CACHE|SKIPPED|FAILED))?(.*)$")
EVENT_RE = re.compile(r"^(\S.*?) > (\S.*?) (FAILED|PASSED|SKIPPED|STANDARD_OUT|STANDARD_ERROR)$")
COMPLETED_RE = re.compile(r"^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?$")
VERDICT_RE = re.compile(r"^BUILD (SUCCESSFUL|FAILED) in \S+$")
AT_RE = re.compile(r"^\s+at \S")
MORE_RE = re.compile(r"^\s+\.\.\. \d+ more$")
BANNER_RE = re.compile(
    r"^(?:openjdk version |OpenJDK Runtime Environment|OpenJDK 64-Bit Server VM|Starting a Gradle Daemon|"
    r"Daemon will be stopped|\d+ actionable tasks?:|<-*> \d+% |Configuration on demand|"
    r"Deprecated Gradle features were used|You can use '--warning-mode all'|For more on this, please refer to)"
)
JVM_WARNING_RE = re.compile(
    r"^WARNING: (?:A terminally deprecated method in java\.lang\.System|System::setSecurityManager|"
    r"Please consider reporting this to the maintainers of org\.gradle)"
)
GLUED_WARNING_RE = re.compile(r"^(:[\w:.-]+?)(WARNING: .*)$")
TRY_RE = re.compile(r"^\* (Try|Get more help at)")
JAVAC_RE = re.compile(r"^\S+\.(?:java|kt|groovy|scala):\d+: (?:error|warning): |^e: |^w: ")

MAX_FRAMES = 3
OUTPUT_HEAD = 3
OUTPUT_TAIL = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    saw = False
    in_failure = False
    in_try = False
    frames = 0
    output = Run(b, OUTPUT_HEAD, OUTPUT_TAIL, "output")

    for i, line in enumerate(lines):
        stripped = line.strip()
        # each pattern tried only where its literal is: most lines are events or output
        c = COMPLETED_RE.match(stripped) if "completed" in stripped else None
        if c:
            output.flush()
            saw = True
            in_failure = False
            b.headline_from(i, stripped)
            add_counts(b.facts, [(c.group(1), "tests"), (c.group(2) or "0", "failed"), (c.group(3) or "0", "skipped")])
            continue
        v = VERDICT_RE.match(stripped) if stripped.startswith("BUILD ") else None
        if v:
            output.flush()
            in_try = False
            b.headline_from(i, f"BUILD {v.group(1)}")
            continue
        if stripped.startswith("* ") and TRY_RE.match(stripped):
            output.flush()
            in_try = True
            b.drop(i, "gradle hints")
            continue
        if in_try:
            if stripped.startswith("* ") or not stripped:
                in_try = False
            else:
                b.drop(i, "gradle hints")
                continue
        e = EVENT_RE.match(stripped) if " > " in stripped else None
        if e:
            output.flush()
            saw = True
            status = e.group(3)
            if status == "FAILED":
                in_failure = True
                frames = 0
                b.keep(i, protect=True, text=stripped)
            else:
                in_failure = status.startswith("STANDARD")
                b.drop(i, "passed" if status == "PASSED" else ("skipped" if status == "SKIPPED" else "output headers"))
            continue
        if JVM_WARNING_RE.match(stripped):
            b.drop(i, "gradle jvm warnings")
            continue
        glued = GLUED_WARNING_RE.match(stripped)
        if glued:
            # `:testWARNING: …`: the JVM's warning was printed right after the task name.
            saw = saw or glued.group(1).endswith("test")
            b.drop(i, "task progress")
            if not JVM_WARNING_RE.match(glued.group(2)):
                b.add(glued.group(2))
            continue
        t = TASK_RE.match(stripped)
        if t and not in_failure:
            output.flush()
            task, state, rest = t.group(1), t.group(2), t.group(3)
            saw = saw or task.endswith(("test", "check"))
            if state == "FAILED":
                b.keep(i, protect=True, text=f"{task} FAILED")
            else:
                b.drop(i, "task progress")
            if rest.strip() and state != "FAILED":
                # `:testWARNING: …` / `:compileJava/path/X.java:3: error: …` share the task's line.
                b.add(rest.strip(), protect=JAVAC_RE.match(rest.strip()) is not None)
            continue
        if BANNER_RE.match(stripped):
            b.drop(i, "banners")
            continue
        if in_failure:
            if AT_RE.match(line):
                if is_vendor(line.replace("app//", "")) or frames >= MAX_FRAMES:
                    b.drop(i, "library frames" if is_vendor(line) else "stack frames")
                else:
                    frames += 1
                    b.keep(i)
                continue
            if MORE_RE.match(line):
                b.drop(i, "library frames")
                continue
            if not stripped:
                b.drop(i, "blank")
                continue
            if line.startswith("    ") or stripped.startswith("Caused by:"):
                frames = 0 if stripped.startswith("Caused by:") else frames
                b.keep(i, protect=True)
                continue
            in_failure = False
        if not stripped:
            output.flush()
            b.drop(i, "blank")
            continue
        if JAVAC_RE.match(stripped) or stripped.startswith(("FAILURE:", "* What went wrong", "> ", "Execution failed")):
            output.flush()
            b.keep(i, protect=JAVAC_RE.match(stripped) is not None or stripped.startswith("FAILURE:"))
            continue
        output.add(i)
    output.flush()
    if not saw:
        return None
    return b.build(final=True)
