"""npm/pnpm/yarn scripts: their bodies, from package.json or from the output's header."""

from __future__ import annotations

import os


def package_script(cwd: str | None, script: str) -> str | None:
    if not cwd:
        return None
    path = os.path.join(cwd, "package.json")
    try:
        with open(path, encoding="utf-8") as f:
            if os.fstat(f.fileno()).st_size > 2_000_000:
                return None
            import json

            data = json.load(f)
    except (OSError, ValueError):
        return None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    body = scripts.get(script) if isinstance(scripts, dict) else None
    return body if isinstance(body, str) and body.strip() else None


def script_header(head: str, script: str) -> str | None:
    lines = head.splitlines()
    for i, line in enumerate(lines[:40]):
        if line.startswith("> ") and i + 1 < len(lines):
            words = line[2:].split()
            nxt = lines[i + 1]
            # npm: `> pkg@1.0.0 test` ; pnpm: `> pkg@1.0.0 test /path/to/pkg`
            if len(words) >= 2 and words[1] == script and nxt.startswith("> ") and nxt[2:].strip():
                return nxt[2:].strip()
        if line.startswith("$ ") and i > 0 and lines[i - 1].startswith("yarn run v"):
            return line[2:].strip() or None
    return None
