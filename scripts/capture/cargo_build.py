"""cargo build / check / clippy on a dependency-free crate (no registry needed).

Signals: a rerun with `--message-format=json`: for every compiler message its primary
span `file:line:col` and its rendered first line (`error[E0308]: mismatched types`).
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Skip, Workspace, sig

RULE = "build/cargo-build"
FAMILY = "cargo-build"

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


def _signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    out = ws.sh("cargo " + " ".join([*args, "--message-format=json", "-q"]) + " 2>/dev/null; true", cwd)
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
        rendered = (m.get("rendered") or "").splitlines()
        first = rendered[0].strip() if rendered else f"{level}: {m.get('message')}"
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
        "rerun with --message-format=json: primary span file:line:col and first rendered line of "
        "every error and warning"
    )

    def add(id: str, r: Result, args: list[str]) -> None:
        fixtures.append(
            ws.fixture(
                id,
                RULE,
                r,
                family=FAMILY,
                signals=_signals(ws, args, "rustproj"),
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
    ws.write("rustproj/src/main.rs", MAIN_ERRORS)
    r = ws.run("cargo build", "rustproj")
    add("cargo-build-errors", r, ["build"])
    r = ws.run("cargo check", "rustproj")
    add("cargo-check-errors", r, ["check"])
    ws.write("rustproj/src/main.rs", 'use ledger::format_cents;\nfn main() { println!("{}", format_cents(5)); }\n')
    ws.sh("cargo clean -q", "rustproj")
    r = ws.run("cargo build --release", "rustproj")
    add("cargo-build-release-clean", r, ["build", "--release"])
    return fixtures
