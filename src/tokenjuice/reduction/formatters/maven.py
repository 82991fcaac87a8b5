"""maven (compile/package/install/verify): errors, warnings, test failures and outcome.

Goes: `[INFO]` progress (plugin headers `--- x-plugin:1.0:goal @ app ---`, separators,
`Building …`, resource copying, `Compiling N source files`, downloads, per-class
passing `Tests run: … -- in X` lines, `Total time`/`Finished at`), the help boilerplate
after a failure (`-> [Help 1]`, `Re-run Maven using the -X switch`, …), and the second
listing of the compiler errors that `Failed to execute goal … Compilation failure`
repeats. Stays: every `[ERROR]`/`[WARNING]` (compiler diagnostics `File.java:[l,c] msg`
one line each, identical ones listed once with all locations; javac's `symbol:`/
`location:` details for errors), failing tests with their assertion message and first
frames in project code, the test totals, `Building jar:` results, the
reactor summary (dot leaders removed), the `-rf :module` resume hint, BUILD SUCCESS/FAILURE.
`[INFO] ` prefixes are removed from the lines that stay.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._compiler_diag import Collector, Diag, emit

LEVEL_RE = re.compile(r"^\[(INFO|WARNING|WARN|ERROR|DEBUG)\] ?(.*)$")
COMPILER_RE = re.compile(r"^(?P<loc>\S.*?\.(?:java|kt|scala|groovy):\[\d+(?:,\d+)?\]) (?P<msg>.*)$")
INFO_NOISE_RE = re.compile(
    r"^(?:Scanning for projects|-{3,}|-+< \S+ >-+|-+\[ \S+ \]-+|Building (?!jar:|war:|ear:)\S|"
    r"--- \S+ ---$|--- .* @ \S+ ---$|Using '\S+' encoding|skip non existing|Copying \d+ resources?|"
    r"Changes detected|Recompiling the module|"
    r"Nothing to compile|Compiling \d+ source files?|Using auto detected provider|T E S T S|Running \S+$|"
    r"Results:$|Total time:|Finished at:|Reactor Build Order:|Download(?:ing|ed) from|No sources to compile|"
    r"No tests to run|Tests are skipped|Not copying test resources|Not compiling test sources|"
    r"Loaded \d+ auto-discovered prefixes|Artifact \S+ is present in the local repository|"
    r"Deleting |Using incremental compilation|Installing \S+ to )"
)
OUTCOME_RE = re.compile(r"^BUILD (SUCCESS|FAILURE)$")
PROGRESS_RE = re.compile(r"^Progress \(\d+\)|^Download(?:ing|ed) from ")
PASSING_CLASS_RE = re.compile(r"^Tests run: \d+, Failures: 0, Errors: 0, Skipped: \d+, Time elapsed: .* -+ in ")
TESTS_TOTAL_RE = re.compile(r"^Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+$")
BOILERPLATE_RE = re.compile(
    r"^(?:-> \[Help \d+\]$|To see the full stack trace|Re-run Maven using the -X|For more information about the errors|"
    r"\[Help \d+\] https?://|Please refer to dump files|After correcting the problems, you can resume)"
)
REACTOR_ROW_RE = re.compile(r"^(\S.*?) \.{2,} ?(SUCCESS|FAILURE|SKIPPED)\b(.*)$")
BUILD_ORDER_ROW_RE = re.compile(r"^\S+ +\[(?:jar|pom|war|ear|maven-plugin|bundle)\]$")
FRAME_RE = re.compile(r"^\s+at (\S+)\(")
LIBRARY_FRAME_RE = re.compile(
    r"^(?:org\.junit|junit\.|java\.|javax\.|jdk\.|sun\.|org\.apache\.maven|org\.opentest4j|org\.hamcrest|"
    r"org\.assertj|org\.mockito|kotlin\.|scala\.|groovy\.|org\.codehaus\.groovy)"
)
MAX_USER_FRAMES = 3


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    col = Collector(lines, fi.weights)
    seen: set[str] = set()  # [ERROR]/[WARNING] contents already shown (maven repeats them)
    maven = False
    in_order = False  # the `Reactor Build Order:` list
    cur: Diag | None = None  # the compiler diagnostic whose detail lines may follow
    frames = 0  # project frames kept in the current stack trace
    for i, line in enumerate(lines):
        m = LEVEL_RE.match(line)
        if m is None:
            # Continuation: javac details, stack traces, test output.
            if cur is not None and line.startswith("  ") and line.strip():
                cur.child(i, "  " + " ".join(line.split()))
                seen.add(line.strip())
                continue
            f = FRAME_RE.match(line)
            if f:
                if frames < MAX_USER_FRAMES and not LIBRARY_FRAME_RE.match(f.group(1)):
                    frames += 1
                    col.keep(i, text=line.replace("\t", "  "))
                else:
                    col.drop(i, "stack frames")
                continue
            frames = 0
            if not line.strip():
                col.drop(i, "blank")
            elif line.lstrip().startswith("... ") and line.rstrip().endswith("more"):
                col.drop(i, "stack frames")
            else:
                col.keep(i)
            continue
        maven = True
        level, text = m.group(1), m.group(2).rstrip()
        cur = None
        frames = 0
        if not text.strip():
            col.drop(i, "blank")
            continue
        if level == "INFO":
            text = text.strip()
            if in_order and BUILD_ORDER_ROW_RE.match(text):
                col.drop(i, "progress")
                continue
            in_order = text == "Reactor Build Order:"
            o = OUTCOME_RE.match(text)
            if o:
                col.keep(i, protect=True, text=text)
            elif PASSING_CLASS_RE.match(text) or INFO_NOISE_RE.match(text) or PROGRESS_RE.match(text):
                col.drop(i, "progress")
            elif TESTS_TOTAL_RE.match(text):
                col.keep(i, protect=True, text=text)
            else:
                r = REACTOR_ROW_RE.match(text)
                col.keep(i, text=f"{r.group(1)}: {r.group(2)}{r.group(3)}" if r else text)
            continue
        if level == "DEBUG":
            col.drop(i, "debug")
            continue
        # WARNING / ERROR
        if BOILERPLATE_RE.match(text):
            col.drop(i, "help boilerplate")
            continue
        key = text.strip()
        if key in seen:
            col.drop(i, "repeated")
            continue
        seen.add(key)
        c = COMPILER_RE.match(text)
        if c:
            sev = "error" if level == "ERROR" else "warning"
            d = col.new(i, sev, c.group("msg"), c.group("loc"))
            d.prefix, d.sep = f"[{level}] ", " "
            cur = col.diag(d)
            continue
        if level == "ERROR" and text.startswith("  ") and col.items:
            col.keep(i, protect=True)  # an indented detail of the previous error
            continue
        col.keep(i, protect=level == "ERROR" or TESTS_TOTAL_RE.match(text) is not None)
    if not maven:
        return None
    b = Builder(lines, fi.weights)
    # Counted here, not by rule counters: maven lists each compiler error twice.
    diags = [it for it in col.items if isinstance(it, Diag)]
    for sev in ("error", "warning"):
        n = sum(1 for d in diags if d.severity == sev)
        if n:
            b.facts[f"compiler {sev}"] = n
    emit(b, col.items)
    return b.build(final=True)
