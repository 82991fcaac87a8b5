"""swift test, xcodebuild and msbuild: synthesized (no Swift toolchain, Xcode or MSBuild
runs on this Linux machine).

Each output follows the tool's documented format, written here for a small project of
our own: XCTest's `Test Case '-[Module.Class method]' passed/failed (N seconds)` and
`Executed N tests, with M failures` lines and Swift Testing's `✔`/`✘` lines (Swift
Package Manager docs, swift-corelibs-xctest), xcodebuild's per-step command blocks,
`The following build commands failed:` list and `** BUILD FAILED **` banner (man
xcodebuild, Xcode build logs), MSBuild's console logger (`file(line,col): error CODE:
message [project]`, the summary after `Build FAILED.`). The signals are the values the
outputs were generated from.
"""

from __future__ import annotations

from typing import Any

from capture._lib import Workspace, sig, synthesized

SWIFT_SOURCE = "Swift Package Manager `swift test` with XCTest and Swift Testing (swift.org documentation)"
XCODE_SOURCE = "xcodebuild build/test logs (man xcodebuild; Xcode 15 build log layout)"
MSBUILD_SOURCE = "MSBuild console logger (learn.microsoft.com: MSBuild command-line reference, diagnostics format)"
PKG = "/home/dev/ledger"


def capture(ws: Workspace) -> list[dict[str, Any]]:
    del ws  # nothing runs here
    return [_swift_xctest(), _swift_testing(), _xcode_build_failed(), _xcode_test_failed(), _msbuild_solution()]


def _swift_xctest() -> dict[str, Any]:
    lines = [
        "Building for debugging...",
        "[0/7] Write sources",
        "[1/7] Write swift-version--3F1A0C2B9E.txt",
        "[3/9] Compiling Ledger Account.swift",
        "[4/9] Compiling Ledger Journal.swift",
        "[6/9] Emitting module LedgerTests",
        "[7/9] Compiling LedgerTests AccountTests.swift",
        "[8/9] Linking LedgerPackageTests.xctest",
        "Build complete! (4.12s)",
        "Test Suite 'All tests' started at 2026-05-04 09:12:03.118",
        "Test Suite 'LedgerPackageTests.xctest' started at 2026-05-04 09:12:03.119",
    ]
    fails = {("AccountTests", "testOverdraftIsRejected"), ("JournalTests", "testBalancedEntryTotalsZero")}
    for cls, methods in (
        ("AccountTests", ["testOpenAccount", "testDeposit", "testWithdraw", "testOverdraftIsRejected", "testInterest"]),
        ("JournalTests", [f"testPosting{k}" for k in range(1, 18)] + ["testBalancedEntryTotalsZero"]),
    ):
        lines.append(f"Test Suite '{cls}' started at 2026-05-04 09:12:03.120")
        for m in methods:
            lines.append(f"Test Case '-[LedgerTests.{cls} {m}]' started.")
            if (cls, m) in fails:
                if m == "testOverdraftIsRejected":
                    lines.append(
                        f"{PKG}/Tests/LedgerTests/AccountTests.swift:41: error: -[LedgerTests.AccountTests "
                        'testOverdraftIsRejected] : XCTAssertThrowsError failed: did not throw an error - "withdraw 500 from 200"'
                    )
                else:
                    lines.append(
                        f"{PKG}/Tests/LedgerTests/JournalTests.swift:88: error: -[LedgerTests.JournalTests "
                        'testBalancedEntryTotalsZero] : XCTAssertEqual failed: ("0.01") is not equal to ("0.0")'
                    )
                lines.append(f"Test Case '-[LedgerTests.{cls} {m}]' failed (0.004 seconds).")
            else:
                lines.append(f"Test Case '-[LedgerTests.{cls} {m}]' passed (0.001 seconds).")
        n, f = len(methods), sum(1 for c, _ in fails if c == cls)
        lines.append(f"Test Suite '{cls}' failed at 2026-05-04 09:12:03.190.")
        lines.append(f"\t Executed {n} tests, with {f} failure (0 unexpected) in 0.052 (0.053) seconds")
    lines += [
        "Test Suite 'LedgerPackageTests.xctest' failed at 2026-05-04 09:12:03.191.",
        "\t Executed 23 tests, with 2 failures (0 unexpected) in 0.104 (0.106) seconds",
        "Test Suite 'All tests' failed at 2026-05-04 09:12:03.191.",
        "\t Executed 23 tests, with 2 failures (0 unexpected) in 0.104 (0.107) seconds",
    ]
    return synthesized(
        "swift-test-xctest-failures",
        "tests/swift-test",
        family="swift-test",
        command="swift test",
        exit_code=1,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("failing_test", "-[LedgerTests.AccountTests testOverdraftIsRejected]' failed"),
            sig("failing_test", "-[LedgerTests.JournalTests testBalancedEntryTotalsZero]' failed"),
            sig("error_location", f"{PKG}/Tests/LedgerTests/AccountTests.swift:41"),
            sig("error_location", f"{PKG}/Tests/LedgerTests/JournalTests.swift:88"),
            sig("assertion", 'XCTAssertEqual failed: ("0.01") is not equal to ("0.0")'),
            sig("summary", "Executed 23 tests, with 2 failures (0 unexpected)"),
        ],
        format_source=SWIFT_SOURCE,
        tool_version="Swift 5.10 (XCTest)",
    )


def _swift_testing() -> dict[str, Any]:
    lines = [
        "Building for debugging...",
        "[1/5] Write sources",
        "[3/6] Compiling Ledger Currency.swift",
        "Build complete! (2.87s)",
        "◇ Test run started.",
        "↳ Testing Library Version: 0.10.0",
    ]
    for k in range(1, 30):
        lines.append(f"◇ Test convertsAmount{k}() started.")
        lines.append(f"✔ Test convertsAmount{k}() passed after 0.002 seconds.")
    lines += [
        "◇ Test roundsHalfEven() started.",
        "✘ Test roundsHalfEven() recorded an issue at CurrencyTests.swift:57:9: Expectation failed: "
        "(rounded → 2.5) == 2.4",
        "✘ Test roundsHalfEven() failed after 0.003 seconds with 1 issue.",
        "✘ Test run with 30 tests failed after 0.091 seconds with 1 issue.",
    ]
    return synthesized(
        "swift-test-swift-testing-issue",
        "tests/swift-test",
        family="swift-test",
        command="swift test --enable-swift-testing",
        exit_code=1,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("failing_test", "Test roundsHalfEven() recorded an issue at CurrencyTests.swift:57:9"),
            sig("assertion", "Expectation failed: (rounded → 2.5) == 2.4"),
            sig("summary", "Test run with 30 tests failed after 0.091 seconds with 1 issue."),
        ],
        format_source=SWIFT_SOURCE,
        tool_version="Swift 6.0 (Swift Testing 0.10.0)",
    )


XC_APP = "/Users/dev/Shopfront"
DERIVED = "/Users/dev/Library/Developer/Xcode/DerivedData/Shopfront-bqzjxkaw/Build"
XC_BIN = "/Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin"


def _xcode_step(kind: str, target: str, file: str) -> list[str]:
    return [
        f"{kind} normal arm64 {XC_APP}/Shopfront/{file} (in target '{target}' from project 'Shopfront')",
        f"    cd {XC_APP}",
        f"    {XC_BIN}/swift-frontend -c -primary-file {XC_APP}/Shopfront/{file} -emit-dependencies-path "
        f"{DERIVED}/Intermediates.noindex/Shopfront.build/Debug-iphonesimulator/{target}.build/Objects-normal/arm64/"
        f"{file.rsplit('/', 1)[-1].removesuffix('.swift')}.d -target arm64-apple-ios17.0-simulator -enable-testing -g "
        "-module-name Shopfront -Onone",
        "",
    ]


def _xcode_head(command: str) -> list[str]:
    return [
        "Command line invocation:",
        f"    /Applications/Xcode.app/Contents/Developer/usr/bin/{command}",
        "",
        "Resolve Package Graph",
        "",
        "Resolved source packages:",
        "  swift-collections: https://github.com/apple/swift-collections.git @ 1.1.0",
        "",
        "Prepare packages",
        "",
        "ComputeTargetDependencyGraph",
        "note: Building targets in dependency order",
        "note: Target dependency graph (2 targets)",
        "    Target 'Shopfront' in project 'Shopfront'",
        "    ➜ Explicit dependency on target 'ShopKit' in project 'Shopfront'",
        "",
        "Build description signature: 6c3d1a0f9b2e44d7a1c0e5f3b8d2a901",
        "Build description path: /Users/dev/Library/Developer/Xcode/DerivedData/XCBuildData/6c3d1a0f.xcbuilddata",
        "",
    ]


def _xcode_build_failed() -> dict[str, Any]:
    files = [f"Views/Screen{k:02d}View.swift" for k in range(1, 25)]
    lines = _xcode_head("xcodebuild -scheme Shopfront -destination 'platform=iOS Simulator,name=iPhone 15' build")
    for f in files:
        lines += _xcode_step("SwiftCompile", "Shopfront", f)
        if f.endswith("Screen07View.swift"):
            lines += [
                f"{XC_APP}/Shopfront/{f}:33:18: error: cannot find 'CartBadge' in scope",
                "            CartBadge(count: cart.items.count)",
                "            ^~~~~~~~~",
                "",
            ]
        if f.endswith("Screen15View.swift"):
            lines += [
                f"{XC_APP}/Shopfront/{f}:12:9: warning: variable 'total' was never mutated; consider changing to 'let' constant",
                "        var total = order.total",
                "        ~~~ ^",
                "        let",
                "",
            ]
    lines += [
        "** BUILD FAILED **",
        "",
        "",
        "The following build commands failed:",
        f"\tSwiftCompile normal arm64 {XC_APP}/Shopfront/Views/Screen07View.swift (in target 'Shopfront' from "
        "project 'Shopfront')",
        "\tSwiftEmitModule normal arm64 Emitting\\ module\\ for\\ Shopfront (in target 'Shopfront' from project 'Shopfront')",
        "(2 failures)",
    ]
    return synthesized(
        "xcodebuild-build-failed",
        "build/xcodebuild",
        family="xcodebuild",
        command="xcodebuild -scheme Shopfront -destination 'platform=iOS Simulator,name=iPhone 15' build",
        exit_code=65,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("error_location", f"{XC_APP}/Shopfront/Views/Screen07View.swift:33:18"),
            sig("error_message", "error: cannot find 'CartBadge' in scope"),
            sig("warning_location", f"{XC_APP}/Shopfront/Views/Screen15View.swift:12:9"),
            sig("failure", "The following build commands failed:"),
            sig("failed_command", "SwiftCompile normal arm64 /Users/dev/Shopfront/Shopfront/Views/Screen07View.swift"),
            sig("failed_command", "SwiftEmitModule normal arm64"),
            sig("summary", "** BUILD FAILED **"),
            sig("summary", "(2 failures)"),
        ],
        format_source=XCODE_SOURCE,
        tool_version="Xcode 15.4 (15F31d)",
    )


def _xcode_test_failed() -> dict[str, Any]:
    lines = _xcode_head("xcodebuild test -scheme Shopfront -destination 'platform=iOS Simulator,name=iPhone 15'")
    for f in [f"Models/Model{k:02d}.swift" for k in range(1, 13)]:
        lines += _xcode_step("SwiftCompile", "ShopKit", f)
    lines += ["Test Suite 'All tests' started at 2026-05-04 10:01:11.002"]
    for k in range(1, 31):
        lines.append(f"Test Case '-[ShopfrontTests.CartTests testLine{k}]' started.")
        if k == 19:
            lines.append(
                f"{XC_APP}/ShopfrontTests/CartTests.swift:112: error: -[ShopfrontTests.CartTests testLine19] : "
                'XCTAssertEqual failed: ("3") is not equal to ("2") - discount applied twice'
            )
            lines.append("Test Case '-[ShopfrontTests.CartTests testLine19]' failed (0.012 seconds).")
        else:
            lines.append(f"Test Case '-[ShopfrontTests.CartTests testLine{k}]' passed (0.001 seconds).")
    lines += [
        "Test Suite 'All tests' failed at 2026-05-04 10:01:11.240.",
        "\t Executed 30 tests, with 1 failure (0 unexpected) in 0.212 (0.238) seconds",
        "",
        "Test session results, code coverage, and logs:",
        "\t/Users/dev/Library/Developer/Xcode/DerivedData/Shopfront-bqzjxkaw/Logs/Test/Test-Shopfront.xcresult",
        "",
        "Testing failed:",
        '\tCartTests.testLine19(): XCTAssertEqual failed: ("3") is not equal to ("2") - discount applied twice',
        "\tShopfront (31472) encountered an error (Early unexpected exit, operation never finished bootstrapping)",
        "",
        "** TEST FAILED **",
    ]
    return synthesized(
        "xcodebuild-test-failed",
        "build/xcodebuild",
        family="xcodebuild",
        command="xcodebuild test -scheme Shopfront -destination 'platform=iOS Simulator,name=iPhone 15'",
        exit_code=65,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("failing_test", "-[ShopfrontTests.CartTests testLine19]' failed"),
            sig("error_location", f"{XC_APP}/ShopfrontTests/CartTests.swift:112"),
            sig("summary", "Executed 30 tests, with 1 failure"),
            sig("failure", "Testing failed:"),
            sig("failure", "Early unexpected exit, operation never finished bootstrapping"),
            sig("summary", "** TEST FAILED **"),
        ],
        format_source=XCODE_SOURCE,
        tool_version="Xcode 15.4 (15F31d)",
    )


def _msbuild_solution() -> dict[str, Any]:
    web, tests = "C:\\src\\Billing\\Web\\App.csproj", "C:\\src\\Billing\\Tests\\App.csproj"
    diags = [
        f"C:\\src\\Billing\\Web\\Invoices\\InvoiceController.cs(41,17): error CS0103: The name 'taxRate' does not "
        f"exist in the current context [{web}]",
        f"C:\\src\\Billing\\Tests\\InvoiceTests.cs(12,7): error CS0246: The type or namespace name 'Moq' could not "
        f"be found (are you missing a using directive or an assembly reference?) [{tests}]",
    ] + [
        f"C:\\src\\Billing\\Web\\Models\\Line{k:02d}.cs({k + 3},16): warning CS8618: Non-nullable property 'Sku' "
        f"must contain a non-null value when exiting constructor. Consider declaring the property as nullable. [{web}]"
        for k in range(1, 21)
    ]
    lines = [
        "MSBuild version 17.10.4+10fbfbf2e for .NET Framework",
        "Build started 5/4/2026 11:20:31 AM.",
        "",
        'Project "C:\\src\\Billing\\Billing.sln" on node 1 (default targets).',
        "ValidateSolutionConfiguration:",
        '  Building solution configuration "Debug|Any CPU".',
        *diags,
        'Done Building Project "C:\\src\\Billing\\Billing.sln" (default targets) -- FAILED.',
        "",
        "Build FAILED.",
        "",
        *diags,
        "    20 Warning(s)",
        "    2 Error(s)",
        "",
        "Time Elapsed 00:00:07.93",
    ]
    return synthesized(
        "msbuild-solution-same-named-projects",
        "build/msbuild",
        family="msbuild",
        command="msbuild Billing.sln /p:Configuration=Debug",
        exit_code=1,
        stdout="\n".join(lines) + "\n",
        signals=[
            sig("error_message", "error CS0103: The name 'taxRate' does not exist in the current context"),
            sig("project", f"[{web}]"),
            sig("project", f"[{tests}]"),
            sig("error_location", "C:\\src\\Billing\\Tests\\InvoiceTests.cs(12,7)"),
            sig("summary", "Build FAILED."),
            sig("summary", "2 Error(s)"),
        ],
        format_source=MSBUILD_SOURCE,
        tool_version="MSBuild 17.10.4",
    )
