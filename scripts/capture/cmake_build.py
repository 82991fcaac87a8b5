"""cmake: configure (errors, warnings, a check-heavy success) and `cmake --build` with
the Ninja and Makefile generators (compile errors, a large warning-heavy build).

Signals: configure messages from the data the CMakeLists.txt files were written with
(the command and line of each failing call, the text given to `message()`); compiler
diagnostics from each failing/warning source recompiled with the same flags plus
`-fdiagnostics-format=json` (absolute paths, as cmake passes them); build results from
the targets the project defines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from capture._lib import Workspace, sig

RULE = "build/cmake"
FAMILY = "cmake"
CFLAGS = "-Wall -Wextra"

HEADERS = [
    "stdio.h",
    "stdlib.h",
    "string.h",
    "strings.h",
    "stdint.h",
    "inttypes.h",
    "unistd.h",
    "fcntl.h",
    "sys/types.h",
    "sys/stat.h",
    "sys/time.h",
    "sys/mman.h",
    "sys/socket.h",
    "netinet/in.h",
    "arpa/inet.h",
    "poll.h",
    "pthread.h",
    "dlfcn.h",
    "errno.h",
    "limits.h",
    "locale.h",
    "math.h",
    "signal.h",
    "time.h",
    "wchar.h",
    "zlib_missing.h",
    "linux/io_uring_missing.h",
]
FUNCTIONS = ["strlcpy", "memmem", "clock_gettime", "posix_memalign", "pipe2", "accept4", "arc4random"]


def _gcc_signals(ws: Workspace, files: list[str], cwd: str, cflags: str = CFLAGS) -> list[Any]:
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


def _line_of(text: str, needle: str) -> int:
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return n
    raise ValueError(needle)


def _source_with_warnings(k: int) -> str:
    return (
        "#include <stddef.h>\n"
        f"int unit{k:02d}_count(const int *xs, size_t n, int limit) {{\n"
        "    int spare;\n"
        "    int hits = 0;\n"
        "    for (int i = 0; i < n; i++)\n"
        "        if (xs[i] > limit) hits++;\n"
        "    return hits;\n"
        "}\n"
        f"int unit{k:02d}_pick(int mode, int unused_flag) {{ return mode * {k + 1}; }}\n"
    )


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("cmake", "cc")
    have_ninja = ws.which("ninja") is not None
    versions = {"cmake": ws.version(["cmake", "--version"]), "cc": ws.version(["cc", "--version"])}
    if have_ninja:
        versions["ninja"] = ws.version(["ninja", "--version"])
    fixtures: list[dict[str, Any]] = []

    def add(id: str, r: Any, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=source, tool_version=versions)
        )

    # 1. configure: a required package that is not installed, plus a warning.
    lists = (
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(ledger C)\n"
        'message(WARNING "Optional compression disabled: zstd not found")\n'
        "find_package(LibPQ REQUIRED)\n"
        "add_executable(ledger src/main.c)\n"
    )
    ws.write("cfg1/CMakeLists.txt", lists)
    ws.write("cfg1/src/main.c", "int main(void) { return 0; }\n")
    r = ws.run("cmake -S . -B build", "cfg1")
    add(
        "cmake-configure-missing-package",
        r,
        [
            sig("error_location", f"CMakeLists.txt:{_line_of(lists, 'find_package')} (find_package)"),
            sig("error_subject", '"LibPQ"'),
            sig("warning_location", f"CMakeLists.txt:{_line_of(lists, 'message(WARNING')} (message)"),
            sig("warning_message", "Optional compression disabled: zstd not found"),
            sig("status", "Configuring incomplete, errors occurred!"),
        ],
        "the CMakeLists.txt the project was written with: line and command of each message, message text",
    )

    # 2. configure: FATAL_ERROR raised from an included module (call stack).
    module = (
        "function(require_tool name)\n"
        "  find_program(_tool ${name})\n"
        "  if(NOT _tool)\n"
        "    message(FATAL_ERROR \"Required tool '${name}' was not found on PATH; install it or set ${name}_EXECUTABLE\")\n"
        "  endif()\n"
        "endfunction()\n"
    )
    lists2 = (
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(codegen C)\n"
        "list(APPEND CMAKE_MODULE_PATH ${CMAKE_SOURCE_DIR}/cmake)\n"
        "include(Tools)\n"
        "require_tool(protoc-tj-missing)\n"
        "add_executable(codegen src/main.c)\n"
    )
    ws.write("cfg2/CMakeLists.txt", lists2)
    ws.write("cfg2/cmake/Tools.cmake", module)
    ws.write("cfg2/src/main.c", "int main(void) { return 0; }\n")
    r = ws.run("cmake -S . -B build -G Ninja" if have_ninja else "cmake -S . -B build", "cfg2")
    add(
        "cmake-configure-fatal-error",
        r,
        [
            sig("error_location", f"cmake/Tools.cmake:{_line_of(module, 'FATAL_ERROR')} (message)"),
            sig("error_message", "Required tool 'protoc-tj-missing' was not found on PATH"),
            sig("call_stack", f"CMakeLists.txt:{_line_of(lists2, 'require_tool(protoc')} (require_tool)"),
        ],
        "the CMakeLists.txt and module the project was written with: location of the FATAL_ERROR, its text, "
        "the calling line",
    )

    # 3. configure success with many feature checks, a deprecation and a dev warning.
    checks = "".join(f"check_include_file({h} HAVE_{_macro(h)})\n" for h in HEADERS)
    checks += "".join(f"check_function_exists({f} HAVE_{f.upper()})\n" for f in FUNCTIONS)
    lists3 = (
        "cmake_minimum_required(VERSION 2.8)\n"
        "project(probe C)\n"
        "include(CheckIncludeFile)\n"
        "include(CheckFunctionExists)\n"
        "find_package(Threads)\n"
        + checks
        + 'message(AUTHOR_WARNING "probe: HAVE_ARC4RANDOM is unset, falling back to /dev/urandom")\n'
        "add_executable(probe src/main.c)\n"
    )
    ws.write("cfg3/CMakeLists.txt", lists3)
    ws.write("cfg3/src/main.c", "int main(void) { return 0; }\n")
    r = ws.run("cmake -S . -B build", "cfg3")
    add(
        "cmake-configure-checks-success",
        r,
        [
            sig("deprecation_location", "CMakeLists.txt:1 (cmake_minimum_required)"),
            sig("warning_location", f"CMakeLists.txt:{_line_of(lists3, 'AUTHOR_WARNING')} (message)"),
            sig("warning_message", "probe: HAVE_ARC4RANDOM is unset, falling back to /dev/urandom"),
            sig("failed_check", "Looking for zlib_missing.h - not found"),
            sig("failed_check", "Looking for linux/io_uring_missing.h - not found"),
            sig("status", "Build files have been written to"),
        ],
        "the CMakeLists.txt the project was written with: the deprecated minimum version, the AUTHOR_WARNING "
        "text, the headers written to be missing",
    )

    # 4. build with Ninja: compile errors, coloured diagnostics.
    lists4 = (
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(ledger C)\n"
        f'set(CMAKE_C_FLAGS "{CFLAGS}")\n'
        "set(CMAKE_COLOR_DIAGNOSTICS ON)\n"
        "add_library(core STATIC src/core.c src/fmt.c)\n"
        "add_executable(ledger src/main.c)\n"
        "target_link_libraries(ledger core)\n"
    )
    gen = "-G Ninja" if have_ninja else ""
    ws.write("b1/CMakeLists.txt", lists4)
    ws.write("b1/src/core.h", "long ledger_total(const long *xs, int n);\nchar *ledger_fmt(long cents);\n")
    ws.write(
        "b1/src/core.c",
        '#include "core.h"\nlong ledger_total(const long *xs, int n) {\n    long t = 0;\n'
        "    for (int i = 0; i < n; i++) t += xs[i];\n    return t + carry;\n}\n",
    )
    ws.write(
        "b1/src/fmt.c",
        '#include <stdio.h>\n#include <stdlib.h>\n#include "core.h"\nchar *ledger_fmt(long cents) {\n'
        "    char *buf = malloc(32);\n"
        '    snprintf(buf, 32, "%d.%02d", cents / 100, cents % 100);\n'
        "    return buf;\n}\n",
    )
    ws.write(
        "b1/src/main.c",
        '#include <stdio.h>\n#include "core.h"\nint main(void) {\n    long xs[] = {1, 2};\n'
        "    puts(ledger_fmt(ledger_total(xs, 2)));\n    return 0;\n}\n",
    )
    ws.sh(f"cmake -S . -B build {gen}", "b1")
    r = ws.run("cmake --build build", "b1")
    src = ws.path("b1/src")
    failed = [str(src / "core.c")]  # the build stops at the first failing unit
    add(
        "cmake-build-ninja-errors" if have_ninja else "cmake-build-make-errors",
        r,
        [*_gcc_signals(ws, failed, "b1"), sig("failed", "build stopped" if have_ninja else "Error 1")],
        "the failing source recompiled with the project's flags plus -fdiagnostics-format=json",
    )
    # keep going: every unit's diagnostics, then the failure.
    r = ws.run(
        "cmake --build build --clean-first -- -k 0" if have_ninja else "cmake --build build --clean-first -- -k", "b1"
    )
    add(
        "cmake-build-keep-going",
        r,
        [
            *_gcc_signals(ws, [str(src / "core.c"), str(src / "fmt.c")], "b1"),
            sig("failed", "FAILED:" if have_ninja else "Error"),
        ],
        "every source the build compiled, recompiled with the project's flags plus -fdiagnostics-format=json",
    )

    # 5. a larger Makefile-generator build with warnings in 40 units, succeeding.
    units = [f"src/unit{k:02d}.c" for k in range(40)]
    lists5 = (
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(bigcalc C)\n"
        f'set(CMAKE_C_FLAGS "{CFLAGS}")\n'
        "add_library(calc STATIC " + " ".join(units) + ")\n"
        "add_library(calcx STATIC src/extra.c)\n"
        "add_executable(bigcalc src/main.c)\n"
        "target_link_libraries(bigcalc calc calcx)\n"
    )
    ws.write("b2/CMakeLists.txt", lists5)
    for k, u in enumerate(units):
        ws.write(f"b2/{u}", _source_with_warnings(k))
    ws.write("b2/src/extra.c", "int extra(void) { return 1; }\n")
    ws.write("b2/src/main.c", "int main(void) { return 0; }\n")
    ws.sh('cmake -S . -B build -G "Unix Makefiles"', "b2")
    r = ws.run("cmake --build build", "b2")
    add(
        "cmake-build-make-warnings-large",
        r,
        [
            *_gcc_signals(ws, [str(ws.path("b2") / u) for u in units], "b2"),
            sig("target", "Built target calc"),
            sig("target", "Built target calcx"),
            sig("target", "Built target bigcalc"),
        ],
        "every unit recompiled with the project's flags plus -fdiagnostics-format=json; the targets the "
        "project defines",
    )
    # and a Makefile-generator failure: one unit broken, make stops.
    ws.write("b2/src/unit07.c", _source_with_warnings(7).replace("return hits;", "return hits + bias;"))
    r = ws.run("cmake --build build", "b2")
    add(
        "cmake-build-make-error",
        r,
        [*_gcc_signals(ws, [str(ws.path("b2/src/unit07.c"))], "b2"), sig("failed", "Error 1")],
        "the broken unit recompiled with the project's flags plus -fdiagnostics-format=json",
    )
    if have_ninja:
        # Ninja success: progress collapses to its last step.
        ws.write("b3/CMakeLists.txt", lists5.replace("bigcalc", "quietcalc"))
        for u in units:
            ws.write(f"b3/{u}", "int f_" + Path(u).stem + "(int x) { return x; }\n")
        ws.write("b3/src/extra.c", "int extra(void) { return 1; }\n")
        ws.write("b3/src/main.c", "int main(void) { return 0; }\n")
        ws.sh("cmake -S . -B build -G Ninja", "b3")
        r = ws.run("cmake --build build", "b3")
        add(
            "cmake-build-ninja-success",
            r,
            [sig("last_step", "Linking C executable quietcalc")],
            "the executable target the project defines (the last build step links it)",
        )
    return fixtures


def _macro(header: str) -> str:
    return header.upper().replace("/", "_").replace(".", "_")
