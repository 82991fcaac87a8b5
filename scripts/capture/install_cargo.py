"""cargo install / uninstall: local crates (`--path`, works offline) and a crates.io
install that fails for real (this machine cannot reach crates.io).

Signals: a rerun of the build with `--message-format=json` (each warning's and error's
first rendered line and primary `file:line:col`), the crate's Cargo.toml data (name,
version, binary), and the files `cargo uninstall` removed.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Workspace, sig, synthesized

RULE = "install/cargo"
FAMILY = "cargo-install"


def _crate(ws: Workspace, d: str, name: str, deps: list[str], warnings: int, main: bool) -> None:
    dep_lines = "".join(f'{x} = {{ path = "../{x}" }}\n' for x in deps)
    ws.write(
        f"{d}/{name}/Cargo.toml",
        f'[package]\nname = "{name}"\nversion = "0.3.1"\nedition = "2021"\n\n[dependencies]\n{dep_lines}',
    )
    body = [f"pub fn {name}_value(x: i64) -> i64 {{"]
    for k in range(warnings):
        body.append(f"    let unused_{k} = x * {k + 2};")
    body += ["    x + 1", "}"]
    uses = "".join(f"    let _ = {x}::{x}_value(1);\n" for x in deps)
    ws.write(f"{d}/{name}/src/lib.rs", "\n".join(body) + "\n")
    if main:
        ws.write(
            f"{d}/{name}/src/main.rs",
            f'fn main() {{\n{uses}    println!("{{}}", {name}::{name}_value(41));\n}}\n',
        )


def _diagnostics(ws: Workspace, cwd: str) -> list[Any]:
    out = ws.sh("cargo build --release --message-format=json -q 2>/dev/null; true", cwd)
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
        if m.get("level") not in ("error", "warning"):
            continue
        rendered = (m.get("rendered") or "").splitlines()
        first = rendered[0].strip() if rendered else ""
        spans = [s for s in m.get("spans", []) if s.get("is_primary")]
        if not spans:
            continue
        loc = f"{spans[0]['file_name']}:{spans[0]['line_start']}:{spans[0]['column_start']}"
        if (loc, first) in seen:
            continue
        seen.add((loc, first))
        sigs += [sig(f"{m['level']}_location", loc), sig(f"{m['level']}_message", first)]
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("cargo")
    ws.env["CARGO_INSTALL_ROOT"] = str(ws.path("cargo-root"))
    ws.env["CARGO_TERM_COLOR"] = "never"
    version = {"cargo": ws.version(["cargo", "--version"]), "rustc": ws.version(["rustc", "--version"])}
    fixtures: list[dict[str, Any]] = []

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        fixtures.append(
            ws.fixture(
                id, RULE, r, family=FAMILY, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    diag_src = "rerun with --message-format=json: first line and primary location of each diagnostic; Cargo.toml"
    offline = dict(ws.env, CARGO_NET_OFFLINE="true")

    # A small tool with a few warnings.
    _crate(ws, "small", "tjtool", [], 2, main=True)
    r = ws.run(["cargo", "install", "--path", "."], "small/tjtool", env=offline)
    add(
        "cargo-install-path",
        r,
        [*_diagnostics(ws, "small/tjtool"), sig("installed", "tjtool v0.3.1"), sig("binary", "tjtool")],
        diag_src,
    )
    r = ws.run(["cargo", "install", "--path", "."], "small/tjtool", env=offline)
    add("cargo-install-path-again", r, [sig("status", "tjtool v0.3.1")], "the crate installed by the previous fixture")

    # Twenty-four local path crates, three of them with warnings: many Compiling lines.
    names = [f"part{k:02d}" for k in range(24)]
    for k, n in enumerate(names):
        _crate(ws, "big", n, names[:k][-2:], 2 if k % 9 == 4 else 0, main=False)
    _crate(ws, "big", "assembler", names[-3:], 0, main=True)
    r = ws.run(["cargo", "install", "--path", "."], "big/assembler", env=offline)
    add(
        "cargo-install-path-many-warnings",
        r,
        [*_diagnostics(ws, "big/assembler"), sig("installed", "assembler v0.3.1")],
        diag_src,
        "25 local crates, 6 warnings",
    )

    # A compile error.
    ws.write(
        "small/tjtool/src/main.rs",
        'fn main() {\n    let n: u32 = "forty-two";\n    println!("{}", tjtool::tjtool_value(n));\n}\n',
    )
    r = ws.run(["cargo", "install", "--path", "."], "small/tjtool", env=offline)
    add(
        "cargo-install-path-compile-error",
        r,
        [*_diagnostics(ws, "small/tjtool"), sig("error", "failed to compile `tjtool v0.3.1")],
        diag_src,
    )

    # crates.io is unreachable from here: the real failure.
    r = ws.run(["cargo", "install", "ripgrep"], env=dict(ws.env, CARGO_NET_RETRY="2"))
    add(
        "cargo-install-registry-unreachable",
        r,
        [sig("error", "index.crates.io"), sig("error", "Could not resolve host")],
        "the registry index host this machine cannot resolve",
        "no network to crates.io; CARGO_NET_RETRY=2",
    )

    r = ws.run(["cargo", "uninstall", "tjtool"])
    add("cargo-uninstall", r, [sig("removed", "cargo-root/bin/tjtool")], "the binary installed by the first fixture")
    fixtures.append(_crates_io_synth(version["cargo"]))
    return fixtures


# ripgrep 14.1.1's dependency tree as `cargo install ripgrep` builds it from crates.io.
RG_DEPS = [
    ("memchr", "2.7.4"), ("regex-syntax", "0.8.5"), ("cfg-if", "1.0.0"), ("aho-corasick", "1.1.3"),
    ("log", "0.4.22"), ("itoa", "1.0.14"), ("ryu", "1.0.18"), ("serde", "1.0.216"),
    ("same-file", "1.0.6"), ("walkdir", "2.5.0"), ("libc", "0.2.169"), ("regex-automata", "0.4.9"),
    ("bstr", "1.11.1"), ("encoding_rs", "0.8.35"), ("lexopt", "0.3.0"), ("termcolor", "1.4.1"),
    ("textwrap", "0.16.1"), ("serde_json", "1.0.134"), ("memmap2", "0.9.5"), ("encoding_rs_io", "0.1.7"),
    ("crossbeam-utils", "0.8.21"), ("crossbeam-epoch", "0.9.18"), ("crossbeam-deque", "0.8.6"),
    ("globset", "0.4.15"), ("grep-matcher", "0.1.7"), ("grep-searcher", "0.1.14"), ("grep-regex", "0.1.13"),
    ("grep-printer", "0.2.2"), ("grep-cli", "0.1.11"), ("ignore", "0.4.23"), ("grep", "0.3.2"),
    ("jemalloc-sys", "0.5.4+5.3.0-patched"), ("jemallocator", "0.5.4"),
]  # fmt: skip


def _crates_io_synth(cargo_version: str) -> dict[str, Any]:
    lines = ["    Updating crates.io index", "  Downloaded ripgrep v14.1.1", "  Downloaded 1 crate (290.1 KB) in 0.42s",
             "  Installing ripgrep v14.1.1", "    Updating crates.io index",
             f"     Locking {len(RG_DEPS) + 1} packages to latest compatible versions"]  # fmt: skip
    lines += [f"  Downloaded {n} v{v}" for n, v in reversed(RG_DEPS)]
    lines.append(f"  Downloaded {len(RG_DEPS)} crates (3.4 MB) in 0.88s")
    lines += [f"   Compiling {n} v{v}" for n, v in RG_DEPS]
    lines += [
        "   Compiling ripgrep v14.1.1",
        "    Finished `release` profile [optimized + debuginfo] target(s) in 41.27s",
        "  Installing /home/dev/.cargo/bin/rg",
        "   Installed package `ripgrep v14.1.1` (executable `rg`)",
    ]
    return synthesized(
        "cargo-install-crates-io",
        RULE,
        family=FAMILY,
        command="cargo install ripgrep",
        exit_code=0,
        stdout="",
        stderr="\n".join(lines) + "\n",
        signals=[
            sig("installed", "Installed package `ripgrep v14.1.1` (executable `rg`)"),
            sig("path", "/home/dev/.cargo/bin/rg"),
        ],
        format_source="doc.rust-lang.org/cargo/commands/cargo-install.html and cargo's shell status lines "
        "(Updating/Downloaded/Installing/Locking/Compiling/Finished/Installed, right-aligned verbs on stderr); "
        "crates.io is unreachable from the capture machine",
        tool_version=cargo_version,
    )
