"""Rule fixtures: captured tool runs with their expected reduction.

A fixture is `tests/fixtures/<family>/<name>.json` (or `.json.gz` when large):

    {"id", "rule", "command", "argv", "cwd", "exitCode", "stdout", "stderr",
     "combined", "interleave", "toolVersion", "source", "capturedAt",
     "signals": [{"kind": "failing_test", "text": "…", "alts": [...]}, ...]}

with the golden reduced text beside it in `<name>.expected.txt`. `source` is
"captured" for real runs, or says which documented format a synthesized one follows.
Checks per fixture: the expected rule is chosen; every signal is in the text; a
non-zero exit code is stated; the text is not longer than the output; the text equals
the golden file. Built-in rules only, so user and project rules cannot change results.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from tokenjuice import _re as re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, TextIO

    from tokenjuice.model import Reduction, ToolRun
    from tokenjuice.reduction.engine import Reducer

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_WS = re.compile(r"\s+")
_TAG = re.compile(r"<[^>]*>")
EXIT_RE_TEMPLATE = r"\bexit\s+{code}\b"


def default_dir() -> Path:
    """`tests/fixtures` of the checkout this package runs from, else of the cwd."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "tests" / "fixtures"
        if candidate.is_dir() and (parent / "pyproject.toml").is_file():
            return candidate
    return Path.cwd() / "tests" / "fixtures"


def iter_fixture_files(directory: Path) -> Iterator[Path]:
    for p in sorted(directory.rglob("*.json*")):
        if p.name.endswith((".json", ".json.gz")) and not p.name.startswith("_"):
            yield p


def load_fixture(path: Path) -> dict[str, Any]:
    if path.name.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data: dict[str, Any] = json.load(f)
    else:
        with path.open(encoding="utf-8") as f:
            data = json.load(f)
    data["_path"] = str(path)
    return data


def golden_path(path: Path) -> Path:
    name = path.name.removesuffix(".gz").removesuffix(".json")
    return path.with_name(name + ".expected.txt")


def fixture_run(fx: dict[str, Any]) -> ToolRun:
    from tokenjuice.model import ToolRun

    interleave = fx.get("interleave")
    return ToolRun(
        tool_name=fx.get("toolName") or "exec",
        command=fx.get("command"),
        argv=fx.get("argv"),
        cwd=None,  # captured elsewhere; project rules never apply to fixtures
        stdout=fx.get("stdout"),
        stderr=fx.get("stderr"),
        combined=fx.get("combined"),
        exit_code=fx.get("exitCode", 0),
        interleave=[tuple(c) for c in interleave] if interleave else None,
    )


def normalize_signal_text(text: str, mode: str = "plain") -> str:
    text = _ANSI.sub("", text).replace("\r", "\n")
    if mode == "html":
        import html

        text = html.unescape(_TAG.sub(" ", text)).replace("\u00b6", " ")
    return _WS.sub(" ", text).strip()


def signal_found(signal: Any, text: str, cache: dict[str, str]) -> bool:
    if isinstance(signal, str):
        texts, mode = [signal], "plain"
    else:
        texts = [signal["text"], *signal.get("alts", [])]
        mode = signal.get("match", "plain")
    if mode not in cache:
        cache[mode] = normalize_signal_text(text, mode)
    hay = cache[mode]
    return any((n := normalize_signal_text(t, mode)) and n in hay for t in texts)


def lost_signals(signals: list[Any], text: str, raw: str | None = None) -> list[Any]:
    """Signals not in `text`; with `raw`, a bulk signal of a large output that lies in a
    raw line range the text states is not lost (see `recoverable`)."""
    cache: dict[str, str] = {}
    lost = [s for s in signals if not signal_found(s, text, cache)]
    if raw is not None and lost:
        back = recoverable(lost, raw, text)
        lost = [s for s in lost if not any(s is b for b in back)]
    return lost


# Bulk signals (changed lines, commits, paths, …) of an output far over any budget may
# be left out of the text when it states the exact raw line range that holds them
# (`tokenjuice cat ID --lines A-B` returns it). Errors, failures and summaries never.
BULK_KINDS = frozenset(
    {"diff_line", "commit", "subject", "path", "installed", "branch", "warning_location", "warning_message", "file"}
)
BULK_MIN_RAW_CHARS = 30_000
_RANGE = re.compile(r"lines? (\d[\d,]*)-(\d[\d,]*)")


def recoverable(lost: list[Any], raw: str, text: str) -> list[Any]:
    """The lost bulk signals whose raw line lies in a range the text states."""
    if len(raw) <= BULK_MIN_RAW_CHARS:
        return []
    bulk = [s for s in lost if isinstance(s, dict) and s.get("kind") in BULK_KINDS]
    ranges = [(int(a.replace(",", "")), int(b.replace(",", ""))) for a, b in _RANGE.findall(text)]
    if not bulk or not ranges:
        return []
    lines = [normalize_signal_text(ln, "plain") for ln in raw.split("\n")]
    out = []
    for s in bulk:
        needle = normalize_signal_text(s["text"], s.get("match", "plain"))
        at = next((i + 1 for i, ln in enumerate(lines) if needle and needle in ln), None)
        if at is not None and any(a <= at <= b for a, b in ranges):
            out.append(s)
    return out


class FixtureResult:
    __slots__ = ("failures", "fixture", "path", "reduction")

    def __init__(self, path: Path, fixture: dict[str, Any], reduction: Reduction) -> None:
        self.path = path
        self.fixture = fixture
        self.reduction = reduction
        self.failures: list[str] = []


def check_fixture(path: Path, reducer: Reducer, *, golden: bool = True) -> FixtureResult:
    fx = load_fixture(path)
    run = fixture_run(fx)
    red = reducer.reduce_run(run)
    res = FixtureResult(path, fx, red)
    expected_rule = fx.get("rule")
    if expected_rule and red.rule_id != expected_rule:
        res.failures.append(f"chose rule {red.rule_id!r}, expected {expected_rule!r}")
    lost = lost_signals(fx.get("signals") or [], red.text, run.combined)
    for s in lost[:5]:
        res.failures.append(f"lost signal: {s if isinstance(s, str) else s.get('text')!r}")
    if len(lost) > 5:
        res.failures.append(f"… and {len(lost) - 5} more lost signals")
    code = run.exit_code
    if code and not re.search(EXIT_RE_TEMPLATE.format(code=code), red.text):
        res.failures.append(f"exit code {code} not stated")
    if len(red.text) > len(run.combined) + 64:
        res.failures.append(f"text ({len(red.text)} chars) longer than the output ({len(run.combined)})")
    gp = golden_path(path)
    if golden:
        if not gp.is_file():
            res.failures.append(f"no golden file {gp.name}")
        else:
            expected = gp.read_bytes().decode("utf-8")  # exactly: a raw output may hold \r
            if expected != red.text + "\n":
                res.failures.append(f"text differs from {gp.name} (update with scripts/update_goldens.py)")
    return res


class FixturesReport:
    def __init__(self) -> None:
        self.results: list[FixtureResult] = []
        self.rules_without_fixture: list[str] = []
        self.ok = True


def builtin_reducer() -> Reducer:
    from tokenjuice.reduction.engine import Reducer

    return Reducer(user_rules=False, project_rules=False, store=False, record=False)


def run_fixtures(directory: str | None = None, *, out: TextIO | None = None, quiet: bool = False) -> FixturesReport:
    import sys

    out = out or sys.stdout
    root = Path(directory) if directory else default_dir()
    report = FixturesReport()
    if not root.is_dir():
        out.write(f"fixtures: no directory {root}\n")
        report.ok = False
        return report
    reducer = builtin_reducer()
    for path in iter_fixture_files(root):
        res = check_fixture(path, reducer)
        report.results.append(res)
        if res.failures:
            report.ok = False
            for f in res.failures:
                out.write(f"FAIL {path.relative_to(root)}: {f}\n")
        elif not quiet:
            r = res.reduction
            out.write(f"ok   {path.relative_to(root)}  {r.rule_id}  {r.raw_chars:,} → {r.reduced_chars:,} chars\n")
    rs = reducer.ruleset()
    covered = {res.fixture.get("rule") for res in report.results}
    report.rules_without_fixture = sorted(r.id for r in rs.rules if r.id not in covered)
    families = {r.family for r in rs.rules}
    fixture_families = {r.family for r in rs.rules if r.id in covered}
    for rid in report.rules_without_fixture:
        out.write(f"FAIL rule {rid} has no fixture\n")
    if report.rules_without_fixture:
        report.ok = False
    n_fail = sum(1 for r in report.results if r.failures)
    out.write(
        f"{len(rs.rules)} rules in {len(families)} families; {len(report.results)} fixtures covering "
        f"{len(covered & {r.id for r in rs.rules})} rules in {len(fixture_families)} families; "
        f"{n_fail} failing\n"
    )
    return report
