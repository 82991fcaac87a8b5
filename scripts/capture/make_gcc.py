"""make driving gcc on a small C project: warnings and errors, and a clean build.

Also a large warning-heavy build (60 modules), coloured diagnostics
(`-fdiagnostics-color=always`) and a link failure.

Signals: every translation unit recompiled with the same flags plus
`-fdiagnostics-format=json`: each diagnostic's `file:line:col` and `kind: message`;
for the clean build, the final link command from `make --dry-run`; for the link
failure, the undefined symbol the project was written to call.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

RULE = "task/make"
FAMILY = "make"
CFLAGS = "-std=c11 -O2 -g -Wall -Wextra -Isrc"

MAKEFILE = """
CC ?= cc
CFLAGS = {cflags}
SRC = $(wildcard src/*.c)
OBJ = $(patsubst src/%.c,build/%.o,$(SRC))

build/app: $(OBJ)
\t$(CC) $(CFLAGS) -o $@ $(OBJ)

build/%.o: src/%.c | build
\t$(CC) $(CFLAGS) -c $< -o $@

build:
\tmkdir -p build

clean:
\trm -rf build
"""

FILES_OK = {
    "src/vec.h": "#include <stddef.h>\ntypedef struct { long *data; size_t len; } vec;\nlong vec_sum(const vec *v);\n",
    "src/vec.c": '#include "vec.h"\nlong vec_sum(const vec *v) {\n    long s = 0;\n    for (size_t i = 0; i < v->len; i++) s += v->data[i];\n    return s;\n}\n',
    "src/main.c": '#include <stdio.h>\n#include "vec.h"\nint main(void) {\n    long d[3] = {1, 2, 3};\n    vec v = {d, 3};\n    printf("%ld\\n", vec_sum(&v));\n    return 0;\n}\n',
}
for k in range(12):
    FILES_OK[f"src/mod{k:02d}.c"] = f"int mod{k:02d}_value(int x) {{ return x * {k + 1}; }}\n"

FILES_BROKEN = {
    "src/vec.c": (
        '#include "vec.h"\n'
        "long vec_sum(const vec *v) {\n"
        "    long s;\n"
        "    for (int i = 0; i < v->len; i++) s += v->data[i];\n"
        "    return s;\n"
        "}\n"
        "int vec_push(vec *v, long x) {\n"
        "    v->data[v->len++] = x;\n"
        "}\n"
    ),
    "src/config.c": (
        "#include <string.h>\n"
        "struct config { int retries; const char *name; };\n"
        "int config_parse_arg(struct config *cfg, const char *arg) {\n"
        '    if (strncmp(arg, "--name=", 7) == 0) { cfg->name = arg + 7; cfg->label = cfg->name; return 0; }\n'
        '    if (strcmp(arg, "--verbose") == 0) { cfg->verbose = true; return 0; }\n'
        "    return parse_flag(arg);\n"
        "}\n"
    ),
}


def _module_with_warnings(k: int) -> str:
    """A translation unit with a few typical warnings (sign compare, unused, fallthrough)."""
    return (
        "#include <stddef.h>\n"
        "#include <string.h>\n"
        f"static int helper{k:02d}(int x) {{ return x + {k}; }}\n"
        f"int module{k:02d}_scan(const int *xs, size_t n, int limit) {{\n"
        "    int unused_total;\n"
        "    int hits = 0;\n"
        "    for (int i = 0; i < n; i++) {\n"
        "        if (xs[i] > limit) hits++;\n"
        "    }\n"
        "    return hits;\n"
        "}\n"
        f"int module{k:02d}_classify(int code) {{\n"
        "    int r = 0;\n"
        "    switch (code) {\n"
        "    case 1: r = 10;\n"
        "    case 2: r += 20; break;\n"
        "    default: r = -1;\n"
        "    }\n"
        "    return r;\n"
        "}\n"
        f"size_t module{k:02d}_len(const char *s) {{ int n = strlen(s); return n; }}\n"
    )


def _diag_signals(ws: Workspace, files: list[str], cwd: str = "cproj", cflags: str = CFLAGS) -> list[Any]:
    sigs: list[Any] = []
    for f in files:
        out = ws.sh(f"cc {cflags} -fdiagnostics-format=json -c {f} -o /dev/null 2>&1; true", cwd)
        try:
            diags = json.loads(out.strip().splitlines()[-1]) if out.strip() else []
        except ValueError:
            continue
        for d in diags:
            kind = d.get("kind")
            if kind not in ("error", "warning"):
                continue
            loc = d["locations"][0]["caret"]
            sigs.append(sig(f"{kind}_location", f"{loc['file']}:{loc['line']}:{loc['column']}"))
            sigs.append(sig(f"{kind}_message", f"{kind}: {d['message']}"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("make", "cc")
    versions = {"make": ws.version(["make", "--version"]), "cc": ws.version(["cc", "--version"])}
    ws.write("cproj/Makefile", MAKEFILE.format(cflags=CFLAGS))
    for rel, content in FILES_OK.items():
        ws.write(f"cproj/{rel}", content)
    fixtures: list[dict[str, Any]] = []
    link = ws.sh("make --dry-run", "cproj").strip().splitlines()[-1]
    r = ws.run("make", "cproj")
    fixtures.append(
        ws.fixture(
            "make-c-success",
            RULE,
            r,
            family=FAMILY,
            signals=[sig("status", link)],
            signal_source="last command of make --dry-run on the clean tree (the link step)",
            tool_version=versions,
        )
    )
    ws.sh("make clean", "cproj")
    for rel, content in FILES_BROKEN.items():
        ws.write(f"cproj/{rel}", content)
    source = (
        "each translation unit make compiled, recompiled with the same flags plus "
        "-fdiagnostics-format=json: file:line:col and 'kind: message'; make's own 'Error N'"
    )
    r = ws.run("make", "cproj")
    fixtures.append(
        ws.fixture(
            "make-c-errors",
            RULE,
            r,
            family=FAMILY,
            signals=[*_diag_signals(ws, _compiled(r.combined)), sig("make_error", "Error 1")],
            signal_source=source,
            tool_version=versions,
        )
    )
    ws.sh("make clean", "cproj")
    r = ws.run("make -k -j1", "cproj")
    fixtures.append(
        ws.fixture(
            "make-keep-going-errors",
            RULE,
            r,
            family=FAMILY,
            signals=[*_diag_signals(ws, _compiled(r.combined)), sig("make_error", "Error 1")],
            signal_source=source,
            tool_version=versions,
        )
    )
    ws.sh("make clean", "cproj")
    r = ws.run("make -k -j1 CFLAGS='" + CFLAGS + " -fdiagnostics-color=always'", "cproj")
    fixtures.append(
        ws.fixture(
            "make-errors-color",
            RULE,
            r,
            family=FAMILY,
            signals=[*_diag_signals(ws, _compiled(r.combined)), sig("make_error", "Error 1")],
            signal_source=source,
            tool_version=versions,
        )
    )
    ws.sh("make clean", "cproj")

    # Link failure: every unit compiles, the program calls a function nobody defines.
    ws.write("lproj/Makefile", MAKEFILE.format(cflags=CFLAGS))
    for rel, content in FILES_OK.items():
        ws.write(f"lproj/{rel}", content)
    ws.write(
        "lproj/src/main.c",
        '#include <stdio.h>\n#include "vec.h"\nlong vec_mean(const vec *v);\n'
        "int main(void) {\n    long d[3] = {1, 2, 3};\n    vec v = {d, 3};\n"
        '    printf("%ld %ld\\n", vec_sum(&v), vec_mean(&v));\n    return 0;\n}\n',
    )
    r = ws.run("make", "lproj")
    fixtures.append(
        ws.fixture(
            "make-link-error",
            RULE,
            r,
            family=FAMILY,
            signals=[
                sig("error_message", "undefined reference to `vec_mean'"),
                sig("linker", "ld returned 1 exit status"),
                sig("make_error", "Error 1"),
            ],
            signal_source="the undefined function the test program was written to call; make's Error N",
            tool_version=versions,
        )
    )

    # A large warning-heavy build: 60 modules with a few warnings each, one broken.
    ws.write("bigproj/Makefile", MAKEFILE.format(cflags=CFLAGS + " -Wimplicit-fallthrough"))
    ws.write("bigproj/src/main.c", "int main(void) { return 0; }\n")
    for k in range(60):
        ws.write(f"bigproj/src/module{k:02d}.c", _module_with_warnings(k))
    ws.write(
        "bigproj/src/module37.c",
        _module_with_warnings(37).replace("return hits;", "return hits + missing_offset;"),
    )
    r = ws.run("make -k", "bigproj")
    fixtures.append(
        ws.fixture(
            "make-large-warnings",
            RULE,
            r,
            family=FAMILY,
            signals=[
                *_diag_signals(ws, _compiled(r.combined), "bigproj", CFLAGS + " -Wimplicit-fallthrough"),
                sig("make_error", "Error 1"),
            ],
            signal_source=source,
            tool_version=versions,
        )
    )
    return fixtures


def _compiled(output: str) -> list[str]:
    """Sources make actually compiled (make stops at the first failing one without -k)."""
    import re

    return re.findall(r"^cc .* -c (\S+\.c) ", output, re.MULTILINE)
