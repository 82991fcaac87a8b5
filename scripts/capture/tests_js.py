"""JavaScript test runners: jest, vitest, mocha, node --test, bun test, playwright test.

Each runner gets a small "cart" project (the same bugs in each) with failing, throwing,
async, skipped and noisy tests, plus a bulk file of many passing tests. Signals come
from the runner's machine-readable reporter on a rerun with the same arguments:
jest `--json --outputFile`, vitest `--reporter=json --outputFile`, mocha
`--reporter json`, node `--test-reporter=junit`, bun `--reporter=junit`, playwright
`--reporter=json`: failing test names as the human reporter prints them, the first
line of each failure message, and the summary counts.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from capture._lib import Result, Skip, Workspace, sig

ANSI = re.compile(r"\x1b\[[0-9;]*m")

CART_CJS = """
class Cart {
  constructor() {
    this.items = [];
  }
  add(sku, qty, price) {
    if (qty <= 0) throw new RangeError(`quantity must be positive, got ${qty}`);
    const existing = this.items.find((i) => i.sku === sku);
    if (existing) existing.qty = qty; // bug: replaces instead of adding
    else this.items.push({ sku, qty, price });
  }
  total() {
    return this.items.reduce((sum, i) => sum + i.qty * i.price, 0);
  }
  lines() {
    return this.items.map((i) => `${i.sku} x${i.qty}`);
  }
}

function formatMoney(cents, currency = "EUR") {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100);
  const rest = abs % 100;
  // bug: no zero padding for the cents
  return `${sign}${units}.${rest} ${currency}`;
}

function applyCoupon(total, coupon) {
  if (coupon.kind === "percent") return Math.round(total * (1 - coupon.value / 100));
  if (coupon.kind === "fixed") return total - coupon.value;
  return total;
}

function fetchCoupon(code) {
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      if (code === "SPRING") resolve({ kind: "percent", value: 10 });
      else reject(new Error(`coupon ${code} not found (HTTP 404)`));
    }, 5);
  });
}

function shippingFor(address) {
  return address.country.code === "DE" ? 490 : 990;
}

module.exports = { Cart, formatMoney, applyCoupon, fetchCoupon, shippingFor };
"""

CART_ESM = CART_CJS.replace(
    "module.exports = { Cart, formatMoney, applyCoupon, fetchCoupon, shippingFor };",
    "export { Cart, formatMoney, applyCoupon, fetchCoupon, shippingFor };",
)

# A jest/vitest/bun style suite; {imp} is the import header.
JEST_CART = """
{imp}

describe("Cart", () => {{
  describe("add", () => {{
    test("adds a new line", () => {{
      const c = new Cart();
      c.add("A-1", 2, 150);
      expect(c.lines()).toEqual(["A-1 x2"]);
    }});
    test("merges quantities of the same sku", () => {{
      const c = new Cart();
      c.add("A-1", 2, 150);
      c.add("A-1", 3, 150);
      expect(c.lines()).toEqual(["A-1 x5"]);
    }});
    test("rejects zero quantity", () => {{
      const c = new Cart();
      expect(() => c.add("A-1", 0, 150)).toThrow("quantity must be at least 1");
    }});
  }});
  describe("total", () => {{
    test("sums lines", () => {{
      const c = new Cart();
      c.add("A-1", 2, 150);
      c.add("B-2", 1, 999);
      expect(c.total()).toBe(1299);
    }});
    test("applies a fixed coupon", () => {{
      expect(applyCoupon(1000, {{ kind: "fixed", value: 250 }})).toBe(750);
    }});
    test("applies a percent coupon", () => {{
      expect(applyCoupon(999, {{ kind: "percent", value: 15 }})).toBe(850);
    }});
  }});
}});

describe("shipping", () => {{
  test("domestic rate", () => {{
    expect(shippingFor({{ country: {{ code: "DE" }} }})).toBe(490);
  }});
  test("rate for an address without country", () => {{
    expect(shippingFor({{ city: "Lyon" }})).toBe(990);
  }});
  {skip}("international express", () => {{
    expect(shippingFor({{ country: {{ code: "US" }} }})).toBe(2490);
  }});
}});
"""

JEST_MONEY = """
{imp}

const cases = [];
for (let i = 0; i < 40; i++) cases.push([i * 101, `${{Math.floor((i * 101) / 100)}}.${{String((i * 101) % 100).padStart(2, "0")}} EUR`]);

describe("formatMoney", () => {{
  test.each(cases)("formats %i cents", (cents, expected) => {{
    expect(formatMoney(cents)).toBe(expected);
  }});
  test("negative amounts", () => {{
    expect(formatMoney(-250)).toBe("-2.50 EUR");
  }});
}});
"""

JEST_COUPONS = """
{imp}

describe("coupons", () => {{
  test("fetches a known coupon", async () => {{
    console.log("GET /coupons/SPRING -> 200");
    const c = await fetchCoupon("SPRING");
    expect(c).toEqual({{ kind: "percent", value: 10 }});
  }});
  test("fetches a seasonal coupon", async () => {{
    for (let i = 0; i < 25; i++) console.log(`cache miss for coupon shard ${{i}}`);
    const c = await fetchCoupon("SUMMER");
    expect(c.value).toBe(20);
  }});
  test("coupon object shape", () => {{
    expect({{ kind: "percent", value: 10, stackable: false, expires: "2025-01-01" }}).toEqual({{
      kind: "percent",
      value: 10,
      stackable: true,
      expires: "2025-01-01",
    }});
  }});
  test.todo("stacking rules");
}});
"""

JEST_BROKEN = """
const {{ taxFor }} = require("../src/tax");

test("vat", () => {{
  expect(taxFor("DE")).toBe(19);
}});
"""

JEST_BULK = """
{imp}

const rows = Array.from({{ length: {n} }}, (_, i) => [i, i * 7]);
describe("price table", () => {{
  test.each(rows)("row %i keeps its price", (i, price) => {{
    expect(price / 7).toBe(i);
  }});
}});
"""


def _first_line(msg: str) -> str:
    for line in ANSI.sub("", msg).splitlines():
        line = line.strip()
        if line:
            return line
    return ""


def _jest_signals(path: str, sep: str = " › ") -> list[Any]:
    """Signals from jest's (or vitest's, which mirrors it) --json result file."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    sigs: list[Any] = []
    for suite in data.get("testResults", []):
        failed_any = False
        for a in suite.get("assertionResults", []):
            if a.get("status") != "failed":
                continue
            failed_any = True
            name = sep.join([*a.get("ancestorTitles", []), a.get("title", "")])
            sigs.append(sig("failing_test", name))
            for msg in a.get("failureMessages", [])[:1]:
                first = _first_line(msg)
                alts = [first.removeprefix("Error: "), first.removeprefix("AssertionError: ")]
                sigs.append(sig("failure_message", first[:150], *[a[:150] for a in alts if a != first]))
        if suite.get("status") == "failed" and not failed_any:
            msg = ANSI.sub("", suite.get("message") or "")
            lines = [ln.strip() for ln in msg.splitlines() if ln.strip()]
            lines = [ln for ln in lines if "Test suite failed to run" not in ln and not ln.startswith("●")]
            if lines:
                sigs.append(sig("failure_message", lines[0][:150]))
            sigs.append(sig("failing_suite", suite["name"].rsplit("/", 2)[-2] + "/" + suite["name"].rsplit("/", 1)[-1]))
    for key, word in (("numFailedTests", "failed"), ("numPassedTests", "passed")):
        if data.get(key):
            sigs.append(sig("summary", f"{data[key]} {word}"))
    if data.get("numTotalTests"):
        # jest: `54 total`; vitest: `(54)`.
        n = data["numTotalTests"]
        sigs.append(sig("summary", f"{n} total" if sep == " › " else f"({n})"))
    return sigs


def _jest(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("jest")
    version = "jest " + ws.version(["jest", "--version"])
    imp = 'const { Cart, formatMoney, applyCoupon, fetchCoupon, shippingFor } = require("../src/cart");'
    ws.write("jest/package.json", '{"name": "cart", "private": true}\n')
    ws.write("jest/src/cart.js", CART_CJS)
    ws.write("jest/__tests__/cart.test.js", JEST_CART.format(imp=imp, skip="test.skip"))
    ws.write("jest/__tests__/money.test.js", JEST_MONEY.format(imp=imp))
    ws.write("jest/__tests__/coupons.test.js", JEST_COUPONS.format(imp=imp))
    ws.write("jest/broken/broken.test.js", JEST_BROKEN.format())
    ws.write("jest/bulk/bulk.test.js", JEST_BULK.format(imp=imp.replace("../src", "../src"), n=1500))
    fixtures: list[dict[str, Any]] = []

    def add(id: str, args: list[str], note: str | None = None) -> None:
        r = ws.run(["jest", *args], "jest")
        out = ws.path("jest/.jest-result.json")
        ws.run(["jest", *[a for a in args if a != "--colors"], "--json", f"--outputFile={out}"], "jest")
        fixtures.append(
            ws.fixture(
                id,
                "tests/jest",
                r,
                family="jest",
                signals=_jest_signals(str(out)),
                signal_source="rerun with --json --outputFile: ancestorTitles › title of failed assertions, "
                "first failure-message line, suite errors, numFailed/numPassed/numTotal",
                tool_version=version,
                notes=note,
            )
        )
        out.unlink()

    add("jest-failures", ["__tests__"], "three suites with failures, a todo, a skip and console output")
    add("jest-color-each", ["--colors", "__tests__/money.test.js"], "ANSI colours, test.each failures")
    add("jest-suite-error", ["broken"], "a suite that fails to run (missing module)")
    add("jest-verbose-large-pass", ["--verbose", "bulk"], "1500 passing tests, verbose")
    add("jest-verbose-failures", ["--verbose", "__tests__", "bulk"], "verbose with failures and 1500 passing")
    add("jest-pass-small", ["__tests__/cart.test.js", "-t", "total sums"], "one passing test, the rest skipped")
    return fixtures


def _link_modules(ws: Workspace, project: str) -> None:
    """Let test files import the runner (`vitest`, `@playwright/test`) from the tools dir."""
    link = ws.path(f"{project}/node_modules")
    if not link.exists():
        link.symlink_to(ws.tools / "node_modules", target_is_directory=True)


def _vitest(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("vitest@3", "vite@7")
    version = "vitest " + ws.version(["vitest", "--version"])
    imp = (
        'import { describe, test, expect } from "vitest";\n'
        'import { Cart, formatMoney, applyCoupon, fetchCoupon, shippingFor } from "../src/cart.js";'
    )
    ws.write("vitest/package.json", '{"name": "cart", "private": true, "type": "module"}\n')
    _link_modules(ws, "vitest")
    ws.write("vitest/src/cart.js", CART_ESM)
    ws.write("vitest/test/cart.test.js", JEST_CART.format(imp=imp, skip="test.skip"))
    ws.write("vitest/test/money.test.js", JEST_MONEY.format(imp=imp))
    ws.write("vitest/test/coupons.test.js", JEST_COUPONS.format(imp=imp))
    ws.write(
        "vitest/broken/broken.test.js",
        'import { test, expect } from "vitest";\nimport { taxFor } from "../src/tax.js";\n\n'
        'test("vat", () => {\n  expect(taxFor("DE")).toBe(19);\n});\n',
    )
    ws.write("vitest/bulk/bulk.test.js", JEST_BULK.format(imp=imp, n=1500))
    fixtures: list[dict[str, Any]] = []

    def add(id: str, args: list[str], note: str | None = None, env: dict[str, str] | None = None) -> None:
        r = ws.run(["vitest", "run", *args], "vitest", env=env)
        out = ws.path("vitest/.vitest-result.json")
        ws.run(["vitest", "run", *args, "--reporter=json", f"--outputFile={out}"], "vitest")
        fixtures.append(
            ws.fixture(
                id,
                "tests/vitest",
                r,
                family="vitest",
                signals=_jest_signals(str(out), " > "),
                signal_source="rerun with --reporter=json --outputFile: ancestorTitles > title of failed tests, "
                "first failure-message line, failed files, numFailed/numPassed/numTotal",
                tool_version=version,
                notes=note,
            )
        )
        out.unlink()

    add("vitest-failures", ["test"], "three files with failures, a todo, a skip and console output")
    add("vitest-color-each", ["test/money.test.js"], "FORCE_COLOR=1, test.each failures", dict(ws.env, FORCE_COLOR="1"))
    add("vitest-suite-error", ["broken"], "a file that fails to import")
    add("vitest-verbose-large-pass", ["--reporter=verbose", "bulk"], "1500 passing tests, verbose reporter")
    add("vitest-verbose-failures", ["--reporter=verbose", "test", "bulk"], "verbose with failures and 1500 passing")
    add("vitest-pass-small", ["test/cart.test.js", "-t", "sums lines"], "one passing test, the rest skipped")
    return fixtures


MOCHA_CART = """
const assert = require("node:assert/strict");
const { Cart, formatMoney, applyCoupon, fetchCoupon, shippingFor } = require("../src/cart");

describe("Cart", function () {
  describe("#add()", function () {
    it("adds a new line", function () {
      const c = new Cart();
      c.add("A-1", 2, 150);
      assert.deepEqual(c.lines(), ["A-1 x2"]);
    });
    it("merges quantities of the same sku", function () {
      const c = new Cart();
      c.add("A-1", 2, 150);
      c.add("A-1", 3, 150);
      assert.deepEqual(c.lines(), ["A-1 x5"]);
    });
    it("rejects zero quantity", function () {
      const c = new Cart();
      assert.throws(() => c.add("A-1", 0, 150), /at least 1/);
    });
  });
  describe("#total()", function () {
    it("sums lines", function () {
      const c = new Cart();
      c.add("A-1", 2, 150);
      c.add("B-2", 1, 999);
      assert.equal(c.total(), 1299);
    });
    it("applies a percent coupon", function () {
      assert.equal(applyCoupon(999, { kind: "percent", value: 15 }), 850);
    });
  });
});

describe("shipping", function () {
  it("domestic rate", function () {
    assert.equal(shippingFor({ country: { code: "DE" } }), 490);
  });
  it("rate for an address without country", function () {
    assert.equal(shippingFor({ city: "Lyon" }), 990);
  });
  it.skip("international express", function () {});
});

describe("coupons", function () {
  it("fetches a known coupon", async function () {
    console.log("GET /coupons/SPRING -> 200");
    assert.deepEqual(await fetchCoupon("SPRING"), { kind: "percent", value: 10 });
  });
  it("fetches a seasonal coupon", async function () {
    for (let i = 0; i < 25; i++) console.log(`cache miss for coupon shard ${i}`);
    const c = await fetchCoupon("SUMMER");
    assert.equal(c.value, 20);
  });
  it("times out on a slow backend", function (done) {
    this.timeout(50);
    setTimeout(done, 500);
  });
});

describe("formatMoney", function () {
  for (let i = 0; i < 40; i++) {
    const cents = i * 101;
    it(`formats ${cents} cents`, function () {
      assert.equal(formatMoney(cents), `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")} EUR`);
    });
  }
});
"""

MOCHA_BULK = """
const assert = require("node:assert/strict");

describe("price table", function () {
  for (let i = 0; i < {n}; i++) {
    it(`row ${i} keeps its price`, function () {
      assert.equal((i * 7) / 7, i);
    });
  }
});
"""


def _mocha_signals(path: str) -> list[Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    sigs: list[Any] = []
    for f in data.get("failures", []):
        sigs.append(sig("failing_test", f["title"], f["fullTitle"]))
        msg = (f.get("err") or {}).get("message") or ""
        first = _first_line(msg)
        if first:
            sigs.append(sig("failure_message", first[:150]))
    st = data.get("stats", {})
    if st.get("failures"):
        sigs.append(sig("summary", f"{st['failures']} failing"))
    if st.get("passes"):
        sigs.append(sig("summary", f"{st['passes']} passing"))
    if st.get("pending"):
        sigs.append(sig("summary", f"{st['pending']} pending"))
    return sigs


def _mocha(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("mocha")
    version = "mocha " + ws.version(["mocha", "--version"])
    ws.write("mocha/package.json", '{"name": "cart", "private": true}\n')
    ws.write("mocha/src/cart.js", CART_CJS)
    ws.write("mocha/test/cart.spec.js", MOCHA_CART)
    ws.write("mocha/bulk/bulk.spec.js", MOCHA_BULK.replace("{n}", "2000"))
    ws.write("mocha/broken/broken.spec.js", 'const { taxFor } = require("../src/tax");\nit("vat", () => {});\n')
    fixtures: list[dict[str, Any]] = []

    def add(id: str, args: list[str], note: str | None = None) -> None:
        r = ws.run(["mocha", *args], "mocha")
        out = ws.path("mocha/.mocha-result.json")
        plain = [a for a in args if a not in ("--color", "--reporter=dot", "--reporter=list")]
        ws.run(["mocha", *plain, "--reporter", "json", "--reporter-option", f"output={out}"], "mocha")
        signals = _mocha_signals(str(out)) if out.exists() else []
        if not out.exists():
            # A file that cannot load never reaches the reporter: the error is the signal.
            signals = [sig("failure_message", "Cannot find module '../src/tax'")]
        fixtures.append(
            ws.fixture(
                id,
                "tests/mocha",
                r,
                family="mocha",
                signals=signals,
                signal_source="rerun with --reporter json (output=file): failures' title/fullTitle and first "
                "err.message line, stats passes/failures/pending",
                tool_version=version,
                notes=note,
            )
        )
        out.unlink(missing_ok=True)

    add("mocha-failures", ["test"], "spec reporter: failures, a timeout, async rejection, console output")
    add("mocha-color", ["--color", "test"], "ANSI colours")
    add("mocha-dot-failures", ["--reporter=dot", "test"], "dot reporter")
    add("mocha-large-pass", ["bulk"], "2000 passing tests, spec reporter")
    add("mocha-load-error", ["broken"], "a spec file that cannot load")
    add("mocha-pass-small", ["test", "--grep", "sums lines"], "one passing test")
    return fixtures


NODE_TESTS = """
const {{ describe, it, test }} = require("node:test");
const assert = require("node:assert/strict");
const {{ Cart, formatMoney, applyCoupon, fetchCoupon, shippingFor }} = require("../src/cart");

describe("Cart", () => {{
  it("adds a new line", () => {{
    const c = new Cart();
    c.add("A-1", 2, 150);
    assert.deepEqual(c.lines(), ["A-1 x2"]);
  }});
  it("merges quantities of the same sku", () => {{
    const c = new Cart();
    c.add("A-1", 2, 150);
    c.add("A-1", 3, 150);
    assert.deepEqual(c.lines(), ["A-1 x5"]);
  }});
  it("rejects zero quantity", () => {{
    assert.throws(() => new Cart().add("A-1", 0, 150), /at least 1/);
  }});
  it("applies a percent coupon", () => {{
    assert.equal(applyCoupon(999, {{ kind: "percent", value: 15 }}), 850);
  }});
}});

test("rate for an address without country", () => {{
  assert.equal(shippingFor({{ city: "Lyon" }}), 990);
}});

test("fetches a seasonal coupon", async () => {{
  for (let i = 0; i < 25; i++) console.log(`cache miss for coupon shard ${{i}}`);
  const c = await fetchCoupon("SUMMER");
  assert.equal(c.value, 20);
}});

test("international express", {{ skip: "carrier table missing" }}, () => {{}});
test("stacking rules", {{ todo: true }}, () => {{}});

describe("formatMoney", () => {{
  for (let i = 0; i < {n}; i++) {{
    const cents = i * 101;
    it(`formats ${{cents}} cents`, () => {{
      assert.equal(formatMoney(cents), `${{Math.floor(cents / 100)}}.${{String(cents % 100).padStart(2, "0")}} EUR`);
    }});
  }}
}});
"""


def _junit_signals(path: str, *, top_level_only: bool = False) -> tuple[list[Any], dict[str, int]]:
    """Failing testcase names and first message lines from a JUnit XML report."""
    root = ET.parse(path).getroot()
    sigs: list[Any] = []
    counts = {"tests": 0, "failed": 0, "skipped": 0}
    seen: set[str] = set()
    for case in root.iter("testcase"):
        counts["tests"] += 1
        fail = case.find("failure")
        if fail is None:
            fail = case.find("error")
        if case.find("skipped") is not None:
            counts["skipped"] += 1
        if fail is None:
            continue
        counts["failed"] += 1
        name = case.get("name") or ""
        if name not in seen:
            seen.add(name)
            sigs.append(sig("failing_test", name))
        first = _first_line(fail.text or fail.get("message") or "")
        # `Error [ERR_TEST_FAILURE]: msg` / `AssertionError: msg`: the human reporter may name
        # another class, so the message after the class is the signal.
        first = re.sub(r"^\[?[\w.]*(?:Error|Exception)?(?: \[\w+\])?: ", "", first)
        first = re.sub(r"\]? \{$", "", first)
        if first:
            sigs.append(sig("failure_message", first[:150]))
    return sigs, counts


def _node_test(ws: Workspace) -> list[dict[str, Any]]:
    version = "node " + ws.version(["node", "--version"])
    ws.write("nodetest/package.json", '{"name": "cart", "private": true}\n')
    ws.write("nodetest/src/cart.js", CART_CJS)
    ws.write("nodetest/test/cart.test.js", NODE_TESTS.format(n=40))
    ws.write(
        "nodetest/bulk/bulk.test.js",
        'const { test } = require("node:test");\nconst assert = require("node:assert");\n'
        "for (let i = 0; i < 2000; i++) test(`row ${i} keeps its price`, () => assert.equal((i * 7) / 7, i));\n",
    )
    fixtures: list[dict[str, Any]] = []

    def add(id: str, args: list[str], note: str | None = None, env: dict[str, str] | None = None) -> None:
        r = ws.run(["node", "--test", *args], "nodetest", env=env)
        xml = ws.path("nodetest/.junit.xml")
        plain = [a for a in args if not a.startswith("--test-reporter")]
        ws.run(["node", "--test", "--test-reporter=junit", f"--test-reporter-destination={xml}", *plain], "nodetest")
        signals, counts = _junit_signals(str(xml))
        xml.unlink()
        passed = counts["tests"] - counts["failed"] - counts["skipped"]
        tail = [sig("summary", f"fail {counts['failed']}")] if counts["failed"] else []
        fixtures.append(
            ws.fixture(
                id,
                "tests/node-test",
                r,
                family="node-test",
                signals=signals + tail,
                signal_source="rerun with --test-reporter=junit: failing testcase names and first failure "
                "message lines; fail count",
                tool_version=version,
                notes=note if note else f"{passed} passed",
            )
        )

    add("node-test-tap-failures", ["test/"], "default reporter without a TTY (TAP)")
    add("node-test-spec-failures", ["--test-reporter=spec", "test/"], "spec reporter")
    add("node-test-spec-large-pass", ["--test-reporter=spec", "bulk/"], "2000 passing tests, spec reporter")
    add("node-test-tap-large-pass", ["bulk/"], "2000 passing tests, TAP")
    add(
        "node-test-spec-color",
        ["--test-reporter=spec", "test/"],
        "spec reporter, FORCE_COLOR=1",
        dict(ws.env, FORCE_COLOR="1"),
    )
    return fixtures


def _bun(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("bun")
    if not ws.which("bun"):
        raise Skip("bun did not install")
    version = "bun " + ws.version(["bun", "--version"])
    imp = (
        'import { describe, test, expect } from "bun:test";\n'
        'import { Cart, formatMoney, applyCoupon, fetchCoupon, shippingFor } from "../src/cart.js";'
    )
    ws.write("buntest/package.json", '{"name": "cart", "private": true, "type": "module"}\n')
    ws.write("buntest/src/cart.js", CART_ESM)
    ws.write("buntest/test/cart.test.js", JEST_CART.format(imp=imp, skip="test.skip"))
    ws.write("buntest/test/money.test.js", JEST_MONEY.format(imp=imp))
    ws.write("buntest/test/coupons.test.js", JEST_COUPONS.format(imp=imp))
    ws.write("buntest/bulk/bulk.test.js", JEST_BULK.format(imp=imp, n=1500))
    fixtures: list[dict[str, Any]] = []

    def add(id: str, args: list[str], note: str | None = None, env: dict[str, str] | None = None) -> None:
        r = ws.run(["bun", "test", *args], "buntest", env=env)
        xml = ws.path("buntest/.junit.xml")
        ws.run(["bun", "test", *args, "--reporter=junit", f"--reporter-outfile={xml}"], "buntest")
        signals, counts = _junit_signals(str(xml))
        xml.unlink()
        passed = counts["tests"] - counts["failed"] - counts["skipped"]
        tail = [sig("summary", f"{counts['failed']} fail")] if counts["failed"] else []
        if passed:
            tail.append(sig("summary", f"{passed} pass"))
        fixtures.append(
            ws.fixture(
                id,
                "tests/bun-test",
                r,
                family="bun-test",
                signals=signals + tail,
                signal_source="rerun with --reporter=junit: failing testcase names and first failure message "
                "lines; pass/fail counts",
                tool_version=version,
                notes=note,
            )
        )

    add("bun-test-failures", ["./test"], "three files with failures, a todo, a skip and console output")
    add("bun-test-color", ["./test/money.test.js"], "FORCE_COLOR=1", dict(ws.env, FORCE_COLOR="1"))
    add("bun-test-large-pass", ["./bulk"], "1500 passing tests")
    return fixtures


PW_CONFIG = """
const { defineConfig } = require("@playwright/test");
module.exports = defineConfig({
  testDir: ".",
  timeout: 5000,
  expect: { timeout: 300 },
  use: { launchOptions: { executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] } },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
});
"""

PW_CART = """
const { test, expect } = require("@playwright/test");

const PAGE = `
<h1>Cart</h1>
<ul id="lines"><li>A-1 x3</li></ul>
<span id="total">12.00</span>
<button id="checkout" disabled>Checkout</button>
<script>
  document.querySelector("#checkout").addEventListener("click", () => { throw new Error("payment widget missing"); });
</script>`;

test.describe("cart page", () => {
  test.beforeEach(async ({ page }) => {
    await page.setContent(PAGE);
  });
  test("shows the title", async ({ page }) => {
    await expect(page.locator("h1")).toHaveText("Cart");
  });
  test("lists merged quantities", async ({ page }) => {
    await expect(page.locator("#lines li")).toHaveText(["A-1 x5"]);
  });
  test("total updates", async ({ page }) => {
    await expect(page.locator("#total")).toHaveText("15.00");
  });
  test("checkout is enabled", async ({ page }) => {
    await page.locator("#checkout").click({ timeout: 400 });
  });
  test("coupon field is visible", async ({ page }) => {
    await expect(page.getByPlaceholder("Coupon code")).toBeVisible();
  });
  test.skip("pays with a saved card", async () => {});
});

test("title of the document", async ({ page }) => {
  await page.setContent("<title>Shop</title>");
  expect(await page.title()).toBe("Shop - Cart");
});
"""

PW_BULK = """
const { test, expect } = require("@playwright/test");

for (let i = 0; i < {n}; i++) {
  test(`price row ${i} keeps its value`, async () => {
    expect((i * 7) / 7).toBe(i);
  });
}
"""


def _pw_signals(path: str) -> list[Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    sigs: list[Any] = []

    def walk(suite: dict[str, Any], titles: list[str]) -> None:
        for spec in suite.get("specs", []):
            for t in spec.get("tests", []):
                if t.get("status") not in ("unexpected", "flaky"):
                    continue
                name = " › ".join([*titles, spec["title"]])
                sigs.append(sig("failing_test", f"{spec['file']}:{spec['line']}:{spec['column']} › {name}"))
                for res in t.get("results", [])[:1]:
                    msg = (res.get("error") or {}).get("message") or ""
                    first = _first_line(msg)
                    if first:
                        sigs.append(sig("failure_message", first[:150]))
        for child in suite.get("suites", []):
            title = child.get("title", "")
            is_file = title.endswith((".js", ".ts")) and not titles
            walk(child, titles if is_file else [*titles, title])

    for s in data.get("suites", []):
        walk(s, [])
    st = data.get("stats", {})
    if st.get("unexpected"):
        sigs.append(sig("summary", f"{st['unexpected']} failed"))
    if st.get("flaky"):
        sigs.append(sig("summary", f"{st['flaky']} flaky"))
    if st.get("expected"):
        sigs.append(sig("summary", f"{st['expected']} passed"))
    return sigs


def _playwright(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("@playwright/test")
    ws.apt_install("chromium")
    if not ws.path("/usr/bin/chromium").exists():
        raise Skip("no /usr/bin/chromium")
    version = "playwright " + ws.version(["playwright", "--version"])
    ws.write("pw/package.json", '{"name": "cart-e2e", "private": true}\n')
    _link_modules(ws, "pw")
    ws.write("pw/playwright.config.js", PW_CONFIG)
    ws.write("pw/tests/cart.spec.js", PW_CART)
    ws.write("pw/bulk/bulk.spec.js", PW_BULK.replace("{n}", "600"))
    fixtures: list[dict[str, Any]] = []

    def add(id: str, args: list[str], note: str | None = None, env: dict[str, str] | None = None) -> None:
        r = ws.run(["playwright", "test", *args], "pw", env=env)
        out = ws.path("pw/.pw-result.json")
        plain = [a for a in args if not a.startswith("--reporter")]
        ws.run(
            ["playwright", "test", *plain, "--reporter=json"],
            "pw",
            env=dict(ws.env, PLAYWRIGHT_JSON_OUTPUT_NAME=str(out)),
        )
        fixtures.append(
            ws.fixture(
                id,
                "tests/playwright",
                r,
                family="playwright",
                signals=_pw_signals(str(out)),
                signal_source="rerun with --reporter=json: file:line:col › describe › title of unexpected/flaky "
                "tests, first error-message line, stats expected/unexpected/flaky",
                tool_version=version,
                notes=note,
            )
        )
        out.unlink()

    add(
        "playwright-list-failures",
        ["tests/"],
        "list reporter (the default without CI): locator timeouts, a click timeout",
    )
    add(
        "playwright-line-retries",
        ["tests/", "--reporter=line", "--retries=1"],
        "line reporter with a retry per failure",
    )
    add("playwright-list-large-pass", ["bulk/"], "600 passing tests, list reporter")
    add(
        "playwright-color-failures",
        ["tests/", "-g", "total|title"],
        "FORCE_COLOR=1",
        dict(ws.env, FORCE_COLOR="1"),
    )
    return fixtures


CAPTURERS: list[Callable[[Workspace], list[dict[str, Any]]]] = [_jest, _vitest, _mocha, _node_test, _bun, _playwright]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("node")
    fixtures: list[dict[str, Any]] = []
    skipped: list[str] = []
    # TJ_CAPTURE_ONLY=_vitest,_mocha narrows a rerun to some runners while iterating.
    only = [n for n in os.environ.get("TJ_CAPTURE_ONLY", "").split(",") if n]
    for fn in CAPTURERS:
        if only and fn.__name__ not in only:
            continue
        try:
            fixtures += fn(ws)
        except Skip as exc:
            skipped.append(f"{fn.__name__}: {exc}")
    if skipped:
        print("tests_js: skipped " + "; ".join(skipped))
    if not fixtures:
        raise Skip("; ".join(skipped))
    return fixtures


_unused = (Result, ET)
