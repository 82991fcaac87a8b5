"""cargo build / check / clippy on dependency-free crates (no registry needed).

Fixtures: warnings (plain, coloured, `--message-format=short`), type errors (a few, and
a refactor gone wrong with dozens), a clean release build; clippy lints as warnings, as
errors (`-D warnings`) and on a larger crate.

Signals: a rerun with `--message-format=json`: for every compiler message its primary
span `file:line:col` and its `level[code]: message` (`error[E0308]: mismatched types`).
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Skip, Workspace, sig

RULE = "build/cargo-build"
FAMILY = "cargo-build"
CLIPPY_RULE = "build/cargo-clippy"
CLIPPY_FAMILY = "cargo-clippy"

CARGO_TOML = """
[package]
name = "ledger"
version = "0.2.0"
edition = "2021"

[dependencies]
"""

LIB_RS = """
use std::collections::BTreeMap;

pub struct Ledger {
    balances: BTreeMap<String, i64>,
}

impl Ledger {
    pub fn new() -> Self {
        Ledger { balances: BTreeMap::new() }
    }
    pub fn post(&mut self, account: &str, cents: i64) {
        *self.balances.entry(account.to_string()).or_insert(0) += cents;
    }
    pub fn balance(&self, account: &str) -> i64 {
        self.balances.get(account).copied().unwrap_or(0)
    }
    pub fn balances(&self) -> &BTreeMap<String, i64> {
        &self.balances
    }
    pub fn len(&self) -> usize {
        self.balances.len()
    }
}

pub fn format_cents(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, (cents % 100).abs())
}
"""


def _main_with_warnings(n: int) -> str:
    body = [
        "use ledger::{format_cents, Ledger};",
        "use std::collections::HashMap;",
        "use std::io::Write;",
        "",
        "fn main() {",
        "    let mut l = Ledger::new();",
        '    l.post("cash", 1250);',
    ]
    for i in range(n):
        body += [f"    let mut unused_{i} = {i};", f"    let scratch_{i}: Vec<u8> = Vec::new();"]
    body += ['    println!("{}", format_cents(l.balance("cash")));', "}"]
    return "\n".join(body) + "\n"


MAIN_ERRORS = """
use ledger::{format_cents, Ledger};

fn summarize(ledger: &Ledger) -> String {
    let total: i64 = ledger.balances().values().sum();
    total
}

fn main() {
    let mut ledger = Ledger::new();
    ledger.post("cash", 1250);
    let moved = ledger;
    println!("{}", summarize(&moved));
    println!("{}", format_cents(moved.total_cents()));
    println!("{}", format_cents(moved.balance("cash"), true));
    let count: u32 = moved.len();
    println!("{count} {}", undefined_var);
}
"""


def _clippy_fn(k: int) -> str:
    """A function that trips seven common clippy lints."""
    return f"""
pub fn score{k}(v: &Vec<i32>) -> i32 {{
    if v.len() == 0 {{
        return 0;
    }}
    let mut total = 0;
    for i in 0..v.len() {{
        total += v[i];
    }}
    let label = String::from("score{k}");
    let copy = label.clone();
    if total >= {k} && total <= {k + 20} {{
        if copy.contains("s") {{
            return total + 1;
        }}
    }}
    let base: i32 = {k};
    let _shifted = base.clone();
    return total;
}}
"""


def _many_errors_main(n: int) -> str:
    """main.rs after a refactor renamed `balance` to `balance_of` and made `post` fallible."""
    body = ["use ledger::{format_cents, Ledger};", "", "fn main() {", "    let mut l = Ledger::new();"]
    for k in range(n):
        body += [
            f'    let b{k}: u32 = l.balance_of("acct{k}");',
            f'    l.post("acct{k}", {k} * 100).expect("post");',
        ]
    body += ['    println!("{}", format_cents(l.balance("cash")));', "}"]
    return "\n".join(body) + "\n"


def _signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    if "--" in args:
        k = args.index("--")
        args = [*args[:k], "--message-format=json", "-q", *args[k:]]
    else:
        args = [*args, "--message-format=json", "-q"]
    out = ws.sh("cargo " + " ".join(args) + " 2>/dev/null; true", cwd)
    sigs: list[Any] = []
    seen: set[tuple[str, str]] = set()
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") != "compiler-message":
            continue
        m = msg["message"]
        level = m.get("level")
        if level not in ("error", "warning"):
            continue
        spans = [s for s in m.get("spans", []) if s.get("is_primary")]
        # `level[code]: message` from the structured fields (the rendered text depends on
        # --message-format; the short form appends the help).
        code = (m.get("code") or {}).get("code")
        first = f"{level}{f'[{code}]' if code and code.startswith('E') else ''}: {m.get('message', '').splitlines()[0]}"
        if not spans and ("generated" in first or "aborting" in first or "could not compile" in first):
            continue
        loc = f"{spans[0]['file_name']}:{spans[0]['line_start']}:{spans[0]['column_start']}" if spans else ""
        key = (loc, first)
        if key in seen:
            continue
        seen.add(key)
        if loc:
            sigs.append(sig(f"{level}_location", loc))
        sigs.append(sig(f"{level}_message", first))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("cargo")
    ws.env["CARGO_NET_OFFLINE"] = "true"
    ws.env["CARGO_TERM_COLOR"] = "never"
    versions = {"cargo": ws.version(["cargo", "--version"]), "rustc": ws.version(["rustc", "--version"])}
    ws.write("rustproj/Cargo.toml", CARGO_TOML)
    ws.write("rustproj/src/lib.rs", LIB_RS)
    ws.write("rustproj/src/main.rs", _main_with_warnings(40))
    fixtures: list[dict[str, Any]] = []
    source = (
        "rerun with --message-format=json: primary span file:line:col and level[code]: message of "
        "every error and warning"
    )

    def add(id: str, r: Result, args: list[str], cwd: str = "rustproj", clippy: bool = False) -> None:
        fixtures.append(
            ws.fixture(
                id,
                CLIPPY_RULE if clippy else RULE,
                r,
                family=CLIPPY_FAMILY if clippy else FAMILY,
                signals=_signals(ws, args, cwd),
                signal_source=source,
                tool_version=versions,
            )
        )

    r = ws.run("cargo build", "rustproj")
    if r.exit_code != 0:
        raise Skip(f"cargo build of the warning crate failed: {r.stderr[-300:]}")
    add("cargo-build-warnings", r, ["build"])
    ws.sh("cargo clean -q", "rustproj")
    r = ws.run("cargo build --color always", "rustproj")
    add("cargo-build-warnings-color", r, ["build"])
    ws.sh("cargo clean -q", "rustproj")
    r = ws.run("cargo build --message-format=short", "rustproj")
    add("cargo-build-warnings-short", r, ["build"])
    ws.sh("cargo clean -q", "rustproj")
    ws.write("rustproj/src/main.rs", MAIN_ERRORS)
    r = ws.run("cargo build", "rustproj")
    add("cargo-build-errors", r, ["build"])
    r = ws.run("cargo check", "rustproj")
    add("cargo-check-errors", r, ["check"])
    ws.write("rustproj/src/main.rs", 'use ledger::format_cents;\nfn main() { println!("{}", format_cents(5)); }\n')
    ws.sh("cargo clean -q", "rustproj")
    r = ws.run("cargo build --release", "rustproj")
    add("cargo-build-release-clean", r, ["build", "--release"])
    ws.write("rustproj/src/main.rs", _many_errors_main(30))
    r = ws.run("cargo check", "rustproj")
    add("cargo-check-many-errors", r, ["check"])

    # clippy: a small crate, the same as errors, and a larger one (30 copies).
    ws.write("clippyproj/Cargo.toml", CARGO_TOML.replace("ledger", "scores"))
    ws.write("clippyproj/src/lib.rs", _clippy_fn(0))
    r = ws.run("cargo clippy", "clippyproj")
    add("cargo-clippy-warnings", r, ["clippy"], "clippyproj", clippy=True)
    ws.sh("cargo clean -q", "clippyproj")
    r = ws.run("cargo clippy -- -D warnings", "clippyproj")
    add("cargo-clippy-deny-warnings", r, ["clippy", "--", "-D", "warnings"], "clippyproj", clippy=True)
    ws.write("clippyproj/src/lib.rs", "".join(_clippy_fn(k) for k in range(30)))
    ws.sh("cargo clean -q", "clippyproj")
    r = ws.run("cargo clippy --color always", "clippyproj")
    add("cargo-clippy-large-color", r, ["clippy"], "clippyproj", clippy=True)
    return fixtures
