"""golangci-lint run: synthesized (the binary cannot be installed here: no Go module
proxy, no GitHub downloads).

The output follows golangci-lint's text printer (pkg/printers/text.go: `path:line:col:
text (linter)`, then the issue's source line and a `^` under the column, tabs kept) and
the stats block of `run` (pkg/commands/run.go printStats: `N issues:` then
`* linter: count`, or `0 issues.`), v1's `level=warning msg=…` log lines included.
The issues themselves are real where possible: `govet` issues come from running the
installed `go vet -json` on a generated module; `errcheck`, `unused` and `ineffassign`
issues sit where the generator put the unchecked `Close()`, the unused helper and the
overwritten assignment; `gofmt` flags the files the generator left unformatted.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

from capture._lib import Skip, Workspace, sig, synthesized

RULE = "lint/golangci-lint"
FAMILY = "golangci-lint"
FORMAT_SOURCE = (
    "golangci-lint text printer and run stats "
    "(https://github.com/golangci/golangci-lint/blob/main/pkg/printers/text.go, pkg/commands/run.go; "
    "https://golangci-lint.run/docs/configuration/cli)"
)
VERSION = "golangci-lint has version 2.1.6 (format of the 2.x text printer)"


def _go_file(pkg: str, i: int, rng: random.Random) -> tuple[str, list[dict[str, Any]]]:
    """A Go file and the errcheck/unused/ineffassign issues it holds (known positions)."""
    lines = [f"package {pkg}", "", "import (", '\t"fmt"', '\t"os"', ")", ""]
    issues: list[dict[str, Any]] = []
    for k in range(rng.randint(2, 5)):
        kind = rng.choice(["close", "unused", "ineff", "printf", "clean"])
        if kind == "close":
            lines += [
                f"func Read{i}x{k}(path string) error {{",
                "\tf, err := os.Open(path)",
                "\tif err != nil {",
                "\t\treturn err",
                "\t}",
            ]
            lines.append("\tf.Close()")
            issues.append(
                {
                    "line": len(lines),
                    "col": 2,
                    "text": "Error return value of `f.Close` is not checked",
                    "linter": "errcheck",
                }
            )
            lines += ["\treturn nil", "}", ""]
        elif kind == "unused":
            lines.append(f"func helper{i}x{k}(n int) int {{")
            issues.append({"line": len(lines), "col": 6, "text": f"func `helper{i}x{k}` is unused", "linter": "unused"})
            lines += ["\treturn n * 2", "}", ""]
        elif kind == "ineff":
            lines += [f"func Count{i}x{k}(items []string) int {{", "\ttotal := len(items)"]
            issues.append(
                {"line": len(lines), "col": 2, "text": "ineffectual assignment to total", "linter": "ineffassign"}
            )
            lines += ["\ttotal = 0", "\tfor range items {", "\t\ttotal++", "\t}", "\treturn total", "}", ""]
        elif kind == "printf":
            lines += [f"func Show{i}x{k}(name string) {{", '\tfmt.Printf("%d items\\n", name)', "}", ""]
        else:
            lines += [f"func Name{i}x{k}() string {{", f'\treturn fmt.Sprint("svc-{i}-{k}", os.Getpid())', "}", ""]
    return "\n".join(lines) + "\n", issues


def _render(ws: Workspace, cwd: str, issues: list[dict[str, Any]], stats: bool) -> str:
    out: list[str] = []
    sources: dict[str, list[str]] = {}
    for it in issues:
        rel = it["file"]
        if rel not in sources:
            sources[rel] = ws.path(f"{cwd}/{rel}").read_text(encoding="utf-8").splitlines()
        out.append(f"{rel}:{it['line']}:{it['col']}: {it['text']} ({it['linter']})")
        if it["linter"] == "gofmt":
            continue  # whole-file issue: no source line (golangci prints the line it has)
        src = sources[rel][it["line"] - 1]
        out.append(src)
        # The pointer keeps the source's tabs so it lines up (printUnderLinePointer).
        out.append("".join("\t" if c == "\t" else " " for c in src[: it["col"] - 1]) + "^")
    if stats:
        if issues:
            counts: dict[str, int] = {}
            for it in issues:
                counts[it["linter"]] = counts.get(it["linter"], 0) + 1
            out.append(f"{len(issues)} issues:")
            out += [f"* {name}: {n}" for name, n in sorted(counts.items())]
        else:
            out.append("0 issues.")
    return "\n".join(out) + "\n"


def _project(ws: Workspace, cwd: str, n_files: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    ws.write(f"{cwd}/go.mod", "module example.com/svc\n\ngo 1.19\n")
    issues: list[dict[str, Any]] = []
    pkgs = ["api", "store", "worker"]
    for i in range(n_files):
        pkg = pkgs[i % len(pkgs)]
        rel = f"internal/{pkg}/file{i:03d}.go"
        text, found = _go_file(pkg, i, rng)
        if i % 7 == 3:
            text = text.replace("\treturn nil", "        return nil", 1)  # spaces: gofmt will object
            issues.append(
                {"file": rel, "line": 1, "col": 1, "text": "File is not properly formatted", "linter": "gofmt"}
            )
        ws.write(f"{cwd}/{rel}", text)
        issues += [dict(it, file=rel) for it in found]
    # govet: the real analyzer output for the module.
    out = ws.sh("go vet -json ./... 2>&1; true", cwd)
    base = str(ws.path(cwd))
    for chunk in _json_objects(out):
        for analyzers in chunk.values():
            for name, diags in analyzers.items():
                for d in diags:
                    path, line, col = d["posn"].rsplit(":", 2)
                    issues.append(
                        {
                            "file": os.path.relpath(path, base),
                            "line": int(line),
                            "col": int(col),
                            "text": f"{name}: {d['message']}",
                            "linter": "govet",
                        }
                    )
    issues.sort(key=lambda it: (it["file"], it["line"], it["col"]))
    return issues


def _json_objects(text: str) -> list[dict[str, Any]]:
    """`go vet -json` prints one JSON object per package, between `# pkg` lines."""
    objs: list[dict[str, Any]] = []
    buf: list[str] = []
    for line in text.splitlines():
        if line.startswith("{"):
            buf = [line]
        elif buf:
            buf.append(line)
            if line.startswith("}"):
                objs.append(json.loads("\n".join(buf)))
                buf = []
    return objs


def _signals(issues: list[dict[str, Any]]) -> list[Any]:
    sigs: list[Any] = []
    for it in issues:
        loc = f"{it['file']}:{it['line']}:{it['col']}"
        sigs.append(sig("location", f"{loc}:", f"{loc},", f"{loc} "))
        sigs.append(sig("issue", f"{it['text']} ({it['linter']})"))
    if issues:
        sigs.append(sig("summary", f"{len(issues)} issues:"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("go")
    ws.env["GOFLAGS"] = "-mod=mod"
    ws.env["GOPROXY"] = "off"
    fixtures: list[dict[str, Any]] = []

    def fx(id: str, command: str, code: int, stdout: str, signals: list[Any], stderr: str = "") -> None:
        fixtures.append(
            synthesized(
                id,
                RULE,
                family=FAMILY,
                command=command,
                exit_code=code,
                stdout=stdout,
                stderr=stderr,
                signals=signals,
                format_source=FORMAT_SOURCE,
                tool_version=VERSION,
            )
        )

    issues = _project(ws, "small", 9, seed=3)
    if not any(it["linter"] == "govet" for it in issues):
        raise Skip("go vet reported nothing: the generated module did not build")
    fx("golangci-lint-run", "golangci-lint run ./...", 1, _render(ws, "small", issues, stats=True), _signals(issues))

    # v1: no stats block; config deprecation warnings on stderr.
    warn = (
        'level=warning msg="[config_reader] The configuration option `run.skip-dirs` is deprecated, '
        'please use `issues.exclude-dirs`."\n'
    )
    fx(
        "golangci-lint-run-v1",
        "golangci-lint run",
        1,
        _render(ws, "small", issues, stats=False),
        [*_signals(issues)[:-1], sig("warning", "run.skip-dirs` is deprecated")],
        stderr=warn,
    )

    issues = _project(ws, "large", 60, seed=8)
    fx(
        "golangci-lint-run-large",
        "golangci-lint run ./...",
        1,
        _render(ws, "large", issues, stats=True),
        _signals(issues),
    )

    fx("golangci-lint-clean", "golangci-lint run ./...", 0, "0 issues.\n", [sig("summary", "0 issues.")])
    return fixtures
