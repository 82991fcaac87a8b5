"""gradle builds: the Debian gradle (4.4.1) runs offline here with its own user home
(dependencies from ~/.m2 through mavenLocal()): compile errors (plain and with the rich
console's colours and redraws), a multi-project
success (plain and `--info`), a dependency that cannot be resolved. Builds that run
tests belong to the test-runner rule (tests/gradle-test): these use `assemble` or
`build -x test`.
Modern Gradle (8.x, `> Task :app:compileJava FAILED`, Kotlin `e: file:///…`) cannot be
downloaded here, so those fixtures are synthesized from its documented console format.

Signals: compiler errors from the sources compiled through javax.tools with a
DiagnosticCollector (`_java_diag`; Gradle prints javac's simplified names); outcomes
from the exit status; the missing dependency from the build file the project was written with.
"""

from __future__ import annotations

from typing import Any

from capture._java_diag import java_diags, javac_cli_signals
from capture._lib import Workspace, sig, synthesized

RULE = "build/gradle"
FAMILY = "gradle"

BUILD = """
apply plugin: 'java'
sourceCompatibility = 1.8
targetCompatibility = 1.8
repositories { mavenLocal() }
dependencies { testCompile 'junit:junit:4.13.2' }
"""

BROKEN = """
package demo;

import java.util.*;

public class Inventory {
    private final Map<String, Integer> stock = new HashMap<>();

    public void add(String sku, int n) { stock.merge(sku, n, Integer::sum); }

    public int count(String sku) {
        Integer n = stock.get(sku);
        String label = n;
        return n == null ? 0 : n + reserved(sku);
    }
}
"""

GOOD = """
package demo;

import java.util.*;

public class Inventory {
    private final Map<String, Integer> stock = new HashMap<>();

    public void add(String sku, int n) { stock.merge(sku, n, Integer::sum); }

    public int count(String sku) {
        Integer n = stock.get(sku);
        return n == null ? 0 : n;
    }
}
"""


def capture(ws: Workspace) -> list[dict[str, Any]]:
    fixtures: list[dict[str, Any]] = []
    if ws.which("gradle") and ws.which("java"):
        home = ws.path("gradle-home")
        ws.env["GRADLE_USER_HOME"] = str(home)
        try:
            fixtures += _real(ws)
        finally:
            # Stop the daemon this capture started (its registry lives in our user home).
            ws.sh("gradle --stop", check=False)
    fixtures += _synthesized()
    return fixtures


def _real(ws: Workspace) -> list[dict[str, Any]]:
    versions = {"gradle": "4.4.1 (Debian)", "java": ws.version(["java", "-version"])}
    out: list[dict[str, Any]] = []

    def add(id: str, r: Any, signals: list[Any], source: str) -> None:
        out.append(ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=source, tool_version=versions))

    p = ws.path("inv")
    ws.write("inv/settings.gradle", "rootProject.name = 'inventory'\n")
    ws.write("inv/build.gradle", BUILD)
    ws.write("inv/src/main/java/demo/Inventory.java", BROKEN)
    src = "src/main/java/demo/Inventory.java"
    r = ws.run("gradle --offline assemble", "inv")
    diags = java_diags(ws, str(p), ["-source", "8", "-target", "8", "-d", str(ws.path("_sigout"))], [str(p / src)])
    add(
        "gradle-compile-errors",
        r,
        [*javac_cli_signals(diags), sig("outcome", "BUILD FAILED")],
        "sources compiled through javax.tools with a DiagnosticCollector: file:line and message; outcome from "
        "the exit status",
    )

    # The rich console (what a terminal gets): colours and cursor-movement redraws.
    r = ws.run("gradle --offline --console=rich assemble", "inv")
    add(
        "gradle-compile-errors-rich-console",
        r,
        [*javac_cli_signals(diags), sig("outcome", "BUILD FAILED")],
        "sources compiled through javax.tools with a DiagnosticCollector: file:line and message; outcome from "
        "the exit status",
    )

    # A multi-project build that succeeds: plain, then with --info (large). Builds that run
    # tests belong to the test-runner rule (tests/gradle-test), so these exclude them.
    subs = ["catalog", "pricing", "orders", "billing", "shipping", "reports", "search", "web"]
    ws.write("multi/settings.gradle", "rootProject.name = 'shop'\ninclude " + ", ".join(f"'{s}'" for s in subs) + "\n")
    ws.write("multi/build.gradle", "subprojects {\n" + BUILD + "}\n")
    for s in subs:
        ws.write(
            f"multi/{s}/src/main/java/shop/{s}/Part.java",
            f"package shop.{s};\npublic class Part {{ public int id() {{ return 1; }} }}\n",
        )
        ws.write(
            f"multi/{s}/src/test/java/shop/{s}/PartTest.java",
            f"package shop.{s};\nimport static org.junit.Assert.*;\nimport org.junit.Test;\n"
            "public class PartTest { @Test public void id() { assertEquals(1, new Part().id()); } }\n",
        )
    r = ws.run("gradle --offline build -x test", "multi")
    add("gradle-multiproject-success", r, [sig("outcome", "BUILD SUCCESSFUL")], "outcome from the exit status")
    ws.sh("gradle --offline -q clean", "multi")
    r = ws.run("gradle --offline build -x test --info", "multi")
    add(
        "gradle-multiproject-info-large",
        r,
        [sig("outcome", "BUILD SUCCESSFUL")],
        "outcome from the exit status",
    )

    ws.write("dep/settings.gradle", "rootProject.name = 'reports'\n")
    ws.write(
        "dep/build.gradle",
        "apply plugin: 'java'\nrepositories { mavenLocal() }\n"
        "dependencies { compile 'com.example.tj:pdf-render:2.3.1' }\n",
    )
    ws.write("dep/src/main/java/demo/Report.java", "package demo;\npublic class Report {}\n")
    r = ws.run("gradle --offline assemble", "dep")
    add(
        "gradle-unresolved-dependency",
        r,
        [sig("dependency", "com.example.tj:pdf-render:2.3.1"), sig("outcome", "BUILD FAILED")],
        "the dependency the build file declares (absent from the local repository); outcome from the exit status",
    )
    return out


def _synthesized() -> list[dict[str, Any]]:
    source = (
        "Gradle console output (plain console): https://docs.gradle.org/current/userguide/command_line_interface.html "
        "and task outcome labels https://docs.gradle.org/current/javadoc/org/gradle/testkit/runner/TaskOutcome.html; "
        "javac's diagnostic format as captured in the javac fixtures"
    )
    app = "/home/dev/shop/app/src/main/java/com/example/shop"
    java_fail = (
        "> Task :lib:compileJava UP-TO-DATE\n"
        "> Task :lib:processResources NO-SOURCE\n"
        "> Task :lib:classes UP-TO-DATE\n"
        "> Task :lib:jar UP-TO-DATE\n"
        "> Task :app:compileJava FAILED\n"
        f"{app}/Cart.java:14: error: cannot find symbol\n"
        "        return items.stream().mapToLong(Item::priceCents).sum() + shippingFee;\n"
        "                                                                  ^\n"
        "  symbol:   variable shippingFee\n"
        "  location: class Cart\n"
        f"{app}/Cart.java:21: error: incompatible types: possible lossy conversion from long to int\n"
        "        int total = totalCents();\n"
        "                              ^\n"
        f"{app}/Checkout.java:9: warning: [deprecation] legacyTax() in Tax has been deprecated\n"
        "        long tax = Tax.legacyTax(cart);\n"
        "                      ^\n"
        "2 errors\n"
        "1 warning\n"
        "\n"
        "FAILURE: Build failed with an exception.\n"
        "\n"
        "* What went wrong:\n"
        "Execution failed for task ':app:compileJava'.\n"
        "> Compilation failed; see the compiler error output for details.\n"
        "\n"
        "* Try:\n"
        "> Run with --info option to get more log output.\n"
        "> Run with --scan to get full insights.\n"
        "\n"
        "* Get more help at https://help.gradle.org\n"
        "\n"
        "BUILD FAILED in 3s\n"
        "3 actionable tasks: 1 executed, 2 up-to-date\n"
    )
    kt = "file:///home/dev/notes/app/src/main/kotlin/com/example/notes"
    kotlin_fail = (
        "> Task :app:checkKotlinGradlePluginConfigurationErrors\n"
        "> Task :app:processResources NO-SOURCE\n"
        "> Task :app:compileKotlin FAILED\n"
        f"e: {kt}/NoteRepository.kt:18:24 Unresolved reference: findByTitle\n"
        f"e: {kt}/NoteRepository.kt:27:9 Type mismatch: inferred type is String? but String was expected\n"
        f"w: {kt}/NoteService.kt:12:13 Variable 'cache' is never used\n"
        f"e: {kt}/NoteService.kt:40:5 'return' is not allowed here\n"
        "\n"
        "FAILURE: Build failed with an exception.\n"
        "\n"
        "* What went wrong:\n"
        "Execution failed for task ':app:compileKotlin'.\n"
        "> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction\n"
        "   > Compilation error. See log for more details\n"
        "\n"
        "* Try:\n"
        "> Run with --stacktrace option to get the stack trace.\n"
        "> Run with --info or --debug option to get more log output.\n"
        "> Run with --scan to get full insights.\n"
        "> Get more help at https://help.gradle.org.\n"
        "\n"
        "BUILD FAILED in 7s\n"
        "2 actionable tasks: 2 executed\n"
    )
    modules = ["core", "data", "domain", "network", "ui", "app"]
    tasks = []
    for m in modules:
        for t, o in (
            ("compileJava", ""),
            ("processResources", " NO-SOURCE"),
            ("classes", ""),
            ("jar", ""),
            ("assemble", ""),
        ):
            tasks.append(f"> Task :{m}:{t}{o}")
    success = (
        "Starting a Gradle Daemon (subsequent builds will be faster)\n"
        + "\n".join(tasks[:5])
        + "\n\n> Task :data:compileJava\n"
        "Note: /home/dev/shop/data/src/main/java/com/example/data/Store.java uses unchecked or unsafe operations.\n"
        "Note: Recompile with -Xlint:unchecked for details.\n"
        + "\n".join(tasks[6:])
        + "\n\nDeprecated Gradle features were used in this build, making it incompatible with Gradle 9.0.\n\n"
        "You can use '--warning-mode all' to show the individual deprecation warnings and determine if they come "
        "from your own scripts or plugins.\n\n"
        "For more on this, please refer to https://docs.gradle.org/8.7/userguide/command_line_interface.html"
        "#sec:command_line_warnings in the Gradle documentation.\n\n"
        "BUILD SUCCESSFUL in 21s\n"
        "30 actionable tasks: 30 executed\n"
    )
    return [
        synthesized(
            "gradle8-java-compile-failure",
            RULE,
            family=FAMILY,
            command="./gradlew build",
            exit_code=1,
            stdout=java_fail,
            signals=[
                sig("error_location", f"{app}/Cart.java:14"),
                sig("error_message", "error: cannot find symbol"),
                sig("error_detail", "variable shippingFee"),
                sig("error_location", f"{app}/Cart.java:21"),
                sig("error_message", "error: incompatible types: possible lossy conversion from long to int"),
                sig("warning_location", f"{app}/Checkout.java:9"),
                sig("task", "> Task :app:compileJava FAILED"),
                sig("what_went_wrong", "Execution failed for task ':app:compileJava'."),
                sig("outcome", "BUILD FAILED"),
            ],
            format_source=source,
            tool_version="Gradle 8.7",
        ),
        synthesized(
            "gradle8-kotlin-compile-failure",
            RULE,
            family=FAMILY,
            command="./gradlew :app:assemble",
            exit_code=1,
            stdout=kotlin_fail,
            signals=[
                sig("error_location", "NoteRepository.kt:18:24"),
                sig("error_message", "Unresolved reference: findByTitle"),
                sig("error_location", "NoteRepository.kt:27:9"),
                sig("error_message", "Type mismatch: inferred type is String? but String was expected"),
                sig("warning_location", "NoteService.kt:12:13"),
                sig("error_location", "NoteService.kt:40:5"),
                sig("error_message", "'return' is not allowed here"),
                sig("task", "> Task :app:compileKotlin FAILED"),
                sig("outcome", "BUILD FAILED"),
            ],
            format_source=source + "; Kotlin compiler messages `e: file:///…/File.kt:line:col message` as shown in "
            "https://github.com/incrediblezayed/file_saver/issues/83",
            tool_version="Gradle 8.7, Kotlin 1.9.23",
        ),
        synthesized(
            "gradle8-multimodule-success",
            RULE,
            family=FAMILY,
            command="./gradlew assemble",
            exit_code=0,
            stdout=success,
            signals=[
                sig("note", "Store.java uses unchecked or unsafe operations."),
                sig(
                    "deprecation",
                    "Deprecated Gradle features were used in this build, making it incompatible with Gradle 9.0.",
                ),
                sig("outcome", "BUILD SUCCESSFUL in 21s"),
            ],
            format_source=source,
            tool_version="Gradle 8.7",
        ),
    ]
