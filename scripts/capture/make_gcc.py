"""make driving gcc on a small C project: warnings and errors, and a clean build.

Signals: every translation unit recompiled with the same flags plus
`-fdiagnostics-format=json`: each diagnostic's `file:line:col` and `kind: message`;
for the clean build, the final link command from `make --dry-run`.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Workspace, sig

RULE = "build/make"
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


def _diag_signals(ws: Workspace, files: list[str]) -> list[Any]:
    sigs: list[Any] = []
    for f in files:
        out = ws.sh(f"cc {CFLAGS} -fdiagnostics-format=json -c {f} -o /dev/null 2>&1; true", "cproj")
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
    return fixtures


def _compiled(output: str) -> list[str]:
    """Sources make actually compiled (make stops at the first failing one without -k)."""
    import re

    return re.findall(r"^cc .* -c (\S+\.c) ", output, re.MULTILINE)
