"""Plain script runs: node, python3, php and ruby scripts, `env` and `file`.

Each script is written here with its failure planted (the exception, its message and
the line it is raised on), so the signals come from the scripts as written, not from
tokenjuice. `env` runs with an environment built here; `file` inspects files made
here (a PNG, a gzip stream, an ELF copy, scripts, a broken symlink, missing paths).
"""

from __future__ import annotations

import gzip
import shutil
import struct
import zlib
from typing import Any

from capture._lib import Skip, Workspace, sig

NODE_CHECK = r"""
import { readFileSync } from "node:fs";

const files = ["a.json", "b.json", "c.json"];
for (let i = 0; i < 120; i++) {
  console.log(`checked fixture ${String(i).padStart(3, "0")}: ${files[i % 3]} ok (${(i * 7) % 50} keys)`);
}
const raw = readFileSync(new URL("./config.json", import.meta.url), "utf8");
const cfg = JSON.parse(raw);
if (!cfg.apiBase) {
  throw new TypeError("missing config: apiBase", { cause: new Error("config.json has no apiBase key") });
}
"""

NODE_UNHANDLED = r"""
async function fetchUser(id) {
  await new Promise((r) => setTimeout(r, 1));
  const err = new Error(`user ${id} not found`);
  err.code = "E_NO_USER";
  throw err;
}
for (let i = 0; i < 80; i++) console.log(`queued job ${i} for user ${1000 + i}`);
process.emitWarning("the legacy queue is deprecated", "DeprecationWarning", "DEP_Q01");
fetchUser(1042);
"""

PY_LOAD = r"""
import json
import sys

def load(path):
    with open(path) as fh:
        return json.load(fh)

def main():
    for i in range(150):
        print(f"row {i:04d}: imported {i * 3 % 17} fields from batch-{i // 10}")
    try:
        return load("settings.json")
    except json.JSONDecodeError as exc:
        raise RuntimeError("settings.json is not valid JSON") from exc

main()
"""

PY_MISSING = "import sys\nprint('starting loader', sys.version_info[:2])\nimport missing_package\n"

PHP_MIGRATE = r"""<?php
function migrate(string $name): void {
    if ($name === '2026_04_29_000007_add_orders_index') {
        throw new RuntimeException("SQLSTATE[HY000] [2002] Connection refused ($name)");
    }
    echo "Migrated:  $name\n";
}
$undefined_total = $totals['orders'];
for ($i = 1; $i <= 90; $i++) {
    migrate(sprintf('2026_04_29_%06d_create_table_%02d', $i, $i));
}
migrate('2026_04_29_000007_add_orders_index');
"""

RUBY_FETCH = r"""
config = { host: "db.internal", port: 5432 }
100.times { |i| puts "synced record #{i} (#{i * 13 % 41} bytes)" }
def token_for(cfg)
  cfg.fetch(:token)
end
warn "deprecated: config.port is ignored"
token_for(config)
"""

ENV_VARS = {
    "HOME": "/home/dev",
    "USER": "dev",
    "LOGNAME": "dev",
    "SHELL": "/bin/bash",
    "PWD": "/home/dev/shop",
    "OLDPWD": "/home/dev",
    "PATH": "/home/dev/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "LANG": "C.UTF-8",
    "TERM": "xterm-256color",
    "EDITOR": "vim",
    "NODE_ENV": "development",
    "DATABASE_URL": "postgres://localhost:5432/shop_dev",
    "VIRTUAL_ENV": "/home/dev/shop/.venv",
    "XDG_CONFIG_HOME": "/home/dev/.config",
}


def capture(ws: Workspace) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if ws.which("node"):
        out += _node(ws)
    out += _python(ws)
    ws.apt_install("php-cli", "ruby")
    if ws.which("php"):
        out += _php(ws)
    if ws.which("ruby"):
        out += _ruby(ws)
    out += _env(ws)
    out += _file(ws)
    out += _shell(ws)
    if not out:
        raise Skip("no runtime could run")
    return out


def _node(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["node", "--version"])
    ws.write("web/scripts/check.mjs", NODE_CHECK)
    ws.write("web/scripts/config.json", '{"region": "eu-west-1"}\n')
    ws.write("web/scripts/jobs.js", NODE_UNHANDLED)
    ws.write("web/scripts/check-env.js", "#!/usr/bin/env node\n" + NODE_UNHANDLED, mode=0o755)
    r1 = ws.run(["node", "scripts/check.mjs"], "web")
    r2 = ws.run(["node", "scripts/jobs.js"], "web")
    # Run as an executable: no `node` in the command, the content rule takes the crash.
    r3 = ws.run(["./scripts/check-env.js"], "web")
    return [
        ws.fixture(
            "node-executable-script-crash",
            "generic/node-error",
            r3,
            family="node-error",
            signals=[sig("error", "Error: user 1042 not found"), sig("code", "E_NO_USER")],
            signal_source="the rejected error and its code, as written in the script",
            tool_version=ver,
        ),
        ws.fixture(
            "node-script-uncaught-cause",
            "task/node",
            r1,
            family="node-script",
            signals=[
                sig("error", "TypeError: missing config: apiBase"),
                sig("cause", "config.json has no apiBase key"),
                sig("location", "check.mjs:10"),
            ],
            signal_source="the error, its cause and the line it is thrown on, as written in the script",
            tool_version=ver,
        ),
        ws.fixture(
            "node-script-rejection-warning",
            "task/node",
            r2,
            family="node-script",
            signals=[
                sig("error", "Error: user 1042 not found"),
                sig("code", "E_NO_USER"),
                sig("warning", "DeprecationWarning: the legacy queue is deprecated"),
                sig("location", "jobs.js:3"),
            ],
            signal_source="the rejected error, its code, the warning emitted and the throw line, as written",
            tool_version=ver,
        ),
    ]


def _python(ws: Workspace) -> list[dict[str, Any]]:
    py = shutil.which("python3") or "python3"
    ver = ws.version([py, "--version"])
    ws.write("etl/load.py", PY_LOAD)
    ws.write("etl/settings.json", '{"batch": 10, "source": "s3://bucket/in",}\n')
    ws.write("etl/boot.py", PY_MISSING)
    r1 = ws.run(["python3", "load.py"], "etl")
    r2 = ws.run(["python3", "boot.py"], "etl")
    return [
        ws.fixture(
            "python-script-chained-traceback",
            "task/python",
            r1,
            family="python-script",
            signals=[
                sig("error", "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes"),
                sig("error", "RuntimeError: settings.json is not valid JSON"),
                sig("chain", "The above exception was the direct cause of the following exception:"),
                sig("location", 'load.py", line 14'),
                sig("location", 'load.py", line 16'),
            ],
            signal_source="the exceptions raised and chained, and the lines that raise them, as written",
            tool_version=ver,
        ),
        ws.fixture(
            "python-script-missing-module",
            "task/python",
            r2,
            family="python-script",
            signals=[
                sig("error", "ModuleNotFoundError: No module named 'missing_package'"),
                sig("location", 'boot.py", line 3'),
            ],
            signal_source="the import planted on line 3 of the script",
            tool_version=ver,
        ),
    ]


def _php(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["php", "--version"])
    ws.write("app/artisan.php", PHP_MIGRATE)
    r = ws.run(["php", "-d", "display_errors=stderr", "-d", "log_errors=0", "artisan.php"], "app")
    return [
        ws.fixture(
            "php-script-uncaught-exception",
            "task/php",
            r,
            family="php-script",
            signals=[
                sig("error", "Uncaught RuntimeException: SQLSTATE[HY000] [2002] Connection refused"),
                sig("warning", "Undefined variable $totals"),
                sig("location", "artisan.php:4"),
                sig("stack", "#0 "),
            ],
            signal_source="the exception thrown on line 4 and the undefined variable read on line 8, as written",
            tool_version=ver,
        )
    ]


def _ruby(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["ruby", "--version"])
    ws.write("sync/sync.rb", RUBY_FETCH)
    r = ws.run(["ruby", "sync.rb"], "sync")
    return [
        ws.fixture(
            "ruby-script-key-error",
            "task/ruby",
            r,
            family="ruby-script",
            signals=[
                sig("error", "key not found: :token (KeyError)"),
                sig("location", "sync.rb:4:in"),
                sig("frame", "sync.rb:7:in"),
                sig("warning", "deprecated: config.port is ignored"),
            ],
            signal_source="the missing key fetched on line 4 from the call on line 7, as written",
            tool_version=ver,
        )
    ]


def _env(ws: Workspace) -> list[dict[str, Any]]:
    colors = ws.sh("dircolors -b", check=False).split("'")
    palette = colors[1] if len(colors) > 2 else "rs=0:di=01;34:ln=01;36"
    env = dict(ENV_VARS, LS_COLORS=palette)
    for k in range(40):
        env[f"SHOP_FEATURE_{k:02d}"] = "on" if k % 3 else "off"
    r = ws.run(["env"], env=env)
    return [
        ws.fixture(
            "env-listing",
            "task/env",
            r,
            family="env",
            signals=[sig("variable", f"{k}={v}") for k, v in ENV_VARS.items() if k in ("PATH", "DATABASE_URL", "HOME")],
            signal_source="the environment the command was run with",
            tool_version=ws.version(["env", "--version"]),
        )
    ]


def _png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + b"\x80" * (width * 3) for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def _file(ws: Workspace) -> list[dict[str, Any]]:
    d = ws.path("assets")
    d.mkdir(parents=True, exist_ok=True)
    for k in range(60):
        (d / f"icon-{k:02d}.png").write_bytes(_png(16 + k, 16 + k))
    for k in range(30):
        (d / f"notes-{k:02d}.txt").write_text(f"release note {k}\n")
    for k in range(20):
        (d / f"dump-{k:02d}.gz").write_bytes(gzip.compress(b"x" * (k + 1), mtime=0))
    (d / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (d / "tool.py").write_text("#!/usr/bin/env python3\nprint('hi')\n")
    shutil.copy("/bin/true", d / "true-bin")
    (d / "dangling").symlink_to("nowhere/target")
    r = ws.run("file assets/* assets/missing.bin assets/also-missing.png")
    return [
        ws.fixture(
            "file-mixed-types",
            "system/file",
            r,
            family="file-type",
            signals=[
                sig("error", "assets/missing.bin: cannot open"),
                sig("error", "assets/also-missing.png: cannot open"),
                sig("path", "assets/dangling: broken symbolic link to nowhere/target"),
                sig("path", "assets/true-bin: ELF"),
            ],
            signal_source="the files made here (two paths never created, a dangling link, an ELF copy)",
            tool_version=ws.version(["file", "--version"]),
        )
    ]


SHELL_SYNC = """\
echo "mirror sync v2"
i=0
while [ $i -lt 300 ]; do
  echo "waiting for upstream lock ..."
  i=$((i + 1))
done
echo "warning: 2 objects skipped (checksum mismatch): img/a.png, img/b.png"
echo "synced 1840 objects"
"""


def _shell(ws: Workspace) -> list[dict[str, Any]]:
    """A shell script: no rule for `bash`, so the generic path reduces it."""
    ws.write("mirror/sync.sh", SHELL_SYNC)
    r = ws.run(["bash", "sync.sh"], "mirror")
    return [
        ws.fixture(
            "shell-script-low-density",
            "generic/fallback",
            r,
            family="generic",
            signals=[
                sig("line", "mirror sync v2"),
                sig("warning", "warning: 2 objects skipped (checksum mismatch): img/a.png, img/b.png"),
                sig("line", "synced 1840 objects"),
            ],
            signal_source="sync.sh as written: its first, warning and last lines",
            tool_version=ws.version(["bash", "--version"]),
        )
    ]
