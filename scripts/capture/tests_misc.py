"""RSpec and PHPUnit (Debian's packages), plus a synthesized `dotnet test` (no SDK here).

RSpec signals come from a rerun with `--format json --out`: each failed example's
full description, the first line of its exception message, its `rspec ./file:line`
rerun location, and the `N examples, M failures` counts. PHPUnit signals come from
`--log-junit`: failing `Class::method` ids, the first line of each failure message,
and the counts.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from capture._lib import Skip, Workspace, sig, synthesized

# ---------------------------------------------------------------------- rspec

RB_CART = """
class Cart
  Line = Struct.new(:sku, :qty, :price)

  def initialize
    @lines = []
  end

  def add(sku, qty, price)
    raise ArgumentError, "quantity must be positive, got #{qty}" if qty <= 0
    existing = @lines.find { |l| l.sku == sku }
    if existing
      existing.qty = qty # bug: replaces instead of adding
    else
      @lines << Line.new(sku, qty, price)
    end
    self
  end

  def lines
    @lines.map { |l| "#{l.sku} x#{l.qty}" }
  end

  def total
    @lines.sum { |l| l.qty * l.price }
  end

  def self.format_cents(cents)
    format("%d.%d", cents / 100, cents % 100) # bug: no zero padding
  end

  def shipping_for(address)
    address[:country].fetch(:code) == "DE" ? 490 : 990
  end
end
"""

RB_CART_SPEC = """
require_relative "../lib/cart"

RSpec.describe Cart do
  subject(:cart) { described_class.new }

  describe "#add" do
    it "adds a new line" do
      cart.add("A-1", 2, 150)
      expect(cart.lines).to eq(["A-1 x2"])
    end

    it "merges quantities of the same sku" do
      cart.add("A-1", 2, 150).add("A-1", 3, 150)
      expect(cart.lines).to eq(["A-1 x5"])
    end

    it "rejects zero quantity" do
      expect { cart.add("A-1", 0, 150) }.to raise_error(ArgumentError, /at least 1/)
    end
  end

  describe "#total" do
    it "sums lines" do
      cart.add("A-1", 2, 150).add("B-2", 1, 999)
      expect(cart.total).to eq(1299)
    end
  end

  describe "#shipping_for" do
    it "charges the domestic rate" do
      expect(cart.shipping_for(country: { code: "DE" })).to eq(490)
    end

    it "handles an address without country" do
      expect(cart.shipping_for(city: "Lyon")).to eq(990)
    end

    it "charges express abroad" do
      pending("express rates are not implemented")
      expect(cart.shipping_for(country: { code: "US" })).to eq(2490)
    end

    xit "computes customs duties"
  end

  describe ".format_cents" do
    (0...40).each do |i|
      cents = i * 101
      it "formats #{cents} cents" do
        puts "formatting #{cents}" if i.zero?
        expect(Cart.format_cents(cents)).to eq(format("%d.%02d", cents / 100, cents % 100))
      end
    end
  end
end
"""

RB_BULK_SPEC = """
RSpec.describe "price table" do
  (0...{n}).each do |i|
    it "keeps the price of row #{{i}}" do
      expect(i * 7 / 7).to eq(i)
    end
  end
end
"""


def _rspec_signals(path: str) -> list[Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    sigs: list[Any] = []
    for ex in data.get("examples", []):
        if ex.get("status") != "failed":
            continue
        sigs.append(sig("failing_test", ex["full_description"]))
        # Examples sharing a line are named by id: `rspec ./spec/x_spec.rb[1:4:1]`.
        sigs.append(sig("location", f"rspec {ex['file_path']}:{ex['line_number']}", f"rspec {ex['id']}"))
        msg = ((ex.get("exception") or {}).get("message") or "").strip().splitlines()
        first = next((m.strip() for m in msg if m.strip()), "")
        if first:
            sigs.append(sig("failure_message", first[:150]))
    s = data.get("summary", {})
    n, f = s.get("example_count", 0), s.get("failure_count", 0)
    sigs.append(sig("summary", f"{n} example{'s' if n != 1 else ''}, {f} failure{'s' if f != 1 else ''}"))
    for m in data.get("messages", []):
        lines = [ln.strip() for ln in m.splitlines() if ln.strip()]
        if lines and lines[0].startswith("An error occurred"):
            sigs.append(sig("failure_message", lines[0]))
            for a, b in itertools.pairwise(lines):
                if a.endswith("Error:"):
                    sigs.append(sig("failure_message", b))
    if s.get("errors_outside_of_examples_count"):
        k = s["errors_outside_of_examples_count"]
        sigs.append(sig("summary", f"{k} error{'s' if k != 1 else ''} occurred outside of examples"))
    return sigs


def _rspec(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("rspec", "ruby")
    version = ws.version(["rspec", "--version"]).replace("\n", " ")
    ws.write("rbcart/lib/cart.rb", RB_CART)
    ws.write("rbcart/spec/cart_spec.rb", RB_CART_SPEC)
    ws.write("rbcart/bulk/price_table_spec.rb", RB_BULK_SPEC.format(n=1500))
    ws.write(
        "rbcart/broken/tax_spec.rb",
        'require_relative "../lib/tax"\n\nRSpec.describe "Tax" do\n  it("vat") { expect(1).to eq(1) }\nend\n',
    )
    fixtures: list[dict[str, Any]] = []

    def add(id: str, args: list[str], note: str) -> None:
        r = ws.run(["rspec", *args], "rbcart")
        out = ws.path("rbcart/.rspec.json")
        plain = [a for a in args if a not in ("--force-color", "--format", "documentation", "progress")]
        ws.run(["rspec", *plain, "--format", "json", "--out", str(out)], "rbcart")
        fixtures.append(
            ws.fixture(
                id,
                "tests/rspec",
                r,
                family="rspec",
                signals=_rspec_signals(str(out)),
                signal_source="rerun with --format json --out: failed examples' full_description, "
                "`rspec file:line`, first exception-message line; summary counts",
                tool_version=version,
                notes=note,
            )
        )
        out.unlink()

    add("rspec-failures", ["spec"], "progress formatter: failures, pending, skipped, output")
    add("rspec-documentation-failures", ["--format", "documentation", "spec"], "documentation formatter")
    add("rspec-color", ["--force-color", "spec"], "ANSI colours")
    add("rspec-documentation-large-pass", ["--format", "documentation", "bulk"], "1500 passing examples")
    add("rspec-load-error", ["broken"], "a spec file that cannot load")
    return fixtures


# -------------------------------------------------------------------- phpunit

PHP_AUTOLOAD = """<?php
spl_autoload_register(function ($class) {
    $file = __DIR__ . '/' . str_replace('\\\\', '/', $class) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
"""

PHP_CART = """<?php
namespace Shop;

class Cart
{
    private array $lines = [];

    public function add(string $sku, int $qty, int $price): self
    {
        if ($qty <= 0) {
            throw new \\InvalidArgumentException("quantity must be positive, got $qty");
        }
        foreach ($this->lines as &$line) {
            if ($line['sku'] === $sku) {
                $line['qty'] = $qty; // bug: replaces instead of adding
                return $this;
            }
        }
        $this->lines[] = ['sku' => $sku, 'qty' => $qty, 'price' => $price];
        return $this;
    }

    public function lines(): array
    {
        return array_map(fn ($l) => "{$l['sku']} x{$l['qty']}", $this->lines);
    }

    public function total(): int
    {
        return array_sum(array_map(fn ($l) => $l['qty'] * $l['price'], $this->lines));
    }

    public static function formatCents(int $cents): string
    {
        return sprintf('%d.%d', intdiv($cents, 100), $cents % 100); // bug: no zero padding
    }

    public function shippingFor(array $address): int
    {
        return $address['country']['code'] === 'DE' ? 490 : 990;
    }
}
"""

PHP_CART_TEST = """<?php
use PHPUnit\\Framework\\TestCase;
use Shop\\Cart;

final class CartTest extends TestCase
{
    public function testAddsANewLine(): void
    {
        $this->assertSame(['A-1 x2'], (new Cart())->add('A-1', 2, 150)->lines());
    }

    public function testMergesQuantities(): void
    {
        $c = (new Cart())->add('A-1', 2, 150)->add('A-1', 3, 150);
        $this->assertSame(['A-1 x5'], $c->lines());
    }

    public function testRejectsZeroQuantity(): void
    {
        $this->expectException(\\RangeException::class);
        (new Cart())->add('A-1', 0, 150);
    }

    public function testSumsLines(): void
    {
        $c = (new Cart())->add('A-1', 2, 150)->add('B-2', 1, 999);
        $this->assertSame(1299, $c->total());
    }

    public function testShippingWithoutCountry(): void
    {
        $this->assertSame(990, (new Cart())->shippingFor(['city' => 'Lyon']));
    }

    public function testExpressAbroad(): void
    {
        $this->markTestSkipped('express rates are not implemented');
    }

    public function testNothing(): void
    {
        echo "checking nothing\\n";
    }

    /** @dataProvider centsProvider */
    public function testFormatsCents(int $cents, string $expected): void
    {
        $this->assertSame($expected, Cart::formatCents($cents));
    }

    public function centsProvider(): array
    {
        $out = [];
        for ($i = 0; $i < 40; $i++) {
            $c = $i * 101;
            $out["$c cents"] = [$c, sprintf('%d.%02d', intdiv($c, 100), $c % 100)];
        }
        return $out;
    }
}
"""

PHP_BULK_TEST = """<?php
use PHPUnit\\Framework\\TestCase;

final class PriceTableTest extends TestCase
{
    /** @dataProvider rows */
    public function testKeepsItsPrice(int $i): void
    {
        $this->assertSame($i, intdiv($i * 7, 7));
    }

    public function rows(): array
    {
        $out = [];
        for ($i = 0; $i < %d; $i++) {
            $out["row $i"] = [$i];
        }
        return $out;
    }
}
"""


def _testdox(name: str) -> str:
    """`testFormatsCents with data set "0 cents"` → `Formats cents with data set "0 cents"` (--testdox)."""
    method, sep, rest = name.partition(" ")
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", method.removeprefix("test")).lower().strip()
    return (words[:1].upper() + words[1:] + sep + rest).strip()


def _phpunit_signals(path: str) -> list[Any]:
    root = ET.parse(path).getroot()
    sigs: list[Any] = []
    tests = failures = errors = 0
    top = root.find("testsuite")
    if top is not None:
        tests = int(top.get("tests", "0"))
        failures = int(top.get("failures", "0"))
        errors = int(top.get("errors", "0"))
    for case in root.iter("testcase"):
        el = case.find("failure")
        if el is None:
            el = case.find("error")
        if el is None:
            continue
        risky = "Risky" in (el.get("type") or "")
        if risky:
            # The log files a risky test as an error; the console counts it as `Risky`
            # (and --testdox does not print its message).
            errors -= 1
        cls = case.get("class") or (case.get("classname") or "").rsplit(".", 1)[-1]
        name = case.get("name") or ""
        # phpunit prints `1) CartTest::testFormatsCents with data set "0 cents" ('0', …)`.
        sigs.append(sig("failing_test", f"{cls}::{name}", _testdox(name)))
        text = (el.text or "").strip().splitlines()
        # The text starts with the test id line, then the message.
        msg = [t for t in text[1:] if t.strip()]
        if msg and not risky:
            sigs.append(sig("failure_message", msg[0].strip()[:150]))
    if failures or errors:
        parts = [f"Tests: {tests}"]
        sigs.append(sig("summary", ", ".join(parts)))
        if failures:
            sigs.append(sig("summary", f"Failures: {failures}"))
        if errors:
            sigs.append(sig("summary", f"Errors: {errors}"))
    else:
        sigs.append(sig("summary", f"OK ({tests} test"))
    return sigs


def _phpunit(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("phpunit", "php")
    version = ws.version(["phpunit", "--version"])
    ws.write("phpcart/src/autoload.php", PHP_AUTOLOAD)
    ws.write("phpcart/src/Shop/Cart.php", PHP_CART)
    ws.write("phpcart/tests/CartTest.php", PHP_CART_TEST)
    ws.write("phpcart/bulk/PriceTableTest.php", PHP_BULK_TEST % 1500)
    fixtures: list[dict[str, Any]] = []

    def add(id: str, args: list[str], note: str) -> None:
        r = ws.run(["phpunit", "--bootstrap", "src/autoload.php", *args], "phpcart")
        xml = ws.path("phpcart/.junit.xml")
        plain = [a for a in args if a not in ("--testdox", "--colors=always", "--debug")]
        ws.run(["phpunit", "--bootstrap", "src/autoload.php", *plain, "--log-junit", str(xml)], "phpcart")
        fixtures.append(
            ws.fixture(
                id,
                "tests/phpunit",
                r,
                family="phpunit",
                signals=_phpunit_signals(str(xml)),
                signal_source="rerun with --log-junit: Class::method of failures and errors, first message "
                "line, counts",
                tool_version=version,
                notes=note,
            )
        )
        xml.unlink()

    add("phpunit-failures", ["tests"], "failures, an error, a skip, a risky test, a data provider")
    add("phpunit-testdox-failures", ["--testdox", "tests"], "--testdox")
    add("phpunit-color", ["--colors=always", "tests"], "ANSI colours")
    add("phpunit-testdox-large-pass", ["--testdox", "bulk"], "1500 passing data sets, testdox")
    add("phpunit-pass", ["bulk"], "1500 passing data sets, progress dots")
    return fixtures


# --------------------------------------------------------------- dotnet test


def _dotnet(ws: Workspace) -> list[dict[str, Any]]:
    """No .NET SDK on this machine: `dotnet test` (VSTest console logger) from its documented format."""
    del ws
    fmt = (
        "https://learn.microsoft.com/dotnet/core/tools/dotnet-test and the .NET 8 console output quoted in "
        "https://github.com/dotnet/sdk/issues/39665 (restore/build lines, `Test run for …`, `  Failed X [N ms]` "
        "with `  Error Message:` / `  Stack Trace:`, `Failed!  - Failed: …, Passed: …` summary)"
    )
    root = "/home/dev/src/Library"
    head = [
        "  Determining projects to restore...",
        "  All projects are up-to-date for restore.",
        f"  Library -> {root}/src/Library/bin/Debug/net8.0/Library.dll",
        f"  Library.Tests -> {root}/tests/Library.Tests/bin/Debug/net8.0/Library.Tests.dll",
        f"Test run for {root}/tests/Library.Tests/bin/Debug/net8.0/Library.Tests.dll (.NETCoreApp,Version=v8.0)",
        "Microsoft (R) Test Execution Command Line Tool Version 17.9.0 (x64)",
        "Copyright (c) Microsoft Corporation.  All rights reserved.",
        "",
        "Starting test execution, please wait...",
        "A total of 1 test files matched the specified pattern.",
    ]
    failures = [
        (
            "Library.Tests.CatalogTests.FindsByAuthor",
            ["Assert.Equal() Failure: Values differ", "Expected: 3", "Actual:   2"],
            f"{root}/tests/Library.Tests/CatalogTests.cs:line 28",
            "Library.Tests.CatalogTests.FindsByAuthor()",
        ),
        (
            "Library.Tests.CatalogTests.TitleOfMissingBook",
            ["System.NullReferenceException : Object reference not set to an instance of an object."],
            f"{root}/tests/Library.Tests/CatalogTests.cs:line 34",
            "Library.Tests.CatalogTests.TitleOfMissingBook()",
        ),
        (
            "Library.Tests.FeeTests.LateFee(days: 40, cents: 1000)",
            ["Assert.Equal() Failure: Values differ", "Expected: 1000", "Actual:   1500"],
            f"{root}/tests/Library.Tests/FeeTests.cs:line 17",
            "Library.Tests.FeeTests.LateFee(Int32 days, Int32 cents)",
        ),
    ]
    body: list[str] = []
    for i, (name, _msg, _loc, _method) in enumerate(failures):
        body.append(f"[xUnit.net 00:00:00.{40 + i:02d}]     {name} [FAIL]")
    for name, msg, loc, method in failures:
        body += [f"  Failed {name} [{len(name) % 9 + 1} ms]", "  Error Message:", f"   {msg[0]}"]
        body += msg[1:]
        body += [
            "  Stack Trace:",
            f"     at {method} in {loc}",
            "   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean isConstructor)",
            "   at System.Reflection.MethodBaseInvoker.InvokeWithNoArgs(Object obj, BindingFlags invokeAttr)",
        ]
        if "Catalog" in name and "Missing" in name:
            body += ["  Standard Output Messages:", " looking up 000-0 in a catalog of 3 books", ""]
        body.append("")
    tail = [
        "Failed!  - Failed:     3, Passed:    84, Skipped:     1, Total:    88, Duration: 143 ms - Library.Tests.dll (net8.0)"
    ]
    stdout = "\n".join(head + body + tail) + "\n"
    signals: list[Any] = []
    for name, msg, loc, _ in failures:
        signals += [sig("failing_test", name), sig("failure_message", msg[0]), sig("location", loc.rsplit("/", 1)[-1])]
    signals.append(sig("summary", "Failed:     3, Passed:    84, Skipped:     1, Total:    88"))
    fx = [
        synthesized(
            "dotnet-test-failures",
            "tests/dotnet-test",
            family="dotnet-test",
            command="dotnet test",
            exit_code=1,
            stdout=stdout,
            signals=signals,
            format_source=fmt,
            tool_version=".NET SDK 8.0 / VSTest 17.9 (format)",
        )
    ]
    # Detailed verbosity lists every passing test: the large case.
    passed = [f"  Passed Library.Tests.ShelfTests.HoldsBooks(shelf: {i}) [< 1 ms]" for i in range(900)]
    detailed = (
        head
        + passed
        + [
            "",
            "Test Run Successful.",
            "Total tests: 900",
            "     Passed: 900",
            " Total time: 1.8214 Seconds",
        ]
    )
    fx.append(
        synthesized(
            "dotnet-test-detailed-pass",
            "tests/dotnet-test",
            family="dotnet-test",
            command='dotnet test --logger "console;verbosity=detailed"',
            exit_code=0,
            stdout="\n".join(detailed) + "\n",
            signals=[sig("summary", "Total tests: 900"), sig("summary", "Passed: 900")],
            format_source=fmt,
            tool_version=".NET SDK 8.0 / VSTest 17.9 (format)",
        )
    )
    return fx


CAPTURERS: list[Callable[[Workspace], list[dict[str, Any]]]] = [_rspec, _phpunit, _dotnet]


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
        print("tests_misc: skipped " + "; ".join(skipped))
    if not fixtures:
        raise Skip("; ".join(skipped))
    return fixtures
