#!/usr/bin/env python3
"""Rewrite the TypeScript-id mapping table in docs/rules.md from the rules.

    python scripts/ts_mapping.py [--ts-checkout DIR]

Reads the TypeScript tokenjuice's rule files from its checkout (default
$TOKENJUICE_TS_CHECKOUT or /work/shared/ts-tokenjuice) and pairs each of its ids with
ours: the same id, our rules that list it in `aliases`, or the notes below.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from tokenjuice.rules.loader import load_rules  # noqa: E402

DOC = REPO / "docs" / "rules.md"
TABLE_HEAD = "| TypeScript id | family | ours | how |"
ONLY_HEAD = "Ours only (no TypeScript rule for the tool or form): "

# How ours differs where the id alone does not say it: (also-ours ids, how).
NOTES: dict[str, tuple[list[str], str]] = {
    "build/maven": ([], "ours splits `mvn test`/`verify` into `tests/maven-test` (alias)"),
    "build/gradle": ([], "ours splits `gradle test`/`check` into `tests/gradle-test` (alias)"),
    "build/pnpm-build": (
        [],
        "only while the script's body is unknown: from package.json or the output's "
        "`> pkg@1.0.0 build` header, the body's own rule",
    ),
    "tests/npm-test": ([], "only while the script's body is unknown: otherwise the body's rule (`tests/jest`, ...)"),
    "tests/pnpm-test": ([], "as `tests/npm-test`"),
    "tests/yarn-test": ([], "as `tests/npm-test`"),
    "task/uv": (
        ["tests/pytest"],
        "`uv run X` is X's rule; `uv add/remove/sync/lock` and `uv pip` are ours (aliases)",
    ),
    "task/env": ([], "`env … X` is X's rule"),
    "devops/terraform": ([], "ours splits plan/apply/destroy into `devops/terraform-plan` (alias)"),
    "devops/terragrunt": (["devops/terraform"], "ours merges terragrunt into the terraform rules (both alias it)"),
    "devops/docker-compose": ([], "ours splits `compose ps` into `devops/docker-compose-ps` (alias)"),
    "observability/htop": ([], "ours merges htop into `observability/top` (alias)"),
    "git/show": ([], "ours splits `git show REV:PATH` into `git/show-file` (alias)"),
    "cloud/aws": ([], "ours splits `aws s3` into `cloud/aws-s3` (alias)"),
    "devops/helm": ([], "ours splits `helm template` into `devops/helm-template` (alias)"),
    "cloud/gh": ([], "`cloud/gh` takes `--json`/`--jq` output; ours splits the other forms by subcommand (aliases)"),
    "openclaw/sessions-history": ([], "an OpenClaw host tool, not a shell command: not applicable"),
}


def ts_rules(checkout: Path) -> dict[str, dict[str, object]]:
    out = {}
    for f in sorted((checkout / "src" / "rules").rglob("*.json")):
        rel = f.relative_to(checkout / "src" / "rules")
        if rel.parts[0] == "fixtures" or f.name.endswith(".schema.json"):
            continue
        data = json.loads(f.read_text(encoding="utf-8"))
        out[data["id"]] = data
    return out


def table(checkout: Path) -> tuple[str, list[str]]:
    rs = load_rules(None, user=False, project=False, cache=False)
    ours = {r.id for r in rs.rules}
    rows = [TABLE_HEAD, "|---|---|---|---|"]
    used: set[str] = set()
    for tid, rule in sorted(ts_rules(checkout).items()):
        also, how = NOTES.get(tid, ([], ""))
        ids = [tid] if tid in ours else []
        ids += sorted(r.id for r in rs.rules if tid in r.aliases)
        ids += [i for i in also if i not in ids and i in ours]
        used.update(ids)
        if not how:
            how = "same id" if ids == [tid] else ("split: an override of this id replaces all of them" if ids else "")
        if not ids and not how:
            how = "no rule of ours yet"
        cell = ", ".join(f"`{i}`" for i in ids) if ids else "—"
        rows.append(f"| `{tid}` | `{rule['family']}` | {cell} | {how} |")
    return "\n".join(rows), sorted(ours - used)


def main() -> int:
    default = os.environ.get("TOKENJUICE_TS_CHECKOUT", "/work/shared/ts-tokenjuice")
    checkout = Path(sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--ts-checkout" else default)
    if not (checkout / "src" / "rules").is_dir():
        sys.stderr.write(f"ts_mapping: no TypeScript tokenjuice rules under {checkout}\n")
        return 2
    rows, only = table(checkout)
    doc = DOC.read_text(encoding="utf-8")
    start = doc.index(TABLE_HEAD)
    end = doc.index("\n" + ONLY_HEAD, start)
    after = doc.index(".\n", end + 1) + 1
    line = ONLY_HEAD + ", ".join(f"`{i}`" for i in only) + "."
    DOC.write_text(doc[:start] + rows + "\n\n" + line + doc[after:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
