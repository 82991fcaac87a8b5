"""javac on small Java sources: type errors, lint warnings on a successful compile, and a
large run after an API change (dozens of errors across many classes).

Signals: the same sources compiled through the javax.tools API with a
DiagnosticCollector (`_java_diag`): each diagnostic's `file:line` and message.
"""

from __future__ import annotations

from typing import Any

from capture._java_diag import java_diags, javac_cli_signals
from capture._lib import Workspace

RULE = "build/javac"
FAMILY = "javac"

APP = """
package demo;

import java.util.*;

public class App {
    @Deprecated
    static int legacyRate() { return 1; }

    public static void main(String[] args) {
        int x = parseCount(args);
        String label = 3;
        List raw = new ArrayList();
        raw.add("x");
        List<String> names = new ArrayList<>();
        names.add(4);
        System.out.println(x + label + names + legacyRate());
    }

    static <T extends Comparable<T>> T max(List<T> xs) { return xs.get(0); }

    void call() { max(new ArrayList<Object>()); }
}
"""


def _warning_class(k: int) -> str:
    return f"""
package demo.util;

import java.util.*;

public class Helper{k:02d} {{
    @SuppressWarnings("removal")
    private final Integer boxed = new Integer({k});

    public List cache() {{
        List items = new ArrayList();
        items.add("helper{k:02d}");
        return items;
    }}

    public int size(Map<String, Object> m) {{
        Map copy = new HashMap(m);
        return copy.size() + (int) (long) {k};
    }}
}}
"""


def _service_class(k: int) -> str:
    """Callers of the Ledger API after `post(String, long)` became `post(Entry)`."""
    return f"""
package demo.svc;

import demo.core.Ledger;

public class Service{k:02d} {{
    private final Ledger ledger = new Ledger();

    public void run() {{
        ledger.post("acct{k}", {k}L);
        long b = ledger.balance("acct{k}");
        ledger.close();
    }}
}}
"""


LEDGER = """
package demo.core;

public class Ledger {
    public record Entry(String account, long cents) {}

    public void post(Entry e) {}

    public long balanceOf(String account) { return 0L; }
}
"""


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("javac", "java")
    versions = {"javac": ws.version(["javac", "-version"])}
    fixtures: list[dict[str, Any]] = []
    source = "the same sources compiled through javax.tools with a DiagnosticCollector: file:line and message"

    def add(id: str, r: Any, opts: list[str], files: list[str], cwd: str) -> None:
        sigs = javac_cli_signals(java_diags(ws, cwd, [*opts, "-d", str(ws.path("_sigout"))], files))
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=sigs, signal_source=source, tool_version=versions)
        )

    ws.write("p1/src/demo/App.java", APP)
    r = ws.run("javac -Xlint:all -d out src/demo/App.java", "p1")
    add("javac-errors", r, ["-Xlint:all"], ["src/demo/App.java"], "p1")
    r = ws.run("javac -d out src/demo/App.java", "p1")
    add("javac-errors-default-lint", r, [], ["src/demo/App.java"], "p1")

    helpers = [f"src/demo/util/Helper{k:02d}.java" for k in range(30)]
    for k, f in enumerate(helpers):
        ws.write(f"p2/{f}", _warning_class(k))
    r = ws.run("javac -Xlint:all -d out " + " ".join(helpers), "p2")
    add("javac-lint-warnings-large", r, ["-Xlint:all"], helpers, "p2")

    services = [f"src/demo/svc/Service{k:02d}.java" for k in range(30)]
    ws.write("p3/src/demo/core/Ledger.java", LEDGER)
    for k, f in enumerate(services):
        ws.write(f"p3/{f}", _service_class(k))
    files = ["src/demo/core/Ledger.java", *services]
    r = ws.run("javac -d out " + " ".join(files), "p3")
    add("javac-api-change-many-errors", r, [], files, "p3")
    return fixtures
