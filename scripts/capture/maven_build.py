"""maven, offline (`mvn -o`, plugins from the pre-populated ~/.m2): compile errors (plain
and coloured), test-compile errors, a multi-module package that succeeds (large), a
multi-module install where one module fails, and a dependency missing from the local
repository. Runs that execute tests (`mvn test`, `verify`, a `package` that runs
surefire) belong to the test-runner rule, so the multi-module builds pass -DskipTests.

Signals: compiler errors from the same sources compiled through javax.tools with a
DiagnosticCollector (`_java_diag`; maven prints the API's messages, fully qualified):
`File.java:[line,col]` and message. Outcomes
from the exit status; module names, artifacts and the missing dependency from the POMs
the projects were written with.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from capture._java_diag import java_diags
from capture._lib import Workspace, sig

RULE = "build/maven"
FAMILY = "maven"

PLUGINS = """
  <build>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version>
        <configuration><showWarnings>true</showWarnings><compilerArgs><arg>-Xlint:deprecation</arg></compilerArgs></configuration></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-install-plugin</artifactId><version>3.1.1</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-clean-plugin</artifactId><version>3.3.2</version></plugin>
    </plugins>
  </build>
"""
PROPS = """
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
"""
JUNIT = """
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version><scope>test</scope></dependency>
"""


def _pom(
    artifact: str, deps: str = "", packaging: str = "jar", modules: list[str] | None = None, parent: bool = False
) -> str:
    head = '<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n'
    if parent:
        head += "  <parent><groupId>com.example.shop</groupId><artifactId>shop-parent</artifactId><version>1.4.0</version></parent>\n"
    head += (
        f"  <groupId>com.example.shop</groupId>\n  <artifactId>{artifact}</artifactId>\n  <version>1.4.0</version>\n"
    )
    head += f"  <packaging>{packaging}</packaging>\n"
    if modules:
        head += "  <modules>" + "".join(f"<module>{m}</module>" for m in modules) + "</modules>\n"
    body = PROPS + (f"  <dependencies>{deps}  </dependencies>\n" if deps else "")
    if not parent:
        body += PLUGINS
    return head + body + "</project>\n"


def _dep(artifact: str) -> str:
    return f"<dependency><groupId>com.example.shop</groupId><artifactId>{artifact}</artifactId><version>1.4.0</version></dependency>\n"


BROKEN_APP = """
package com.example.shop;

import java.util.*;

public class Checkout {
    @Deprecated
    static int legacyRounding() { return 2; }

    public long total(List<Long> prices) {
        long sum = 0;
        for (long p : prices) sum += p;
        String currency = 42;
        return sum + discount(prices) + legacyRounding();
    }

    public Map<String, Long> byCategory(List<String> items) {
        Map<String, Long> out = new HashMap<>();
        for (String it : items) out.merge(it.category(), 1L, Long::sum);
        return out;
    }
}
"""

GOOD_APP = """
package com.example.shop;

import java.util.*;

public class Checkout {
    @Deprecated
    static int legacyRounding() { return 2; }

    public long total(List<Long> prices) {
        long sum = 0;
        for (long p : prices) sum += p;
        return sum;
    }

    public long rounded(List<Long> prices) { return total(prices) + legacyRounding(); }
}
"""

CHECKOUT_TEST = """
package com.example.shop;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

class CheckoutTest {
    @Test void totalsPrices() { assertEquals(6L, new Checkout().total(List.of(1L, 2L, 3L))); }
    @Test void emptyCartIsZero() { assertEquals(0L, new Checkout().total(List.of())); }
    @Test void roundsUp() { assertEquals(10L, new Checkout().rounded(List.of(3L, 4L)), "rounded total"); }
}
"""

BROKEN_TEST = """
package com.example.shop;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

class CheckoutTest {
    @Test void totalsPrices() { assertEquals(6L, new Checkout().sum(List.of(1L, 2L, 3L))); }
    @Test void usesHelper() { assertTrue(CartFixtures.empty().isEmpty()); }
}
"""


def _module_class(module: str, k: int) -> str:
    pkg = module.replace("-", "")
    return f"""
package com.example.shop.{pkg};

public class Part{k} {{
    @Deprecated
    public static int legacyCode() {{ return {k}; }}

    public int code() {{ return legacyCode() * 2; }}
}}
"""


def _module_test(module: str, k: int) -> str:
    pkg = module.replace("-", "")
    return f"""
package com.example.shop.{pkg};

import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;

class Part{k}Test {{
    @Test void doublesCode() {{ assertEquals({2 * k}, new Part{k}().code()); }}
    @Test void codeIsNonNegative() {{ assertTrue(new Part{k}().code() >= 0); }}
}}
"""


MODULES = ["shop-model", "shop-pricing", "shop-inventory", "shop-orders", "shop-api", "shop-web"]


def _compile_signals(ws: Workspace, root: Path, files: list[Path], classpath: list[Path] | None = None) -> list[Any]:
    opts = ["--release", "17", "-Xlint:deprecation", "-d", str(ws.path("_sigout"))]
    if classpath:
        opts += ["-cp", ":".join(str(p) for p in classpath)]
    sigs: list[Any] = []
    for d in java_diags(ws, str(root), opts, [str(f) for f in files]):
        level = "ERROR" if d.kind == "ERROR" else "WARNING"
        sigs.append(sig(f"{d.severity}_location", f"{d.file}:[{d.line},{d.col}]"))
        sigs.append(sig(f"{d.severity}_message", f"[{level}] {d.file}:[{d.line},{d.col}] {d.msg}", f"{d.msg}"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("mvn", "java")
    if not (Path.home() / ".m2" / "repository" / "org" / "apache" / "maven" / "plugins").is_dir():
        from capture._lib import Skip

        raise Skip("no local maven repository with plugins (~/.m2): maven cannot run offline")
    versions = {
        "mvn": ws.version(["mvn", "-v"]).replace("\x1b[1m", "").replace("\x1b[m", ""),
        "java": ws.version(["java", "-version"]),
    }
    fixtures: list[dict[str, Any]] = []

    def add(id: str, r: Any, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=source, tool_version=versions)
        )

    compile_source = (
        "sources compiled through javax.tools with a DiagnosticCollector: File.java:[line,col] and message; "
        "the outcome from the exit status"
    )

    # 1. compile errors, batch mode and coloured.
    p = ws.path("single")
    ws.write("single/pom.xml", _pom("shop-checkout", JUNIT))
    ws.write("single/src/main/java/com/example/shop/Checkout.java", BROKEN_APP)
    main_src = p / "src/main/java/com/example/shop/Checkout.java"
    r = ws.run("mvn -o -B compile", "single")
    sigs = [*_compile_signals(ws, p, [main_src]), sig("outcome", "BUILD FAILURE")]
    add("maven-compile-errors", r, sigs, compile_source)
    r = ws.run("mvn -o -Dstyle.color=always compile", "single")
    add("maven-compile-errors-color", r, sigs, compile_source)

    # 2. test-compile errors.
    ws.write("single/src/main/java/com/example/shop/Checkout.java", GOOD_APP)
    ws.write("single/src/test/java/com/example/shop/CheckoutTest.java", BROKEN_TEST)
    ws.sh("mvn -o -q -B compile", "single")
    test_src = p / "src/test/java/com/example/shop/CheckoutTest.java"
    jars = [next((Path.home() / ".m2/repository/org/junit/jupiter/junit-jupiter-api/5.10.2").glob("*.jar"))]
    jars += list((Path.home() / ".m2/repository/org/apiguardian/apiguardian-api").glob("*/*.jar"))[:1]
    jars += list((Path.home() / ".m2/repository/org/opentest4j/opentest4j").glob("*/*.jar"))[:1]
    r = ws.run("mvn -o -B test-compile", "single")
    add(
        "maven-test-compile-errors",
        r,
        [
            *_compile_signals(ws, p, [main_src]),
            *_compile_signals(ws, p, [test_src], [p / "target/classes", *jars]),
            sig("outcome", "BUILD FAILURE"),
        ],
        compile_source,
    )

    # 3. multi-module package without tests (large, noisy). Runs that execute tests belong to
    # the test-runner rule (tests/maven-test), so these builds skip them.
    ws.write("multi/pom.xml", _pom("shop-parent", packaging="pom", modules=MODULES))
    for n, mod in enumerate(MODULES):
        deps = JUNIT + (_dep(MODULES[n - 1]) if n else "")
        ws.write(f"multi/{mod}/pom.xml", _pom(mod, deps, parent=True))
        pkg = mod.replace("-", "")
        for k in range(4):
            ws.write(f"multi/{mod}/src/main/java/com/example/shop/{pkg}/Part{k}.java", _module_class(mod, k))
            ws.write(f"multi/{mod}/src/test/java/com/example/shop/{pkg}/Part{k}Test.java", _module_test(mod, k))
    r = ws.run("mvn -o package -DskipTests", "multi")
    add(
        "maven-multimodule-package-success",
        r,
        [
            *[sig("module", f"{m}: SUCCESS", f"{m} SUCCESS") for m in MODULES],
            sig("artifact", "shop-web-1.4.0.jar"),
            sig("outcome", "BUILD SUCCESS"),
        ],
        "the modules the POMs define (each built), the last module's artifact name; outcome from the exit status",
    )

    # 4. multi-module install where the fourth module fails to compile.
    broken = ws.path("multi/shop-orders/src/main/java/com/example/shop/shoporders/Part2.java")
    broken.write_text(broken.read_text().replace("return legacyCode() * 2;", "return legacyCode() * rate;"))
    r = ws.run("mvn -o -B install -DskipTests", "multi")
    # `install` put the modules that built into the shared local repository: take them out.
    shutil.rmtree(Path.home() / ".m2" / "repository" / "com" / "example" / "shop", ignore_errors=True)
    classpath = [ws.path(f"multi/{m}/target/classes") for m in MODULES[:3]]
    add(
        "maven-multimodule-install-failure",
        r,
        [
            *[s for s in _compile_signals(ws, ws.path("multi"), [broken], classpath) if s["kind"].startswith("error")],
            *[sig("module", f"{m}: SUCCESS", f"{m} SUCCESS") for m in MODULES[:3]],
            sig("module", "shop-orders: FAILURE", "shop-orders FAILURE"),
            *[sig("module", f"{m}: SKIPPED", f"{m} SKIPPED") for m in MODULES[4:]],
            sig("resume", "-rf :shop-orders"),
            sig("outcome", "BUILD FAILURE"),
        ],
        "javax.tools compile of the broken class; the modules the POMs define and where the build stops; "
        "outcome from the exit status",
    )

    # 5. a dependency that is not in the local repository.
    ws.write(
        "missing/pom.xml",
        _pom(
            "shop-reports",
            "<dependency><groupId>com.example.tj</groupId><artifactId>pdf-render</artifactId><version>2.3.1</version></dependency>\n",
        ),
    )
    ws.write(
        "missing/src/main/java/com/example/shop/Report.java", "package com.example.shop;\npublic class Report {}\n"
    )
    r = ws.run("mvn -o -B compile", "missing")
    add(
        "maven-offline-missing-dependency",
        r,
        [sig("dependency", "com.example.tj:pdf-render:jar:2.3.1"), sig("outcome", "BUILD FAILURE")],
        "the dependency the POM was written with (absent from ~/.m2); outcome from the exit status",
    )
    return fixtures
