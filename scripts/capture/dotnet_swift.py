"""dotnet build and swift build: neither SDK can be installed here (no .NET or Swift
packages in the reachable Debian archive, no network beyond PyPI/npm/Debian), so these
fixtures are synthesized from the documented output formats, with the values they were
generated from as signals.

dotnet (MSBuild console logger, what `dotnet build` prints when its output is not a
terminal): diagnostics in the canonical `origin(line,col): error CODE: text` format
(https://learn.microsoft.com/visualstudio/msbuild/msbuild-diagnostic-format-for-tasks)
followed by ` [project]`; `Build FAILED.`, the repeated diagnostics, `N Warning(s)`,
`N Error(s)` and `Time Elapsed` (https://learn.microsoft.com/dotnet/core/tools/dotnet-build).

swift (SwiftPM): `[N/M] Compiling Module File.swift` progress and `Build complete!`;
swiftc diagnostics `file:line:col: error: message` with a source line and caret in the
classic style, or numbered gutter excerpts ending in `` `- error: `` in Swift 6, as
shown in https://github.com/paradiseduo/resymbol/issues/2 and
https://github.com/fzlzjerry/wechat-antirecall/issues/64.
"""

from __future__ import annotations

from typing import Any

from capture._lib import Workspace, sig, synthesized

DOTNET_SOURCE = (
    "MSBuild canonical diagnostic format https://learn.microsoft.com/visualstudio/msbuild/"
    "msbuild-diagnostic-format-for-tasks; dotnet build console logger summary "
    "https://learn.microsoft.com/dotnet/core/tools/dotnet-build"
)
SWIFT_SOURCE = (
    "SwiftPM build progress and swiftc diagnostics as shown in https://github.com/paradiseduo/resymbol/issues/2 "
    "(classic caret style) and https://github.com/fzlzjerry/wechat-antirecall/issues/64 (Swift 6 gutter style)"
)
ROOT = "/home/dev/Shop"


def _proj(name: str) -> str:
    return f"{ROOT}/src/{name}/{name}.csproj"


def _dotnet_errors() -> dict[str, Any]:
    diags = [
        (
            f"{ROOT}/src/Shop.Core/Models/Customer.cs(12,23)",
            "warning",
            "CS8618",
            "Non-nullable property 'Email' must contain a non-null value when exiting constructor. Consider adding the 'required' modifier or declaring the property as nullable.",
            "Shop.Core",
        ),
        (
            f"{ROOT}/src/Shop.Core/Services/PriceCalculator.cs(31,17)",
            "warning",
            "CS0168",
            "The variable 'ex' is declared but never used",
            "Shop.Core",
        ),
        (
            f"{ROOT}/src/Shop.Api/Controllers/OrdersController.cs(27,20)",
            "error",
            "CS0103",
            "The name 'orderServce' does not exist in the current context",
            "Shop.Api",
        ),
        (
            f"{ROOT}/src/Shop.Api/Controllers/OrdersController.cs(41,31)",
            "error",
            "CS1061",
            "'Order' does not contain a definition for 'TotalCents' and no accessible extension method 'TotalCents' accepting a first argument of type 'Order' could be found (are you missing a using directive or an assembly reference?)",
            "Shop.Api",
        ),
        (
            f"{ROOT}/src/Shop.Api/Program.cs(18,29)",
            "error",
            "CS0029",
            "Cannot implicitly convert type 'string' to 'int'",
            "Shop.Api",
        ),
    ]
    lines = [
        "MSBuild version 17.9.8+b34f75857 for .NET",
        "  Determining projects to restore...",
        "  All projects are up-to-date for restore.",
    ]
    rendered = [f"{loc}: {sev} {code}: {msg} [{_proj(p)}]" for loc, sev, code, msg, p in diags]
    lines += rendered[:2]
    lines.append(f"  Shop.Core -> {ROOT}/src/Shop.Core/bin/Debug/net8.0/Shop.Core.dll")
    lines += rendered[2:]
    lines += ["", "Build FAILED.", "", *rendered, "    2 Warning(s)", "    3 Error(s)", "", "Time Elapsed 00:00:04.17"]
    signals = []
    for loc, sev, code, msg, _ in diags:
        signals += [sig(f"{sev}_location", loc), sig(f"{sev}_message", f"{sev} {code}: {msg}")]
    signals += [sig("outcome", "Build FAILED."), sig("count", "3 Error(s)"), sig("output", "Shop.Core.dll")]
    return synthesized(
        "dotnet-build-errors",
        "build/dotnet",
        family="dotnet",
        command="dotnet build",
        exit_code=1,
        stdout="\n".join(lines) + "\n",
        signals=signals,
        format_source=DOTNET_SOURCE,
        tool_version=".NET SDK 8.0.204 (MSBuild 17.9.8)",
    )


def _dotnet_warnings_large() -> dict[str, Any]:
    """A six-project solution with nullable-reference warnings everywhere: builds, 120 warnings."""
    projects = ["Shop.Core", "Shop.Data", "Shop.Domain", "Shop.Services", "Shop.Api", "Shop.Worker"]
    lines = [
        "MSBuild version 17.9.8+b34f75857 for .NET",
        "  Determining projects to restore...",
        *[f"  Restored {_proj(p)} (in {120 + 17 * k} ms)." for k, p in enumerate(projects)],
    ]
    all_diags: list[str] = []
    signals: list[Any] = []
    for k, p in enumerate(projects):
        for n in range(20):
            cls = f"Entity{n:02d}"
            if n % 2 == 0:
                loc = f"{ROOT}/src/{p}/Models/{cls}.cs({8 + n},{19 + k})"
                code, msg = (
                    "CS8618",
                    (
                        "Non-nullable property 'Name' must contain a non-null value when exiting constructor. "
                        "Consider adding the 'required' modifier or declaring the property as nullable."
                    ),
                )
            else:
                loc = f"{ROOT}/src/{p}/Services/{cls}Service.cs({30 + n},{13 + k})"
                code, msg = "CS8602", "Dereference of a possibly null reference."
            d = f"{loc}: warning {code}: {msg} [{_proj(p)}]"
            lines.append(d)
            all_diags.append(d)
            signals.append(sig("warning_location", loc))
        lines.append(f"  {p} -> {ROOT}/src/{p}/bin/Debug/net8.0/{p}.dll")
        signals.append(sig("output", f"{p}.dll"))
    signals += [
        sig(
            "warning_message",
            "warning CS8618: Non-nullable property 'Name' must contain a non-null value when exiting constructor.",
        ),
        sig("warning_message", "warning CS8602: Dereference of a possibly null reference."),
        sig("outcome", "Build succeeded."),
        sig("count", "120 Warning(s)"),
    ]
    lines += [
        "",
        "Build succeeded.",
        "",
        *all_diags,
        "    120 Warning(s)",
        "    0 Error(s)",
        "",
        "Time Elapsed 00:00:11.62",
    ]
    return synthesized(
        "dotnet-build-warnings-large",
        "build/dotnet",
        family="dotnet",
        command="dotnet build Shop.sln",
        exit_code=0,
        stdout="\n".join(lines) + "\n",
        signals=signals,
        format_source=DOTNET_SOURCE,
        tool_version=".NET SDK 8.0.204 (MSBuild 17.9.8)",
    )


def _dotnet_restore_failure() -> dict[str, Any]:
    proj = _proj("Shop.Api")
    err = (
        f"{proj} : error NU1101: Unable to find package Shop.Contracts.Internal. No packages exist with this id "
        f"in source(s): nuget.org [{proj}]"
    )
    lines = [
        "MSBuild version 17.9.8+b34f75857 for .NET",
        "  Determining projects to restore...",
        err,
        f"  Failed to restore {proj} (in 1.84 sec).",
        "",
        "Build FAILED.",
        "",
        err,
        "    0 Warning(s)",
        "    1 Error(s)",
        "",
        "Time Elapsed 00:00:02.35",
    ]
    return synthesized(
        "dotnet-build-restore-failure",
        "build/dotnet",
        family="dotnet",
        command="dotnet build",
        exit_code=1,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("error_message", "error NU1101: Unable to find package Shop.Contracts.Internal."),
            sig("outcome", "Build FAILED."),
        ],
        format_source=DOTNET_SOURCE,
        tool_version=".NET SDK 8.0.204 (MSBuild 17.9.8)",
    )


SWIFT_ROOT = "/home/dev/inventory/Sources/Inventory"


def _swift_classic() -> dict[str, Any]:
    out = (
        "Building for debugging...\n"
        "[0/4] Write sources\n"
        "[1/4] Write swift-version--58304C5D6DBC2206.txt\n"
        "[3/6] Compiling Inventory Store.swift\n"
        f"{SWIFT_ROOT}/Store.swift:14:20: error: cannot find 'reserved' in scope\n"
        "        return n + reserved(sku)\n"
        "                   ^~~~~~~~\n"
        f"{SWIFT_ROOT}/Store.swift:9:13: warning: initialization of immutable value 'label' was never used; consider replacing with assignment to '_' or removing it\n"
        '        let label = "stock"\n'
        "        ~~~~^~~~~\n"
        "        _\n"
        f"{SWIFT_ROOT}/Report.swift:22:27: error: value of type 'Item' has no member 'cuont'\n"
        "        total += item.cuont\n"
        "                 ~~~~ ^~~~~\n"
        f"{SWIFT_ROOT}/Report.swift:30:16: error: cannot convert return expression of type 'Int' to return type 'String'\n"
        "        return total\n"
        "               ^~~~~\n"
        "error: fatalError\n"
    )
    return synthesized(
        "swift-build-errors-classic",
        "build/swift-build",
        family="swift",
        command="swift build",
        exit_code=1,
        stdout=out,
        signals=[
            sig("error_location", f"{SWIFT_ROOT}/Store.swift:14:20"),
            sig("error_message", "error: cannot find 'reserved' in scope"),
            sig("warning_location", f"{SWIFT_ROOT}/Store.swift:9:13"),
            sig("error_location", f"{SWIFT_ROOT}/Report.swift:22:27"),
            sig("error_message", "error: value of type 'Item' has no member 'cuont'"),
            sig("error_location", f"{SWIFT_ROOT}/Report.swift:30:16"),
            sig("error_message", "error: cannot convert return expression of type 'Int' to return type 'String'"),
            sig("failure", "error: fatalError"),
        ],
        format_source=SWIFT_SOURCE,
        tool_version="Swift 5.8",
    )


def _swift6_gutter() -> dict[str, Any]:
    out = (
        "Building for debugging...\n"
        "[0/5] Write sources\n"
        "[2/5] Write swift-version--1AB21518FC5DEDBE.txt\n"
        "[4/7] Emitting module Inventory\n"
        "[5/7] Compiling Inventory Store.swift\n"
        f"{SWIFT_ROOT}/Store.swift:14:20: error: cannot find 'reserved' in scope\n"
        "12 |     func count(_ sku: String) -> Int {\n"
        "13 |         let n = stock[sku] ?? 0\n"
        "14 |         return n + reserved(sku)\n"
        "   |                    `- error: cannot find 'reserved' in scope\n"
        "15 |     }\n"
        "16 | }\n"
        "\n"
        f"{SWIFT_ROOT}/Store.swift:21:9: warning: variable 'cache' was never mutated; consider changing to 'let' constant\n"
        "19 | \n"
        "20 |     func snapshot() -> [String: Int] {\n"
        "21 |         var cache = stock\n"
        "   |         `- warning: variable 'cache' was never mutated; consider changing to 'let' constant\n"
        "22 |         return cache\n"
        "23 |     }\n"
        "\n"
        f"{SWIFT_ROOT}/Report.swift:8:32: error: missing argument label 'sku:' in call\n"
        " 6 |     func line(for item: Item) -> String {\n"
        " 7 |         let store = Store()\n"
        ' 8 |         return "\\(item.name): \\(store.count(item.sku))"\n'
        "   |                                `- error: missing argument label 'sku:' in call\n"
        " 9 |     }\n"
        "10 | }\n"
    )
    return synthesized(
        "swift-build-errors-swift6",
        "build/swift-build",
        family="swift",
        command="swift build",
        exit_code=1,
        stdout=out,
        signals=[
            sig("error_location", f"{SWIFT_ROOT}/Store.swift:14:20"),
            sig("error_message", "error: cannot find 'reserved' in scope"),
            sig("warning_location", f"{SWIFT_ROOT}/Store.swift:21:9"),
            sig("warning_message", "warning: variable 'cache' was never mutated"),
            sig("error_location", f"{SWIFT_ROOT}/Report.swift:8:32"),
            sig("error_message", "error: missing argument label 'sku:' in call"),
        ],
        format_source=SWIFT_SOURCE,
        tool_version="Swift 6.0",
    )


def _swift_success_large() -> dict[str, Any]:
    """A package with dependencies and 120 source files: resolution, progress, two warnings."""
    deps = ["swift-argument-parser", "swift-log", "swift-collections", "swift-nio", "swift-crypto"]
    lines = []
    for k, d in enumerate(deps):
        lines += [
            f"Fetching https://github.com/apple/{d}.git",
            f"Fetched https://github.com/apple/{d}.git from cache ({1.2 + k:.2f}s)",
        ]
    for k, d in enumerate(deps):
        lines += [
            f"Computing version for https://github.com/apple/{d}.git",
            f"Computed https://github.com/apple/{d}.git at 1.{k + 2}.0 ({0.4 + k / 10:.2f}s)",
            f"Creating working copy for https://github.com/apple/{d}.git",
            f"Working copy of https://github.com/apple/{d}.git resolved at 1.{k + 2}.0",
        ]
    lines.append("Building for debugging...")
    total = 131
    step = 0
    for k in range(120):
        step += 1
        mod = ["Inventory", "InventoryCore", "InventoryCLI"][k % 3]
        lines.append(f"[{step}/{total}] Compiling {mod} File{k:03d}.swift")
        if k == 40:
            lines += [
                f"{SWIFT_ROOT}/File040.swift:17:13: warning: 'synchronize()' is deprecated: use the async API instead",
                "        store.synchronize()",
                "              ^",
            ]
        if k == 77:
            lines += [
                f"{SWIFT_ROOT}/File077.swift:5:9: warning: will never be executed",
                '        print("unreachable")',
                "        ^",
            ]
    for mod in ("Inventory", "InventoryCore", "InventoryCLI"):
        step += 1
        lines.append(f"[{step}/{total}] Emitting module {mod}")
    lines += [f"[{total}/{total}] Linking inventory-cli", "Build complete! (48.31s)"]
    return synthesized(
        "swift-build-success-large",
        "build/swift-build",
        family="swift",
        command="swift build",
        exit_code=0,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("warning_location", f"{SWIFT_ROOT}/File040.swift:17:13"),
            sig("warning_message", "warning: 'synchronize()' is deprecated: use the async API instead"),
            sig("warning_location", f"{SWIFT_ROOT}/File077.swift:5:9"),
            sig("warning_message", "warning: will never be executed"),
            sig("outcome", "Build complete!"),
        ],
        format_source=SWIFT_SOURCE,
        tool_version="Swift 5.10",
    )


def capture(ws: Workspace) -> list[dict[str, Any]]:
    del ws  # nothing runs: see the module docstring
    return [
        _dotnet_errors(),
        _dotnet_warnings_large(),
        _dotnet_restore_failure(),
        _swift_classic(),
        _swift6_gutter(),
        _swift_success_large(),
    ]
