"""javac diagnostics through the javax.tools API (DiagnosticCollector), for signals.

Shared by the javac, maven and gradle capture modules: compiles the given sources with
the given options in-process and returns each diagnostic's kind, file, line, column and
first message line. The API renders type names fully qualified (`java.lang.String`);
the javac command line simplifies them (`String`), so both spellings are offered.
"""

from __future__ import annotations

import re
from typing import Any

from capture._lib import Workspace, sig

TJ_JAVAC = """
import javax.tools.*;
import java.util.*;

/** Compile with the javax.tools API; print kind, file, line, column, message per diagnostic. */
public class TjJavac {
    public static void main(String[] args) throws Exception {
        int sep = Arrays.asList(args).indexOf("--");
        List<String> options = new ArrayList<>(Arrays.asList(args).subList(0, sep));
        List<String> files = Arrays.asList(args).subList(sep + 1, args.length);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        StandardJavaFileManager fm = javac.getStandardFileManager(diags, null, null);
        javac.getTask(null, fm, diags, options, null, fm.getJavaFileObjectsFromStrings(files)).call();
        for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
            String src = d.getSource() == null ? "" : d.getSource().getName();
            String msg = d.getMessage(Locale.ROOT).split("\\n", 2)[0];
            System.out.println(d.getKind() + "\\t" + src + "\\t" + d.getLineNumber() + "\\t" + d.getColumnNumber() + "\\t" + msg);
        }
    }
}
"""

_QUALIFIED = re.compile(r"\b(?:[a-z_]\w*\.)+([A-Z]\w*)")


class JavaDiag:
    __slots__ = ("col", "file", "kind", "line", "msg")

    def __init__(self, kind: str, file: str, line: int, col: int, msg: str) -> None:
        self.kind, self.file, self.line, self.col, self.msg = kind, file, line, col, msg

    @property
    def severity(self) -> str:
        return "error" if self.kind == "ERROR" else "warning"

    @property
    def simple_msg(self) -> str:
        return _QUALIFIED.sub(r"\1", self.msg)


def java_diags(ws: Workspace, cwd: str, options: list[str], files: list[str]) -> list[JavaDiag]:
    tool = ws.path("_tjjavac/TjJavac.java")
    if not tool.exists():
        ws.write("_tjjavac/TjJavac.java", TJ_JAVAC)
    out = ws.sh(f"java {tool} {' '.join(options)} -- {' '.join(files)} 2>/dev/null; true", cwd)
    diags: list[JavaDiag] = []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) != 5 or parts[0] not in ("ERROR", "WARNING", "MANDATORY_WARNING"):
            continue
        diags.append(JavaDiag(parts[0], parts[1], int(parts[2]), int(parts[3]), parts[4]))
    return diags


def javac_cli_signals(diags: list[JavaDiag]) -> list[Any]:
    """Signals for javac's own output: `file:line` and `error: message` (names simplified)."""
    sigs: list[Any] = []
    for d in diags:
        if not d.file or d.line < 1:
            continue  # about the compiler options, not the code (`[options] bootstrap class path…`)
        sigs.append(sig(f"{d.severity}_location", f"{d.file}:{d.line}"))
        sigs.append(sig(f"{d.severity}_message", d.simple_msg, d.msg))
    return sigs
