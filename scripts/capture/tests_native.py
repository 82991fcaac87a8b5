"""Native test runners: cargo test (libtest), go test, ctest; cargo nextest synthesized.

cargo test: a dependency-free crate (offline) with unit, integration and doc tests;
signals from a rerun with `RUSTC_BOOTSTRAP=1 cargo test -- -Z unstable-options
--format json` (failed test names, the `panicked at file:line:col` location and the
first panic-message line, suite counts). go test: a stdlib-only module; signals from
`go test -json` (failing test names, the first `file_test.go:N:` message line of each,
FAIL package lines). ctest: a CMake project whose tests are small C programs; signals
from `ctest --output-junit` (failing test names and their status/counts).
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from capture._lib import Skip, Workspace, sig, synthesized

# ------------------------------------------------------------------ cargo test

CARGO_TOML = """
[package]
name = "ledger"
version = "0.3.0"
edition = "2021"

[dependencies]
"""

LIB_RS = r"""
//! A tiny double-entry ledger.

use std::collections::BTreeMap;

/// Parses an amount like `12.50` into cents.
///
/// ```
/// assert_eq!(ledger::parse_cents("12.50"), Some(1250));
/// assert_eq!(ledger::parse_cents("0.5"), Some(50));
/// ```
pub fn parse_cents(text: &str) -> Option<i64> {
    let (units, cents) = text.split_once('.').unwrap_or((text, "0"));
    let units: i64 = units.parse().ok()?;
    let cents: i64 = cents.parse().ok()?;
    Some(units * 100 + cents)
}

/// Formats cents as `12.50`.
///
/// ```
/// assert_eq!(ledger::format_cents(1250), "12.50");
/// ```
pub fn format_cents(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, (cents % 100).abs())
}

#[derive(Default)]
pub struct Ledger {
    balances: BTreeMap<String, i64>,
}

impl Ledger {
    pub fn post(&mut self, from: &str, to: &str, cents: i64) {
        *self.balances.entry(from.to_string()).or_insert(0) -= cents;
        *self.balances.entry(to.to_string()).or_insert(0) += cents;
    }
    pub fn balance(&self, account: &str) -> i64 {
        self.balances[account]
    }
    pub fn total(&self) -> i64 {
        self.balances.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_whole_units() {
        assert_eq!(parse_cents("12"), Some(1200));
    }

    #[test]
    fn parses_cents() {
        assert_eq!(parse_cents("12.05"), Some(1205));
    }

    #[test]
    fn parses_short_cents() {
        assert_eq!(parse_cents("3.5"), Some(350), "one decimal digit means tens of cents");
    }

    #[test]
    fn formats_negative() {
        assert_eq!(format_cents(-250), "-2.50");
    }

    #[test]
    fn balance_of_unknown_account() {
        let l = Ledger::default();
        assert_eq!(l.balance("cash"), 0);
    }

    #[test]
    fn postings_balance_out() {
        let mut l = Ledger::default();
        for i in 0..20 {
            println!("posting #{i}: cash -> sales {}", i * 100);
            l.post("cash", "sales", i * 100);
        }
        assert_eq!(l.total(), 0);
        assert!(l.balance("sales") > 20_000, "sales too low: {}", l.balance("sales"));
    }

    #[test]
    #[should_panic(expected = "negative amount")]
    fn rejects_negative_postings() {
        let mut l = Ledger::default();
        l.post("cash", "sales", -5);
    }

    #[test]
    #[ignore = "needs a database"]
    fn persists_to_disk() {}
}
"""

IT_RS = r"""
use ledger::{format_cents, parse_cents, Ledger};

#[test]
fn round_trip() {
    for s in ["0.01", "1.00", "19.99", "250.10"] {
        assert_eq!(format_cents(parse_cents(s).unwrap()), s);
    }
}

#[test]
fn parses_garbage() {
    assert_eq!(parse_cents("12,50"), None);
    let v = parse_cents("abc").expect("garbage must parse to a default");
    assert_eq!(v, 0);
}

#[test]
fn ledger_moves_money() {
    let mut l = Ledger::default();
    l.post("cash", "rent", 120_000);
    assert_eq!(l.balance("rent"), 120_000);
}
"""


def _bulk_tests(n: int) -> str:
    lines = ["#[cfg(test)]", "mod bulk {", "    use crate::parse_cents;"]
    for i in range(n):
        lines += [
            "    #[test]",
            f"    fn row_{i:04d}() {{",
            f'        assert_eq!(parse_cents("{i}"), Some({i * 100}));',
            "    }",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cargo_signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    env = dict(ws.env, RUSTC_BOOTSTRAP="1")
    env.pop("RUST_BACKTRACE", None)
    r = ws.run(["cargo", "test", *args, "--", "-Z", "unstable-options", "--format", "json"], cwd, env=env)
    sigs: list[Any] = []
    for line in r.stdout.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if ev.get("type") == "suite" and ev.get("event") == "failed":
            # Each failing target's own `test result:` counts.
            sigs.append(sig("summary", f"{ev.get('passed', 0)} passed; {ev.get('failed', 0)} failed"))
        if ev.get("type") != "test" or ev.get("event") != "failed":
            continue
        sigs.append(sig("failing_test", ev["name"]))
        if ev.get("message"):
            sigs.append(sig("failure_message", ev["message"]))
        out = ev.get("stdout") or ""
        m = re.search(r"panicked at ([^\s:]+:\d+:\d+):\n(.*)", out)
        if m:
            sigs.append(sig("location", m.group(1)))
            sigs.append(sig("failure_message", m.group(2).strip()[:150]))
    return sigs


def _cargo_test(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("cargo")
    ws.env["CARGO_NET_OFFLINE"] = "true"
    ws.env["CARGO_TERM_COLOR"] = "never"
    ws.env.pop("RUST_BACKTRACE", None)
    versions = {"cargo": ws.version(["cargo", "--version"]), "rustc": ws.version(["rustc", "--version"])}
    ws.write("ledger/Cargo.toml", CARGO_TOML)
    ws.write("ledger/src/lib.rs", LIB_RS + "\n" + _bulk_tests(1200))
    ws.write("ledger/tests/integration.rs", IT_RS)
    ws.sh("cargo build --tests -q", "ledger")
    fixtures: list[dict[str, Any]] = []
    source = (
        "rerun with RUSTC_BOOTSTRAP=1 cargo test -- -Z unstable-options --format json: failed test names, "
        "`panicked at` location and first panic-message line, failed counts of the suites"
    )

    def add(
        id: str, args: list[str], note: str, env: dict[str, str] | None = None, sig_args: list[str] | None = None
    ) -> None:
        r = ws.run(["cargo", "test", *args], "ledger", env=env)
        fixtures.append(
            ws.fixture(
                id,
                "tests/cargo-test",
                r,
                family="cargo-test",
                signals=_cargo_signals(ws, sig_args if sig_args is not None else args, "ledger"),
                signal_source=source,
                tool_version=versions,
                notes=note,
            )
        )

    add("cargo-test-failures", ["--no-fail-fast"], "unit, integration and doc tests with failures; 1200 bulk tests")
    add("cargo-test-default-stop", [], "stops after the failing lib target")
    add(
        "cargo-test-backtrace",
        ["--test", "integration"],
        "RUST_BACKTRACE=1: std frames in the backtrace",
        dict(ws.env, RUST_BACKTRACE="1"),
    )
    add("cargo-test-filter-pass", ["--lib", "bulk::"], "1200 passing tests of one module")
    add(
        "cargo-test-color",
        ["--color", "always", "--lib", "tests::", "--", "--color", "always"],
        "ANSI colours (cargo and libtest)",
        sig_args=["--lib", "tests::"],
    )
    # A test that does not compile: cargo test reports compiler errors.
    ws.write("ledger/tests/broken.rs", "use ledger::Ledger;\n#[test]\nfn t() { let l: Ledger = Ledger::new(); }\n")
    r = ws.run(["cargo", "test", "--test", "broken"], "ledger")
    compile_sigs: list[Any] = []
    msgs = ws.run(["cargo", "test", "--test", "broken", "--no-run", "--message-format=json"], "ledger")
    for line in msgs.stdout.splitlines():
        try:
            m = json.loads(line)
        except ValueError:
            continue
        msg = m.get("message") or {}
        if m.get("reason") != "compiler-message" or msg.get("level") != "error":
            continue
        spans = [sp for sp in msg.get("spans", []) if sp.get("is_primary")]
        compile_sigs.append(sig("error_message", (msg.get("rendered") or "").splitlines()[0]))
        if spans:
            sp = spans[0]
            compile_sigs.append(sig("location", f"{sp['file_name']}:{sp['line_start']}:{sp['column_start']}"))
    fixtures.append(
        ws.fixture(
            "cargo-test-compile-error",
            "tests/cargo-test",
            r,
            family="cargo-test",
            signals=compile_sigs,
            signal_source="rerun with --no-run --message-format=json: first rendered line and primary span of "
            "each compiler error",
            tool_version=versions,
            notes="the test target does not compile",
        )
    )
    os.remove(ws.path("ledger/tests/broken.rs"))
    return fixtures


# The failures of the cargo-test crate above, as nextest reports them (one process per test).
NEXTEST_FAILURES = {
    "ledger tests::balance_of_unknown_account": ("src/lib.rs:38:22", ["no entry found for key"], []),
    "ledger tests::parses_short_cents": (
        "src/lib.rs:61:9",
        [
            "assertion `left == right` failed: one decimal digit means tens of cents",
            "  left: Some(305)",
            " right: Some(350)",
        ],
        [],
    ),
    "ledger tests::postings_balance_out": (
        "src/lib.rs:83:9",
        ["sales too low: 19000"],
        [f"posting #{i}: cash -> sales {i * 100}" for i in range(20)],
    ),
    "ledger::integration parses_garbage": ("tests/integration.rs:13:32", ["garbage must parse to a default"], []),
}


def _nextest_names() -> list[str]:
    names = [f"ledger bulk::row_{i:04d}" for i in range(1200)]
    names[40:40] = [
        "ledger tests::balance_of_unknown_account",
        "ledger tests::formats_negative",
        "ledger tests::parses_cents",
        "ledger tests::parses_short_cents",
        "ledger tests::parses_whole_units",
        "ledger tests::postings_balance_out",
        "ledger tests::rejects_negative_postings",
    ]
    return [
        *names,
        "ledger::integration ledger_moves_money",
        "ledger::integration parses_garbage",
        "ledger::integration round_trip",
    ]


def _nextest(ws: Workspace) -> list[dict[str, Any]]:
    """cargo-nextest cannot be installed offline (crates.io): built from its documented format."""
    del ws
    fmt = (
        "https://nexte.st/docs/running/ and https://nexte.st/docs/reporting/ (`Starting N tests across M binaries`, "
        "`PASS [ t] binary test` / `FAIL [ t] …` status lines, `--- STDOUT: …---` / `--- STDERR: …---` sections "
        "of failing tests, `Summary [ t] N tests run: …` and the closing FAIL recap)"
    )
    names = _nextest_names()
    err = [
        "   Compiling ledger v0.3.0 (/home/dev/ledger)",
        "    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.52s",
        "────────────",
        " Nextest run ID 3f0c1a52-9d0e-4c1f-8b5e-6a2f7c1d9e44 with nextest profile: default",
        f"    Starting {len(names)} tests across 2 binaries (1 test skipped)",
    ]
    for k, name in enumerate(names):
        t = f"{0.002 + (k % 7) * 0.001:.3f}s"
        if name not in NEXTEST_FAILURES:
            err.append(f"        PASS [   {t}] {name}")
            continue
        loc, msg, printed = NEXTEST_FAILURES[name]
        short = name.split(" ", 1)[1]
        err += [f"        FAIL [   {t}] {name}", "", f"--- STDOUT:              {name} ---", ""]
        err += [
            "running 1 test",
            *printed,
            f"test {short} ... FAILED",
            "",
            "failures:",
            "",
            "failures:",
            f"    {short}",
            "",
        ]
        err += [
            f"test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; {len(names) - 1} filtered out; finished in 0.00s",
            "",
        ]
        err += [f"--- STDERR:              {name} ---", f"thread '{short}' panicked at {loc}:", *msg]
        err += ["note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", ""]
    n_fail = len(NEXTEST_FAILURES)
    err += [
        "────────────",
        f"     Summary [   1.874s] {len(names)} tests run: {len(names) - n_fail} passed, {n_fail} failed, 1 skipped",
    ]
    err += [f"        FAIL [   0.004s] {name}" for name in NEXTEST_FAILURES]
    err.append("error: test run failed")
    signals: list[Any] = []
    for name, (loc, msg, _) in NEXTEST_FAILURES.items():
        signals += [sig("failing_test", name), sig("location", loc), sig("failure_message", msg[0])]
    signals += [sig("summary", f"{n_fail} failed"), sig("summary", f"{len(names) - n_fail} passed")]
    fixtures = [
        synthesized(
            "cargo-nextest-failures",
            "tests/cargo-nextest",
            family="cargo-nextest",
            command="cargo nextest run",
            exit_code=100,
            stdout="",
            stderr="\n".join(err) + "\n",
            signals=signals,
            format_source=fmt,
            tool_version="cargo-nextest 0.9 (format)",
        )
    ]
    passing = [n for n in names if n not in NEXTEST_FAILURES]
    ok = [
        "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.05s",
        "────────────",
        " Nextest run ID 0b7d2e11-45aa-4c3e-9f61-2d8c0e5b7a19 with nextest profile: default",
        f"    Starting {len(passing)} tests across 2 binaries (1 test skipped)",
    ]
    ok += [f"        PASS [   {0.002 + (k % 5) * 0.001:.3f}s] {n}" for k, n in enumerate(passing)]
    ok += ["────────────", f"     Summary [   1.402s] {len(passing)} tests run: {len(passing)} passed, 1 skipped"]
    fixtures.append(
        synthesized(
            "cargo-nextest-pass",
            "tests/cargo-nextest",
            family="cargo-nextest",
            command="cargo nextest run -E 'not test(/balance_of|short_cents|postings|garbage/)'",
            exit_code=0,
            stdout="",
            stderr="\n".join(ok) + "\n",
            signals=[sig("summary", f"{len(passing)} passed"), sig("summary", "1 skipped")],
            format_source=fmt,
            tool_version="cargo-nextest 0.9 (format)",
        )
    )
    return fixtures


# --------------------------------------------------------------------- go test

GO_MOD = "module example.com/shop\n\ngo 1.19\n"

GO_CART = """
package cart

import (
	"errors"
	"fmt"
	"strings"
)

type Line struct {
	SKU   string
	Qty   int
	Price int
}

type Cart struct{ Lines []Line }

var ErrQty = errors.New("quantity must be positive")

func (c *Cart) Add(sku string, qty, price int) error {
	if qty <= 0 {
		return fmt.Errorf("add %s: %w", sku, ErrQty)
	}
	for i := range c.Lines {
		if c.Lines[i].SKU == sku {
			c.Lines[i].Qty = qty // bug: replaces instead of adding
			return nil
		}
	}
	c.Lines = append(c.Lines, Line{sku, qty, price})
	return nil
}

func (c *Cart) Total() int {
	t := 0
	for _, l := range c.Lines {
		t += l.Qty * l.Price
	}
	return t
}

func FormatCents(c int) string {
	return fmt.Sprintf("%d.%d", c/100, c%100) // bug: no zero padding
}

func Slug(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, " ", "-"))
}
"""

GO_CART_TEST = """
package cart

import (
	"fmt"
	"testing"
)

func TestAddNew(t *testing.T) {
	var c Cart
	if err := c.Add("A-1", 2, 150); err != nil {
		t.Fatal(err)
	}
	if got := len(c.Lines); got != 1 {
		t.Errorf("lines = %d, want 1", got)
	}
}

func TestAddMerges(t *testing.T) {
	var c Cart
	c.Add("A-1", 2, 150)
	c.Add("A-1", 3, 150)
	if got := c.Lines[0].Qty; got != 5 {
		t.Errorf("qty = %d, want 5", got)
	}
}

func TestAddRejectsZero(t *testing.T) {
	var c Cart
	err := c.Add("A-1", 0, 150)
	if err == nil || err.Error() != "quantity must be positive" {
		t.Fatalf("Add(0) error = %v, want %q", err, "quantity must be positive")
	}
}

func TestTotal(t *testing.T) {
	var c Cart
	c.Add("A-1", 2, 150)
	c.Add("B-2", 1, 999)
	t.Logf("cart has %d lines", len(c.Lines))
	if got := c.Total(); got != 1299 {
		t.Errorf("Total() = %d, want 1299", got)
	}
}

func TestFormatCents(t *testing.T) {
	cases := []struct {
		in   int
		want string
	}{{0, "0.00"}, {5, "0.05"}, {1250, "12.50"}, {99, "0.99"}, {100, "1.00"}, {1999, "19.99"}}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.in), func(t *testing.T) {
			if got := FormatCents(tc.in); got != tc.want {
				t.Errorf("FormatCents(%d) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestLineAt(t *testing.T) {
	var c Cart
	c.Add("A-1", 1, 100)
	for i := 0; i < 12; i++ {
		fmt.Printf("probing line %d\\n", i)
	}
	_ = c.Lines[3]
}

func TestSlow(t *testing.T) {
	if testing.Short() {
		t.Skip("slow test skipped in -short mode")
	}
}
"""

GO_SLUG_TEST = """
package cart

import "testing"

func TestSlug(t *testing.T) {
	if got := Slug("Summer Sale"); got != "summer-sale" {
		t.Errorf("Slug = %q", got)
	}
}
"""

GO_BULK_TEST = """
package bulk

import (
	"fmt"
	"testing"
)

func TestPriceTable(t *testing.T) {
	for i := 0; i < {n}; i++ {
		i := i
		t.Run(fmt.Sprintf("row_%04d", i), func(t *testing.T) {
			if (i*7)/7 != i {
				t.Fatal("arithmetic is broken")
			}
		})
	}
}
"""

GO_BROKEN = """
package broken

import "testing"

func TestBroken(t *testing.T) {
	var n int = "three"
	t.Log(n)
}
"""


def _go_signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    r = ws.run(["go", "test", "-json", *args], cwd)
    sigs: list[Any] = []
    out_by_test: dict[tuple[str, str], list[str]] = {}
    failed_tests: list[tuple[str, str]] = []
    failed_pkgs: list[str] = []
    for line in r.stdout.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        key = (ev.get("Package", ""), ev.get("Test", ""))
        if ev.get("Action") == "output" and ev.get("Test"):
            out_by_test.setdefault(key, []).append(ev.get("Output", ""))
        if ev.get("Action") == "fail":
            if ev.get("Test"):
                failed_tests.append(key)
            else:
                failed_pkgs.append(ev.get("Package", ""))
    for key in failed_tests:
        pkg, name = key
        sigs.append(sig("failing_test", f"--- FAIL: {name} "))
        for out in out_by_test.get(key, []):
            m = re.match(r"^\s+(\w+_test\.go:\d+): (.*)", out)
            if m:
                sigs.append(sig("failure_message", f"{m.group(1)}: {m.group(2).strip()}"[:150]))
                break
            if out.startswith("panic: "):
                sigs.append(sig("failure_message", out.strip()[:150]))
                break
    for pkg in failed_pkgs:
        sigs.append(sig("failed_package", pkg))
    # Build failures never start a test: their compiler errors are in the plain output.
    for line in r.stdout.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            m = re.match(r"^(\S+\.go:\d+:\d+): (.*)", line)
            if m:
                sigs.append(sig("compile_error", f"{m.group(1)}: {m.group(2)}"))
            continue
        m = re.match(r"^(\S+\.go:\d+:\d+): (.*)", ev.get("Output", "") or "")
        if m and not ev.get("Test"):
            sigs.append(sig("compile_error", f"{m.group(1)}: {m.group(2).strip()}"))
    for line in r.stderr.splitlines():
        m = re.match(r"^(\S+\.go:\d+:\d+): (.*)", line)
        if m:
            sigs.append(sig("compile_error", f"{m.group(1)}: {m.group(2)}"))
    return sigs


def _go_test(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("go")
    ws.env.update(
        {"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOTOOLCHAIN": "local", "GOCACHE": str(ws.tools / "gocache")}
    )
    version = ws.version(["go", "version"])
    ws.write("shop/go.mod", GO_MOD)
    ws.write("shop/cart/cart.go", GO_CART)
    ws.write("shop/cart/cart_test.go", GO_CART_TEST)
    ws.write("shop/cart/slug_test.go", GO_SLUG_TEST)
    ws.write("shop/bulk/bulk.go", "package bulk\n")
    ws.write("shop/bulk/bulk_test.go", GO_BULK_TEST.replace("{n}", "1500"))
    ws.write(
        "shop/util/util.go",
        "package util\n\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n",
    )
    ws.write(
        "shop/util/util_test.go",
        'package util\n\nimport "testing"\n\nfunc TestMax(t *testing.T) {\n\tif Max(2, 3) != 3 {\n\t\tt.Fatal("max")\n\t}\n}\n',
    )
    fixtures: list[dict[str, Any]] = []
    source = (
        "rerun with go test -json: failing tests (Action fail with a Test) with the first `x_test.go:N:` "
        "output line or panic line, failing packages, compiler errors"
    )

    def add(id: str, args: list[str], note: str, sig_args: list[str] | None = None) -> None:
        r = ws.run(["go", "test", *args], "shop")
        fixtures.append(
            ws.fixture(
                id,
                "tests/go-test",
                r,
                family="go-test",
                signals=_go_signals(ws, sig_args if sig_args is not None else args, "shop"),
                signal_source=source,
                tool_version=version,
                notes=note,
            )
        )

    add("go-test-failures", ["./..."], "failing tests, subtests, a panic, passing packages")
    add("go-test-verbose-failures", ["-v", "./cart/", "./util/"], "-v: RUN/PASS lines, logs, a panic")
    add("go-test-verbose-large-pass", ["-v", "./bulk/"], "1500 passing subtests, verbose")
    add("go-test-pass", ["./util/", "./bulk/"], "passing packages")
    add("go-test-short-count", ["-short", "-count=1", "-run", "TestSlug|TestSlow", "./cart/"], "-short: a skip; passes")
    ws.write("shop/broken/broken_test.go", GO_BROKEN)
    add("go-test-build-failed", ["./..."], "a package that does not compile next to failing tests")
    return fixtures


# ----------------------------------------------------------------------- ctest

CMAKE = """
cmake_minimum_required(VERSION 3.16)
project(geometry C)
enable_testing()
add_library(geo geo.c)
target_link_libraries(geo m)
foreach(t area perimeter parse scale)
  add_executable(test_${t} test_${t}.c)
  target_link_libraries(test_${t} geo)
  add_test(NAME ${t} COMMAND test_${t})
endforeach()
add_executable(test_crash test_crash.c)
add_test(NAME crash COMMAND test_crash)
add_executable(test_slow test_slow.c)
add_test(NAME slow COMMAND test_slow)
set_tests_properties(slow PROPERTIES TIMEOUT 1)
add_executable(test_table test_table.c)
target_link_libraries(test_table geo)
foreach(i RANGE 1 {n})
  add_test(NAME table_${i} COMMAND test_table ${i})
endforeach()
"""

GEO_C = """
#include <math.h>
#include <stdlib.h>
double area(double w, double h) { return w * h; }
double perimeter(double w, double h) { return w + w + h; } /* bug: one side missing */
double circle_area(double r) { return 3.14 * r * r; }
int parse_dim(const char *s) { return atoi(s); }
double scale(double v, double f) { return v * f; }
"""

TEST_TEMPLATE = """
#include <stdio.h>
#include <math.h>
double area(double, double);
double perimeter(double, double);
double circle_area(double);
int parse_dim(const char *);
double scale(double, double);
static int failures = 0;
#define CHECK_NEAR(expr, want) do {{ double got = (expr); \\
  if (fabs(got - (want)) > 1e-9) {{ printf("%s:%d: CHECK failed: %s == %g, got %g\\n", __FILE__, __LINE__, #expr, (double)(want), got); failures++; }} \\
  else printf("ok: %s\\n", #expr); }} while (0)
int main(void) {{
{body}
  printf("%d check(s) failed\\n", failures);
  return failures ? 1 : 0;
}}
"""


def _ctest(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("cmake", "ctest", "cc")
    version = ws.version(["ctest", "--version"])
    ws.write("geo/CMakeLists.txt", CMAKE.replace("{n}", "400"))
    ws.write("geo/geo.c", GEO_C)
    bodies = {
        "area": "  CHECK_NEAR(area(2, 3), 6);\n  CHECK_NEAR(area(0.5, 4), 2);",
        "perimeter": "  CHECK_NEAR(perimeter(2, 3), 10);\n  CHECK_NEAR(perimeter(1, 1), 4);",
        "parse": '  CHECK_NEAR(parse_dim("12"), 12);\n  CHECK_NEAR(parse_dim("7cm"), 7);',
        "scale": "  CHECK_NEAR(scale(2, 1.5), 3);\n  CHECK_NEAR(circle_area(1), M_PI);",
    }
    for name, body in bodies.items():
        ws.write(f"geo/test_{name}.c", TEST_TEMPLATE.format(body=body))
    ws.write(
        "geo/test_crash.c",
        '#include <stdio.h>\nint main(void){ int *p = 0; puts("dereferencing"); fflush(stdout); return *p; }\n',
    )
    ws.write("geo/test_slow.c", "#include <unistd.h>\nint main(void){ sleep(5); return 0; }\n")
    ws.write(
        "geo/test_table.c",
        "#include <stdio.h>\n#include <stdlib.h>\ndouble area(double, double);\n"
        'int main(int c, char **v){ int i = atoi(v[1]); printf("row %d area %g\\n", i, area(i, 2)); return 0; }\n',
    )
    ws.sh("cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug >/dev/null && cmake --build build -j4 >/dev/null", "geo")
    fixtures: list[dict[str, Any]] = []

    def add(id: str, args: list[str], note: str) -> None:
        r = ws.run(["ctest", *args], "geo/build")
        xml = ws.path("geo/build/junit.xml")
        plain = [a for a in args if a not in ("--output-on-failure", "-V", "--verbose")]
        ws.run(["ctest", *plain, "--output-junit", str(xml)], "geo/build")
        root = ET.parse(xml).getroot()
        sigs: list[Any] = []
        n_fail = total = 0
        for case in root.iter("testcase"):
            total += 1
            status = case.get("status")
            if status in ("fail", "failed") or case.find("failure") is not None:
                n_fail += 1
                sigs.append(sig("failing_test", case.get("name") or ""))
        # Failing checks print `file:line: CHECK failed: …`; `--output-on-failure` shows them.
        if "--output-on-failure" in args or "-V" in args:
            for case in root.iter("testcase"):
                out = case.findtext("system-out") or ""
                for line in out.splitlines():
                    m = re.search(r"(test_\w+\.c:\d+): CHECK failed", line)
                    if m:
                        sigs.append(sig("failure_message", line.strip().rsplit("/", 1)[-1]))
        xml.unlink()
        if n_fail:
            sigs.append(sig("summary", f"{n_fail} tests failed out of {total}"))
        else:
            sigs.append(sig("summary", "100% tests passed"))
        fixtures.append(
            ws.fixture(
                id,
                "tests/ctest",
                r,
                family="ctest",
                signals=sigs,
                signal_source="rerun with --output-junit: failing testcase names (status fail), counts; with "
                "--output-on-failure the `file:line: CHECK failed` lines of the failing tests' system-out",
                tool_version=version,
                notes=note,
            )
        )

    add("ctest-failures", ["-j4", "-E", "table"], "failures, a segfault and a timeout")
    add("ctest-output-on-failure", ["--output-on-failure", "-E", "table"], "failing tests' output shown")
    add("ctest-large-pass", ["-R", "table"], "400 passing tests")
    add("ctest-large-failures", ["-j4", "--output-on-failure"], "406 tests in parallel, 4 failing with output")
    add("ctest-verbose-pass", ["-V", "-R", "area|table_1$"], "-V: every test's output")
    return fixtures


CAPTURERS: list[Callable[[Workspace], list[dict[str, Any]]]] = [_cargo_test, _nextest, _go_test, _ctest]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    fixtures: list[dict[str, Any]] = []
    skipped: list[str] = []
    # TJ_CAPTURE_ONLY=_go_test narrows a rerun to some runners while iterating.
    only = [n for n in os.environ.get("TJ_CAPTURE_ONLY", "").split(",") if n]
    for fn in CAPTURERS:
        if only and fn.__name__ not in only:
            continue
        try:
            fixtures += fn(ws)
        except Skip as exc:
            skipped.append(f"{fn.__name__}: {exc}")
    if skipped:
        print("tests_native: skipped " + "; ".join(skipped))
    if not fixtures:
        raise Skip("; ".join(skipped))
    return fixtures
