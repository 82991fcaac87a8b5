"""rg and grep over a real source tree: many matches, counts, lists, context, errors.

The tree is the repository built by fs_listing (copies of installed packages), plus a
small data directory with a binary file. Signals come from the tools' machine-readable
modes run with the same pattern and paths: `rg --json` (every file with a match) and
`grep -l` (every matching file); for counts, `grep -c`/`rg -c` rows with a non-zero
count; for errors, the documented messages.
"""

from __future__ import annotations

import json
from typing import Any

from capture._lib import Result, Workspace, sig
from capture.fs_listing import as_nobody, build_repo, lock_down, unlock


def rg_paths(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    """Every path `rg --json` reports a match in (same arguments)."""
    import shlex

    out = ws.sh("rg --json " + " ".join(shlex.quote(a) for a in args), cwd, check=False)
    paths: dict[str, None] = {}
    for line in out.splitlines():
        ev = json.loads(line)
        if ev.get("type") == "match":
            paths[ev["data"]["path"]["text"]] = None
    return [sig("path", p) for p in paths]


def grep_paths(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    """Every file `grep -l` lists for the same pattern and paths."""
    import shlex

    out = ws.sh("grep -l " + " ".join(shlex.quote(a) for a in args), cwd, check=False)
    return [sig("path", p) for p in out.splitlines() if p]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("rg", "grep", "setpriv")
    repo = build_repo(ws)
    rel = repo.name
    out: list[dict[str, Any]] = []
    rg_v = ws.version(["rg", "--version"])
    grep_v = ws.version(["grep", "--version"])

    def fx(
        id: str, rule: str, family: str, r: Result, signals: list[Any], source: str, notes: str | None = None
    ) -> None:
        out.append(
            ws.fixture(
                id,
                rule,
                r,
                family=family,
                signals=signals,
                signal_source=source,
                tool_version=rg_v if family == "rg" else grep_v,
                notes=notes,
            )
        )

    rg_src = "rg --json with the same pattern and paths: every file with a match"
    grep_src = "grep -l with the same pattern and paths: every file with a match"

    # ripgrep
    args = ["-n", "def render", "lib"]
    fx("rg-line-numbers-many-files", "search/rg", "rg", ws.run(["rg", *args], rel), rg_paths(ws, args, rel), rg_src)
    args = ["raise ValueError", "lib"]
    fx(
        "rg-no-line-numbers",
        "search/rg",
        "rg",
        ws.run(["rg", *args], rel),
        rg_paths(ws, args, rel),
        rg_src,
        "not a terminal: rg prints path:text without line numbers",
    )
    args = ["-n", "self\\.", "lib/docutils"]
    fx(
        "rg-huge-result",
        "search/rg",
        "rg",
        ws.run(["rg", *args], rel),
        rg_paths(ws, args, rel),
        rg_src,
        "tens of thousands of matches",
    )
    args = ["-n", "-C", "2", "class Environment", "lib"]
    r = ws.run(["rg", *args], rel)
    fx("rg-context", "search/rg", "rg", r, [*rg_paths(ws, args, rel), sig("match", "class Environment")], rg_src)
    args = ["-c", "import", "lib/jinja2"]
    r = ws.run(["rg", *args], rel)
    rows = [ln for ln in ws.sh("rg -c import lib/jinja2", rel, check=False).splitlines() if ln]
    fx("rg-count", "search/rg", "rg", r, [sig("count", ln) for ln in rows], "rg -c rows (files with a match)")
    args = ["-n", "def ", "lib/jinja2/environment.py"]
    r = ws.run(["rg", *args], rel)
    defs = [ln.split(":", 1)[0] for ln in ws.sh("rg -n 'def ' lib/jinja2/environment.py", rel).splitlines()]
    fx(
        "rg-single-file",
        "search/rg",
        "rg",
        r,
        [sig("line", f"{n}:") for n in defs[:5]],
        "rg -n on one file: its line numbers (no path prefix)",
    )
    r = ws.run(["rg", "zzqq-never-there", "lib"], rel)
    fx("rg-no-matches", "search/rg", "rg", r, [], "none: nothing matches (exit 1)")
    r = ws.run(["rg", "foo(", "lib"], rel)
    fx(
        "rg-regex-error",
        "search/rg",
        "rg",
        r,
        [sig("error", "regex parse error"), sig("error", "unclosed group")],
        "ripgrep's documented parse error for an unclosed group",
    )
    r = ws.run(["rg", "--files", "lib"], rel)
    fx("rg-files-inventory", "filesystem/rg-files", "rg", r, [], "none: an inventory listing")
    r = ws.run(["rg", "-l", "deprecated", "lib/sphinx"], rel)
    fx("rg-files-with-matches", "search/rg", "rg", r, rg_paths(ws, ["deprecated", "lib/sphinx"], rel), rg_src)

    # grep
    args = ["-rn", "return None", "lib"]
    fx(
        "grep-rn-many",
        "search/grep",
        "grep",
        ws.run(["grep", *args], rel),
        grep_paths(ws, ["-r", "return None", "lib"], rel),
        grep_src,
    )
    args = ["-rn", "import", "lib/requests"]
    fx(
        "grep-rn-dense-files",
        "search/grep",
        "grep",
        ws.run(["grep", *args], rel),
        grep_paths(ws, ["-r", "import", "lib/requests"], rel),
        grep_src,
        "many matches in few files",
    )
    r = ws.run(["grep", "-rc", "TODO", "lib/jinja2"], rel)
    nonzero = [ln for ln in ws.sh("grep -rc TODO lib/jinja2", rel, check=False).splitlines() if not ln.endswith(":0")]
    fx(
        "grep-count-zeros",
        "search/grep",
        "grep",
        r,
        [sig("count", ln) for ln in nonzero],
        "grep -rc rows with a non-zero count",
    )
    r = ws.run(["grep", "-rl", "Deprecated", "lib"], rel)
    fx("grep-files-with-matches", "search/grep", "grep", r, grep_paths(ws, ["-r", "Deprecated", "lib"], rel), grep_src)
    r = ws.run(["grep", "-n", "def ", "lib/jinja2/environment.py"], rel)
    fx("grep-single-file", "search/grep", "grep", r, [sig("line", "def __init__(")], "the file's constructor")
    r = ws.run(["grep", "-rn", "-A", "3", "class Undefined", "lib/jinja2"], rel)
    fx(
        "grep-after-context",
        "search/grep",
        "grep",
        r,
        [*grep_paths(ws, ["-r", "class Undefined", "lib/jinja2"], rel), sig("match", "class Undefined")],
        grep_src,
    )
    ws.write(f"{rel}/data/notes.txt", "magic number: 0x1f8b\nnothing else\n")
    (repo / "data" / "blob.bin").write_bytes(b"\x1f\x8b\x08\0magic number\0" + bytes(range(256)))
    r = ws.run(["grep", "-rn", "magic", "data"], rel)
    fx(
        "grep-binary-file",
        "search/grep",
        "grep",
        r,
        [sig("error", "data/blob.bin: binary file matches"), sig("path", "data/notes.txt")],
        "the binary file written with a NUL byte; grep's documented notice (GNU grep 3.5+)",
    )
    r = ws.run(["grep", "-rn", "zzqq-never-there", "lib/requests"], rel)
    fx("grep-no-matches", "search/grep", "grep", r, [], "none: nothing matches (exit 1)")
    r = ws.run(["grep", "-n", "import", "missing.py", "lib/requests/api.py"], rel)
    fx(
        "grep-missing-file",
        "search/grep",
        "grep",
        r,
        [sig("error", "grep: missing.py: No such file or directory"), sig("path", "lib/requests/api.py")],
        "one operand does not exist",
    )
    locked = lock_down(ws, repo)
    try:
        r = as_nobody(
            ws,
            ["grep", "-rn", "TOKEN", f"{rel}/lib/sphinx/builders", f"{rel}/secrets", f"{rel}/lib/sphinx/build_cache"],
        )
        fx(
            "grep-permission-denied",
            "search/grep",
            "grep",
            r,
            [sig("error", f"grep: {p}: Permission denied") for p in locked],
            "the directories closed to nobody",
            "run as user nobody (setpriv) so permissions apply",
        )
    finally:
        unlock(locked, ws)
    return out
