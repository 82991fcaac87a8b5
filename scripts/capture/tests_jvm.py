"""JVM test runs: maven surefire (`mvn -o test`) and gradle test (Debian's gradle 4.4.1).

Maven runs offline against the pre-populated ~/.m2 (JUnit Jupiter 5.10.2, surefire
3.2.5). Gradle runs offline with `mavenLocal()` (JUnit 4.13.2 from ~/.m2). Signals come
from the JUnit XML reports the runs write (target/surefire-reports/TEST-*.xml,
build/test-results/test/TEST-*.xml): failing test methods (`Class.method` as maven's
summary prints them, `Class > method` for gradle), the first message line of each
failure or error, and the counts. A modern gradle (8.x) console is synthesized from its
documented format, since only 4.4.1 installs here.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from capture._lib import Skip, Workspace, sig, synthesized

POM = """
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>library</artifactId>
  <version>1.4.0-SNAPSHOT</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
      <plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin>
      <plugin><artifactId>maven-install-plugin</artifactId><version>3.1.1</version></plugin>
    </plugins>
  </build>
</project>
"""

CATALOG = """
package com.example.library;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Catalog {
    private final Map<String, Book> books = new HashMap<>();

    public void add(Book b) {
        books.put(b.isbn(), b);
    }

    public Book find(String isbn) {
        return books.get(isbn);
    }

    public List<Book> byAuthor(String author) {
        List<Book> out = new ArrayList<>();
        for (Book b : books.values()) {
            if (b.author().equals(author)) out.add(b);
        }
        return out;
    }

    public int lateFeeCents(int daysLate) {
        if (daysLate < 0) throw new IllegalArgumentException("daysLate must be >= 0: " + daysLate);
        return Math.min(daysLate * 25, 1000) + (daysLate > 30 ? 500 : 0);
    }

    public static String normalizeIsbn(String raw) {
        return raw.replace("-", "").trim();
    }
}
"""

BOOK = """
package com.example.library;

public record Book(String isbn, String title, String author, int year) {}
"""

CATALOG_TEST = """
package com.example.library;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CatalogTest {
    private Catalog catalog;

    @BeforeEach
    void setUp() {
        catalog = new Catalog();
        catalog.add(new Book("978-0", "Dune", "Herbert", 1965));
        catalog.add(new Book("978-1", "Emma", "Austen", 1815));
        catalog.add(new Book("978-2", "Persuasion", "Austen", 1817));
    }

    @Test
    void findsByIsbn() {
        assertEquals("Dune", catalog.find("978-0").title());
    }

    @Test
    void findsByAuthor() {
        assertEquals(3, catalog.byAuthor("Austen").size(), "Austen wrote three of these");
    }

    @Test
    void titleOfMissingBook() {
        assertEquals("Unknown", catalog.find("000-0").title());
    }

    @ParameterizedTest
    @CsvSource({"0,0", "4,100", "40,1000", "60,1000"})
    void lateFees(int days, int cents) {
        assertEquals(cents, catalog.lateFeeCents(days));
    }

    @Test
    void negativeDaysAreRejected() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> catalog.lateFeeCents(-1));
        assertTrue(e.getMessage().contains("daysLate"));
    }

    @Test
    @Disabled("waiting for the new fee schedule")
    void holidayFees() {}
}
"""

ISBN_TEST = """
package com.example.library;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class IsbnTest {
    @Test
    void stripsDashes() {
        assertEquals("9780", Catalog.normalizeIsbn("978-0"));
    }

    @Test
    void stripsSpaces() {
        System.out.println("normalizing ' 978 0 '");
        assertEquals("9780", Catalog.normalizeIsbn(" 978 0 "));
    }
}
"""

BULK_TEST = """
package com.example.library.bulk;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class Shelf{n:03d}Test {{
    @Test
    void holdsBooks() {{
        assertTrue({n} >= 0);
    }}

    @Test
    void hasALabel() {{
        assertEquals("shelf-{n}", "shelf-" + {n});
    }}

    @Test
    void countsCopies() {{
        assertEquals({n} * 2, {n} + {n});
    }}
}}
"""


def _junit_dir(dirpath: Path, gradle: bool = False, short: bool = False) -> tuple[list[Any], dict[str, int]]:
    """Signals from JUnit XML reports; `short`: gradle's default exceptionFormat, which prints
    `ExceptionType at File.java:N` instead of the message."""
    sigs: list[Any] = []
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for xml in sorted(dirpath.glob("TEST-*.xml")):
        root = ET.parse(xml).getroot()
        for k in counts:
            counts[k] += int(root.get(k, "0"))
        for case in root.iter("testcase"):
            el = case.find("failure")
            if el is None:
                el = case.find("error")
            if el is None:
                continue
            cls = (case.get("classname") or "").rsplit(".", 1)[-1]
            name = case.get("name") or ""
            method = name.split("(", 1)[0].split("[", 1)[0]
            if gradle:
                sigs.append(sig("failing_test", f"{cls} > {name}", f"{cls} > {method}"))
            else:
                # surefire's summary: `CatalogTest.lateFees:44 expected…`; the report: `lateFees(int, int)[3]`.
                sigs.append(sig("failing_test", f"{cls}.{method}"))
            if short:
                frame = re.search(r"\((\w+\.java:\d+)\)", el.text or "")
                first = f"{el.get('type')} at {frame.group(1)}" if frame else (el.get("type") or "")
                sigs.append(sig("failure_message", first, el.get("type") or first))
                continue
            msg = (el.get("message") or "").strip().splitlines()
            first = msg[0].strip() if msg else (el.get("type") or "")
            if first:
                sigs.append(sig("failure_message", first[:150]))
    return sigs, counts


def _maven(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("mvn", "java")
    m2 = Path.home() / ".m2" / "repository"
    for need in ("org/junit/jupiter/junit-jupiter/5.10.2", "org/apache/maven/plugins/maven-surefire-plugin/3.2.5"):
        if not (m2 / need).is_dir():
            raise Skip(f"~/.m2 lacks {need}")
    version = ws.version(["mvn", "-v"]).replace("\x1b[1m", "").replace("\x1b[m", "")
    ws.write("library/pom.xml", POM)
    ws.write("library/src/main/java/com/example/library/Catalog.java", CATALOG)
    ws.write("library/src/main/java/com/example/library/Book.java", BOOK)
    ws.write("library/src/test/java/com/example/library/CatalogTest.java", CATALOG_TEST)
    ws.write("library/src/test/java/com/example/library/IsbnTest.java", ISBN_TEST)
    for n in range(120):
        ws.write(f"library/src/test/java/com/example/library/bulk/Shelf{n:03d}Test.java", BULK_TEST.format(n=n))
    fixtures: list[dict[str, Any]] = []
    reports = ws.path("library/target/surefire-reports")

    def add(id: str, args: list[str], note: str) -> None:
        if reports.exists():
            for p in reports.glob("*"):
                p.unlink()
        r = ws.run(["mvn", *args], "library", timeout=900)
        signals, counts = _junit_dir(reports)
        if counts["tests"]:
            # surefire's final summary line.
            signals.append(
                sig(
                    "summary",
                    f"Tests run: {counts['tests']}, Failures: {counts['failures']}, "
                    f"Errors: {counts['errors']}, Skipped: {counts['skipped']}",
                )
            )
        fixtures.append(
            ws.fixture(
                id,
                "tests/maven-test",
                r,
                family="maven-test",
                signals=signals,
                signal_source="the run's own target/surefire-reports/TEST-*.xml: Class.method of failures and "
                "errors, first message line, and the summed counts",
                tool_version=version,
                notes=note,
            )
        )

    add("maven-test-failures", ["-o", "-B", "test"], "failures, an error, a skip, 120 passing classes")
    add(
        "maven-test-color-one-class",
        ["-o", "-Dstyle.color=always", "test", "-Dtest=CatalogTest"],
        "ANSI colours (style.color=always), one test class",
    )
    add(
        "maven-test-large-pass",
        ["-o", "-B", "test", "-Dtest=com.example.library.bulk.*Test"],
        "120 passing test classes",
    )
    add("maven-test-quiet-failures", ["-o", "-B", "-q", "test", "-Dtest=IsbnTest"], "-q: errors only")
    add("maven-verify-pass", ["-o", "-B", "verify", "-Dtest=IsbnTest#stripsDashes"], "verify with one passing test")
    return fixtures


# Gradle 4.4.1 compiles for Java 12 at most: no records.
BOOK_CLASS = """
package com.example.library;

public final class Book {
    private final String isbn, title, author;
    private final int year;

    public Book(String isbn, String title, String author, int year) {
        this.isbn = isbn;
        this.title = title;
        this.author = author;
        this.year = year;
    }

    public String isbn() { return isbn; }
    public String title() { return title; }
    public String author() { return author; }
    public int year() { return year; }
}
"""

BUILD_GRADLE = """
apply plugin: 'java'

repositories { mavenLocal() }

dependencies { testCompile 'junit:junit:4.13.2' }
"""

BUILD_GRADLE_FULL = (
    BUILD_GRADLE
    + """
test {
    testLogging {
        events "failed", "skipped"
        exceptionFormat "full"
    }
}
"""
)

J4_CATALOG_TEST = """
package com.example.library;

import static org.junit.Assert.*;

import org.junit.Before;
import org.junit.Ignore;
import org.junit.Test;

public class CatalogTest {
    private Catalog catalog;

    @Before
    public void setUp() {
        catalog = new Catalog();
        catalog.add(new Book("978-0", "Dune", "Herbert", 1965));
        catalog.add(new Book("978-1", "Emma", "Austen", 1815));
        catalog.add(new Book("978-2", "Persuasion", "Austen", 1817));
    }

    @Test
    public void findsByIsbn() {
        assertEquals("Dune", catalog.find("978-0").title());
    }

    @Test
    public void findsByAuthor() {
        assertEquals("Austen wrote three of these", 3, catalog.byAuthor("Austen").size());
    }

    @Test
    public void titleOfMissingBook() {
        assertEquals("Unknown", catalog.find("000-0").title());
    }

    @Test
    public void lateFeeCap() {
        assertEquals(1000, catalog.lateFeeCents(60));
    }

    @Test(expected = IllegalStateException.class)
    public void negativeDaysAreRejected() {
        catalog.lateFeeCents(-1);
    }

    @Ignore("waiting for the new fee schedule")
    @Test
    public void holidayFees() {}
}
"""

J4_BULK = """
package com.example.library.bulk;

import static org.junit.Assert.*;

import org.junit.Test;

public class Shelf{n:03d}Test {{
    @Test
    public void holdsBooks() {{
        assertTrue({n} >= 0);
    }}

    @Test
    public void countsCopies() {{
        assertEquals({n} * 2, {n} + {n});
    }}
}}
"""


def _gradle(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("gradle", "java")
    if not (Path.home() / ".m2/repository/junit/junit/4.13.2").is_dir():
        raise Skip("~/.m2 lacks junit 4.13.2")
    version = ws.version(["gradle", "--version"])
    for line in os.popen("gradle --version 2>/dev/null").read().splitlines():
        if line.startswith("Gradle "):
            version = line.strip()
    ws.env["GRADLE_USER_HOME"] = str(ws.tools / "gradle-home")
    ws.write("glib/settings.gradle", "rootProject.name = 'library'\n")
    ws.write("glib/build.gradle", BUILD_GRADLE)
    ws.write("glib/src/main/java/com/example/library/Catalog.java", CATALOG)
    ws.write("glib/src/main/java/com/example/library/Book.java", BOOK_CLASS)
    ws.write("glib/src/test/java/com/example/library/CatalogTest.java", J4_CATALOG_TEST)
    for n in range(150):
        ws.write(f"glib/src/test/java/com/example/library/bulk/Shelf{n:03d}Test.java", J4_BULK.format(n=n))
    fixtures: list[dict[str, Any]] = []
    results = ws.path("glib/build/test-results/test")

    def add(id: str, args: list[str], note: str, short: bool = True) -> None:
        r = ws.run(["gradle", "--offline", *args], "glib", timeout=900)
        signals, counts = _junit_dir(results, gradle=True, short=short)
        failed = counts["failures"] + counts["errors"]
        if failed:
            signals.append(sig("summary", f"{counts['tests']} tests completed, {failed} failed"))
        fixtures.append(
            ws.fixture(
                id,
                "tests/gradle-test",
                r,
                family="gradle-test",
                signals=signals,
                signal_source="the run's own build/test-results/test/TEST-*.xml: `Class > method` of failures, "
                "first message line, counts",
                tool_version=version,
                notes=note,
            )
        )

    try:
        add("gradle-test-failures", ["test"], "gradle 4.4.1 default console: failures, 300 passing tests")
        ws.write("glib/build.gradle", BUILD_GRADLE_FULL)
        add("gradle-test-full-exceptions", ["test", "--console=plain"], "testLogging exceptionFormat full", short=False)
        ws.write("glib/build.gradle", BUILD_GRADLE_FULL.replace('"failed", "skipped"', '"passed", "failed", "skipped"'))
        add(
            "gradle-test-events-all",
            ["test", "--console=plain"],
            "testLogging events passed: 300 PASSED lines",
            short=False,
        )
        ws.write("glib/build.gradle", BUILD_GRADLE)
        add("gradle-test-pass", ["test", "--tests", "com.example.library.bulk.*"], "only passing tests")
    finally:
        # The daemon this capture started (its own GRADLE_USER_HOME) must not outlive it.
        ws.sh("gradle --stop", "glib", check=False)
    fixtures += _gradle_modern()
    return fixtures


def _gradle_modern() -> list[dict[str, Any]]:
    """A Gradle 8 console (rich console off, as without a TTY), per its documented format."""
    fmt = (
        "https://docs.gradle.org/current/userguide/java_testing.html#test_reporting and "
        "https://docs.gradle.org/current/dsl/org.gradle.api.tasks.testing.logging.TestLoggingContainer.html "
        "(task headers `> Task :x`, `Class > method() FAILED` with the exception and `at` frames, "
        "`N tests completed, M failed, K skipped`, FAILURE/What went wrong, BUILD FAILED)"
    )
    lines = [
        "Starting a Gradle Daemon (subsequent builds will be faster)",
        "> Task :compileJava",
        "> Task :processResources NO-SOURCE",
        "> Task :classes",
        "> Task :compileTestJava",
        "> Task :processTestResources NO-SOURCE",
        "> Task :testClasses",
        "",
        "> Task :test",
        "",
    ]
    failing = [
        (
            "CatalogTest",
            "titleOfMissingBook()",
            'java.lang.NullPointerException: Cannot invoke "com.example.library.Book.title()" because the return value of "com.example.library.Catalog.find(String)" is null',
            "CatalogTest.java:33",
        ),
        (
            "CatalogTest",
            "findsByAuthor()",
            "org.opentest4j.AssertionFailedError: Austen wrote three of these ==> expected: <3> but was: <2>",
            "CatalogTest.java:28",
        ),
        (
            "IsbnTest",
            "stripsSpaces()",
            "org.opentest4j.AssertionFailedError: expected: <9780> but was: <978 0>",
            "IsbnTest.java:15",
        ),
    ]
    for cls, method, exc, loc in failing:
        lines += [
            f"{cls} > {method} FAILED",
            f"    {exc}",
            "        at app//org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)"
            if "Assertion" in exc
            else f"        at app//com.example.library.{cls}.{method[:-2]}({loc})",
        ]
        if "Assertion" in exc:
            lines += [
                "        at app//org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)",
                "        at app//org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)",
                "        at app//org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)",
                "        at app//org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1156)",
                f"        at app//com.example.library.{cls}.{method[:-2]}({loc})",
            ]
        lines.append("")
    for i in range(40):
        lines.append(f"Shelf{i:03d}Test > holdsBooks() PASSED")
        lines.append(f"Shelf{i:03d}Test > countsCopies() PASSED")
    lines += [
        "",
        "CatalogTest > holidayFees() SKIPPED",
        "",
        "86 tests completed, 3 failed, 1 skipped",
        "",
        "> Task :test FAILED",
        "",
        "FAILURE: Build failed with an exception.",
        "",
        "* What went wrong:",
        "Execution failed for task ':test'.",
        "> There were failing tests. See the report at: file:///work/library/build/reports/tests/test/index.html",
        "",
        "* Try:",
        "> Run with --scan to get full insights.",
        "",
        "BUILD FAILED in 9s",
        "4 actionable tasks: 4 executed",
    ]
    signals: list[Any] = []
    for cls, method, exc, loc in failing:
        signals += [sig("failing_test", f"{cls} > {method}"), sig("failure_message", exc[:150]), sig("location", loc)]
    signals.append(sig("summary", "86 tests completed, 3 failed, 1 skipped"))
    return [
        synthesized(
            "gradle8-test-failures",
            "tests/gradle-test",
            family="gradle-test",
            command="./gradlew test",
            exit_code=1,
            stdout="\n".join(lines) + "\n",
            signals=signals,
            format_source=fmt,
            tool_version="Gradle 8.x (format)",
        )
    ]


CAPTURERS: list[Callable[[Workspace], list[dict[str, Any]]]] = [_maven, _gradle]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    fixtures: list[dict[str, Any]] = []
    skipped: list[str] = []
    only = [n for n in os.environ.get("TJ_CAPTURE_ONLY", "").split(",") if n]
    for fn in CAPTURERS:
        if only and fn.__name__ not in only:
            continue
        try:
            fixtures += fn(ws)
        except Skip as exc:
            skipped.append(f"{fn.__name__}: {exc}")
    if skipped:
        print("tests_jvm: skipped " + "; ".join(skipped))
    if not fixtures:
        raise Skip("; ".join(skipped))
    return fixtures
