"""ESLint 9 (flat config, stylish): errors, colour, warnings only, --max-warnings, a large
project, a config crash, clean.

Signals: a rerun with `-f json`: every file with problems (stylish prints its absolute
path), every problem as stylish shows it, `line:col severity message rule` (stylish drops
a message's final period), and the problem counts.
"""

from __future__ import annotations

import json
import re
from typing import Any

from capture._lib import Result, Workspace, sig
from capture._lint_projects import JS_CLEAN, js_project

RULE = "lint/eslint"
FAMILY = "eslint"

CONFIG = """
import js from "@eslint/js";

export default [
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { console: "readonly", fetch: "readonly", process: "readonly" },
    },
    rules: {
      "no-unused-vars": "warn",
      eqeqeq: "error",
      "prefer-const": "error",
      "no-var": "error",
      semi: ["error", "always"],
      "no-else-return": "warn",
      curly: ["error", "multi-line"],
    },
  },
];
"""

WARN_CONFIG = CONFIG.replace('"error"', '"warn"').replace("js.configs.recommended,", "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _signals(ws: Workspace, args: list[str], cwd: str) -> list[Any]:
    out = ws.sh("eslint " + " ".join([*args, "-f", "json"]) + " 2>/dev/null; true", cwd)
    data = json.loads(out or "[]")
    sigs: list[Any] = []
    errors = warnings = 0
    for f in data:
        if not f["messages"]:
            continue
        sigs.append(sig("file", f["filePath"]))
        for m in f["messages"]:
            sev = "error" if m.get("fatal") or m["severity"] == 2 else "warning"
            errors += sev == "error"
            warnings += sev == "warning"
            msg = re.sub(r"([^ ])\.$", r"\1", m["message"])
            text = f"{m.get('line', 0)}:{m.get('column', 0)} {sev} {msg}"
            if m.get("ruleId"):
                text += f" {m['ruleId']}"
            sigs.append(sig("problem", text))
    total = errors + warnings
    if total:
        sigs.append(
            sig("summary", f"{_plural(total, 'problem')} ({_plural(errors, 'error')}, {_plural(warnings, 'warning')})")
        )
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.npm_install("eslint@9", "@eslint/js@9")
    version = ws.version(["eslint", "--version"])
    fixtures: list[dict[str, Any]] = []
    source = "rerun with -f json: each file with problems, each problem's line:col, severity, message and rule, counts"

    def add(id: str, r: Result, signals: list[Any], note: str | None = None, src: str = source) -> None:
        fixtures.append(
            ws.fixture(id, RULE, r, family=FAMILY, signals=signals, signal_source=src, tool_version=version, notes=note)
        )

    def project(name: str, files: dict[str, str], config: str = CONFIG) -> None:
        for rel, content in files.items():
            ws.write(f"{name}/{rel}", content)
        ws.write(f"{name}/eslint.config.mjs", config)
        # Flat configs are ES modules: `@eslint/js` must resolve from the project.
        ws.path(f"{name}/node_modules").symlink_to(ws.tools / "node_modules")

    files = js_project(8, seed=2)
    files["src/broken.js"] = "export const total = ;\n"
    project("small", files)
    sigs = _signals(ws, ["src"], "small")
    r = ws.run(["eslint", "src"], "small")
    add("eslint-stylish", r, sigs)
    r = ws.run(["eslint", "--color", "src"], "small")
    add("eslint-stylish-color", r, sigs, note="--color: ANSI colours on")

    project("warn", js_project(5, seed=6), WARN_CONFIG)
    sigs = _signals(ws, ["src"], "warn")
    r = ws.run(["eslint", "src"], "warn")
    add("eslint-warnings-only", r, sigs, note="every rule at warn: exit 0")
    r = ws.run(["eslint", "--max-warnings", "0", "src"], "warn")
    add("eslint-max-warnings", r, [*sigs, sig("limit", "ESLint found too many warnings (maximum: 0)")])

    project("large", js_project(60, seed=12, n_snippets=(3, 6)))
    r = ws.run(["eslint", "src"], "large")
    add("eslint-large", r, _signals(ws, ["src"], "large"), note="60 files")

    ws.write("crash/src/app.js", JS_CLEAN)
    ws.write("crash/eslint.config.mjs", 'import missing from "eslint-plugin-missing";\nexport default [missing];\n')
    r = ws.run(["eslint", "src"], "crash")
    add(
        "eslint-config-crash",
        r,
        [sig("error", "Cannot find package 'eslint-plugin-missing'"), sig("error", "Oops! Something went wrong!")],
        src="the broken config the run was given (it imports a package that is not installed)",
    )

    project("clean", {"src/sum.js": JS_CLEAN})
    r = ws.run(["eslint", "src"], "clean")
    add("eslint-clean", r, [], src="the clean project the run was given (eslint prints nothing)")
    return fixtures
