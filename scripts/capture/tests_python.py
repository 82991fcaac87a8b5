"""unittest (`python -m unittest`): failures, errors, subtests, discovery errors, -v, -b.

Signals come from a rerun of the same tests through unittest's own API (a small
driver script loads the same names, runs them with a plain TestResult and dumps JSON):
`str(test)` of every failure and error (the id the text runner prints), the first line
of each exception (`traceback.format_exception_only`), and the counts of the run.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Workspace, sig

RULE = "tests/unittest"
FAMILY = "unittest"

PROJECT = {
    "shipping/__init__.py": "",
    "shipping/rates.py": """
        ZONES = {"EU": 1.0, "US": 1.4, "APAC": 1.8}


        def parcel_rate(weight_kg: float, zone: str) -> float:
            base = 4.5 + 1.25 * max(weight_kg - 1, 0)
            return round(base * ZONES[zone], 2)


        def volumetric_weight(length: int, width: int, height: int) -> float:
            # Carriers divide by 5000; this divides by 6000 (the bug the tests find).
            return round(length * width * height / 6000, 2)
        """,
    "shipping/labels.py": """
        def render_label(name: str, street: str, city: str, postcode: str) -> str:
            lines = [name.upper(), street, f"{postcode} {city}"]
            return "\\n".join(lines)


        def split_postcode(text: str) -> tuple[str, str]:
            code, _, rest = text.partition(" ")
            return int(code), rest
        """,
    "shipping/tracking.py": """
        class TrackingError(Exception):
            pass


        def parse_event(raw: str) -> dict:
            fields = raw.split("|")
            if len(fields) != 3:
                raise TrackingError(f"malformed event {raw!r}: expected 3 fields, got {len(fields)}")
            return {"ts": fields[0], "hub": fields[1], "status": fields[2]}


        def latest_status(events: list) -> str:
            return max(events, key=lambda e: e["ts"])["status"]
        """,
    "tests/__init__.py": "",
    "tests/test_rates.py": """
        import unittest

        from shipping.rates import parcel_rate, volumetric_weight


        class ParcelRateTests(unittest.TestCase):
            def test_eu_small(self):
                self.assertEqual(parcel_rate(1, "EU"), 4.5)

            def test_us_heavy(self):
                self.assertEqual(parcel_rate(5, "US"), 13.3)

            def test_unknown_zone(self):
                self.assertEqual(parcel_rate(1, "LATAM"), 6.0)

            def test_weights_monotonic(self):
                for w in range(1, 8):
                    with self.subTest(weight=w):
                        self.assertLess(parcel_rate(w, "APAC"), parcel_rate(w + 1, "APAC"))


        class VolumetricTests(unittest.TestCase):
            def test_small_box(self):
                self.assertAlmostEqual(volumetric_weight(30, 20, 10), 1.2, places=2)

            def test_cube(self):
                for side in (10, 20, 40):
                    with self.subTest(side=side):
                        self.assertEqual(volumetric_weight(side, side, side), round(side**3 / 5000, 2))

            @unittest.skip("carrier table not published yet")
            def test_pallet(self):
                pass

            @unittest.expectedFailure
            def test_rounding_half_even(self):
                self.assertEqual(round(2.675, 2), 2.68)
        """,
    "tests/test_labels.py": """
        import unittest

        from shipping.labels import render_label, split_postcode


        class LabelTests(unittest.TestCase):
            def test_render(self):
                self.assertEqual(
                    render_label("Ada Lovelace", "12 Analytical Row", "London", "N1 9GU"),
                    "ADA LOVELACE\\n12 Analytical Row\\nLondon N1 9GU",
                )

            def test_split_numeric(self):
                self.assertEqual(split_postcode("75001 Paris"), (75001, "Paris"))

            def test_split_alpha(self):
                self.assertEqual(split_postcode("SW1A 1AA"), ("SW1A", "1AA"))

            def test_fields(self):
                self.assertDictEqual(
                    {"name": "Ada", "city": "London", "zone": "EU", "express": False},
                    {"name": "Ada", "city": "London", "zone": "EU", "express": True},
                )
        """,
    "tests/test_tracking.py": """
        import unittest

        from shipping.tracking import TrackingError, latest_status, parse_event


        class TrackingTests(unittest.TestCase):
            def setUp(self):
                self.events = [parse_event(f"2024-05-0{i}T10:00|HUB{i}|in transit") for i in range(1, 6)]

            def test_latest(self):
                self.assertEqual(latest_status(self.events), "in transit")

            def test_malformed(self):
                with self.assertRaises(TrackingError):
                    parse_event("2024-05-01|HUB1")

            def test_delivered_event(self):
                events = self.events + [parse_event("2024-05-09T08:00|HUB9|delivered|signed")]
                self.assertEqual(latest_status(events), "delivered")

            def test_noisy(self):
                for i in range(30):
                    print(f"polling hub {i % 5}: queue depth {i * 3}")
                self.assertTrue(latest_status(self.events).startswith("delivered"))

            @unittest.expectedFailure
            def test_fixed_upstream(self):
                self.assertEqual(len(self.events), 5)
        """,
}

BROKEN = {
    "broken/test_customs.py": """
        import unittest

        from shipping.customs import declare


        class CustomsTests(unittest.TestCase):
            def test_declare(self):
                self.assertTrue(declare("books", 12.0))
        """,
    "broken/test_syntax.py": """
        import unittest


        class SyntaxTests(unittest.TestCase):
            def test_x(self)
                self.assertTrue(True)
        """,
    "broken/test_fine.py": """
        import unittest


        class FineTests(unittest.TestCase):
            def test_fine(self):
                self.assertEqual(1 + 1, 2)
        """,
}

# Many passing tests (generated methods) for the large verbose run.
BULK = """
import unittest


class BulkRateTable(unittest.TestCase):
    pass


def _make(i):
    def test(self):
        self.assertGreaterEqual(i * 3 % 7, 0)
    return test


for _i in range({n}):
    setattr(BulkRateTable, f"test_rate_row_{{_i:04d}}", _make(_i))
"""

# Many tests, a few failing (every 125th row): the large failing run.
BULK_FAILING = """
import unittest


class BulkRateTable(unittest.TestCase):
    pass


def _make(i):
    def test(self):
        expected = i * 3 if i % 125 else i * 3 + 1
        self.assertEqual(i * 3, expected, f"rate row {{i}} drifted")
    return test


for _i in range({n}):
    setattr(BulkRateTable, f"test_rate_row_{{_i:04d}}", _make(_i))
"""

DRIVER = r"""
import io, json, sys, traceback, unittest

names = sys.argv[2:]
loader = unittest.TestLoader()
if sys.argv[1] == "discover":
    suite = loader.discover(names[0] if names else ".")
else:
    suite = loader.loadTestsFromNames(names)
result = unittest.TestResult()
result.buffer = True
suite.run(result)


def first(exc_text):
    lines = [ln for ln in exc_text.strip().splitlines() if ln.strip()]
    # The exception line: the last line that is not indented and not part of a traceback.
    for ln in lines:
        if not ln.startswith((" ", "Traceback")):
            return ln
    return lines[-1] if lines else ""


out = {"failures": [], "errors": [], "run": result.testsRun, "skipped": len(result.skipped),
       "expected": len(result.expectedFailures), "unexpected": len(result.unexpectedSuccesses)}
for kind, items in (("failures", result.failures), ("errors", result.errors)):
    for test, tb in items:
        tail = tb.strip().splitlines()
        # the exception block starts after the last frame's source line
        exc_lines = []
        for ln in reversed(tail):
            if ln.startswith("  "):
                break
            exc_lines.append(ln)
        exc_lines.reverse()
        out[kind].append({"id": str(test), "exception": exc_lines[0] if exc_lines else first(tb), "last": tail[-1]})
json.dump(out, open(".unittest-signals.json", "w"))
"""


def _signals(ws: Workspace, cwd: str, mode: str, names: list[str]) -> list[Any]:
    ws.write(f"{cwd}/.driver.py", DRIVER)
    ws.sh(f"python .driver.py {mode} {' '.join(names)}", cwd)
    data = json.loads(ws.path(f"{cwd}/.unittest-signals.json").read_text())
    ws.path(f"{cwd}/.unittest-signals.json").unlink()
    ws.path(f"{cwd}/.driver.py").unlink()
    sigs: list[Any] = []
    for kind in ("failures", "errors"):
        for item in data[kind]:
            sigs.append(sig("failing_test", item["id"]))
            sigs.append(sig("failure_message", item["exception"][:160]))
            if "._FailedTest." in item["id"] and item["last"] != item["exception"]:
                # A discovery error's message ends with the import error it wraps.
                sigs.append(sig("failure_message", item["last"][:160]))
    sigs.append(sig("summary", f"Ran {data['run']} test{'s' if data['run'] != 1 else ''}"))
    nf, ne = len(data["failures"]), len(data["errors"])
    if nf:
        sigs.append(sig("summary", f"failures={nf}"))
    if ne:
        sigs.append(sig("summary", f"errors={ne}"))
    if data["skipped"]:
        sigs.append(sig("summary", f"skipped={data['skipped']}"))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("python3")
    version = ws.version(["python3", "--version"])
    for rel, content in {**PROJECT, **BROKEN}.items():
        ws.write(f"ship/{rel}", content)
    # broken/ and bulk/ are not packages, so the default discovery from "." skips them.
    ws.write("ship/bulk/test_bulk.py", BULK.format(n=3000))
    ws.write("ship/bulk_failing/test_bulk_failing.py", BULK_FAILING.format(n=1500))
    fixtures: list[dict[str, Any]] = []
    source = (
        "rerun through unittest's API (TestLoader + TestResult, JSON dump): str(test) of each "
        "failure/error, the first exception line, and the run/failure/error/skip counts"
    )

    def add(id: str, r: Result, mode: str, names: list[str], note: str | None = None) -> None:
        fixtures.append(
            ws.fixture(
                id,
                RULE,
                r,
                family=FAMILY,
                signals=_signals(ws, "ship", mode, names),
                signal_source=source,
                tool_version=version,
                notes=note,
            )
        )

    r = ws.run(["python3", "-m", "unittest"], "ship")
    add("unittest-failures-default", r, "discover", ["."], "default discovery: dots, then failure blocks")
    r = ws.run(["python3", "-m", "unittest", "-v"], "ship")
    add("unittest-failures-verbose", r, "discover", ["."], "-v: one line per test, subtest failures")
    r = ws.run(["python3", "-m", "unittest", "-b", "tests.test_tracking"], "ship")
    add("unittest-buffer-stdout", r, "names", ["tests.test_tracking"], "-b: captured stdout in the failure block")
    r = ws.run(["python3", "-m", "unittest", "discover", "-s", "broken"], "ship")
    add("unittest-discovery-errors", r, "discover", ["broken"], "import error and syntax error modules")
    r = ws.run(["python3", "-m", "unittest", "tests.test_rates.ParcelRateTests.test_eu_small", "-v"], "ship")
    add("unittest-single-pass", r, "names", ["tests.test_rates.ParcelRateTests.test_eu_small"])
    r = ws.run(["python3", "-m", "unittest", "discover", "-s", "bulk", "-v"], "ship")
    add("unittest-large-verbose-pass", r, "discover", ["bulk"], "3000 passing tests, verbose")
    r = ws.run(["python3", "-m", "unittest", "discover", "-s", "bulk_failing", "-v"], "ship")
    add("unittest-large-verbose-failures", r, "discover", ["bulk_failing"], "1500 tests, 12 failing, verbose")
    return fixtures
