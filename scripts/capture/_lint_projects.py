"""Throwaway projects for the lint / format / type-check capture modules.

Generated deterministically (seeded) so re-captures produce the same findings. Each
generator returns {relative path: content}; the capture modules write them with
`ws.write` and run the real tools over them. Nothing here knows what a tool will report:
signals always come from the tools' machine-readable output.
"""

from __future__ import annotations

import random
import textwrap

# ------------------------------------------------------------------------ Python

PY_HEADER = '''\
"""Inventory helpers, part {i}."""
'''

# Each snippet is a small function with the kind of problems linters and type checkers
# report in real code: unused names, None comparisons, bare excepts, wrong return types,
# optional misuse, undefined names, mutable defaults, long lines.
PY_SNIPPETS = [
    """
    def load_{i}_{k}(path):
        data = json.load(open(path))
        if data == None:
            return []
        try:
            items = data["items"]
        except:
            pass
        return items
    """,
    """
    def total_{i}_{k}(values: List[int]) -> str:
        result = sum(values)
        unused_{k} = len(values)
        return result
    """,
    """
    def lookup_{i}_{k}(table: Dict[str, int], key: str) -> int:
        value: Optional[int] = table.get(key)
        return value + 1
    """,
    """
    def call_{i}_{k}() -> None:
        total_{i}_{k}(["a", "b"])
        missing_helper_{k}()
    """,
    """
    class Record{i}{k}:
        def __init__(self, name: str, size: int) -> None:
            self.name = name
            self.size = size

        def describe(self) -> str:
            return self.name + self.size

        def grow(self, items: list = []) -> int:
            items.append(self.size)
            return len(items)
    """,
    """
    def report_{i}_{k}(rows: List[Dict[str, int]]) -> None:
        for row in rows:
            print("row %s has %d columns and the total weight of the shipment is %d kilograms" % (row, len(row), sum(row.values())))
    """,
    """
    def parse_{i}_{k}(raw: str) -> int:
        l = raw.strip()
        if l is not "":
            return int(l)
        return "0"
    """,
]

PY_UNFORMATTED = [
    "values_{k} = [ 1,2,   3 ]\n",
    "def f_{k}( a,b ):\n  return {{'a':a,'b':b}}\n",
    "x_{k} = {{ 'key' : 'value' , 'other':[1,2,3] }}\n",
    "if True :\n    y_{k}=( 1+\n  2 )\n",
    "class C{k}( object ):\n    def m(self,x) :\n        return x*2\n",
    "names_{k} = ['alpha','beta',\n  'gamma']\n",
]


def python_module(i: int, rng: random.Random, n_snippets: int) -> str:
    parts = [PY_HEADER.format(i=i) if rng.random() < 0.5 else ""]
    imports = ["import os", "import sys", "import json", "from typing import Dict, List, Optional"]
    rng.shuffle(imports)
    parts.append("\n".join(imports) + "\n")
    for k in range(n_snippets):
        parts.append(textwrap.dedent(rng.choice(PY_SNIPPETS).format(i=i, k=k)))
    return "\n".join(parts)


def python_project(
    n_modules: int, seed: int, n_snippets: tuple[int, int] = (2, 5), pkg: str = "inventory"
) -> dict[str, str]:
    rng = random.Random(seed)
    files = {f"{pkg}/__init__.py": ""}
    for i in range(n_modules):
        files[f"{pkg}/mod_{i:03d}.py"] = python_module(i, rng, rng.randint(*n_snippets))
    return files


def python_unformatted(n_files: int, seed: int, pkg: str = "fmtpkg") -> dict[str, str]:
    """Small modules, some black/ruff-format clean, some not (known from the data)."""
    rng = random.Random(seed)
    files: dict[str, str] = {}
    for i in range(n_files):
        body = [f'"""Module {i}."""\n', "\n", "import os\n", "\n", "\n", f"PATH_{i} = os.sep\n"]
        if rng.random() < 0.6:
            for k in rng.sample(range(len(PY_UNFORMATTED)), rng.randint(1, 3)):
                body.append("\n\n" + PY_UNFORMATTED[k].format(k=f"{i}_{k}"))
        files[f"{pkg}/m{i:03d}.py"] = "".join(body)
    return files


PY_UNSORTED_IMPORTS = [
    "import sys\nimport os\nfrom typing import List\nimport json\n",
    "from collections import OrderedDict, defaultdict\nimport re\nimport abc\n",
    "import os, sys\nfrom pathlib import Path\n",
]


def python_imports(n_files: int, seed: int, pkg: str = "imports") -> dict[str, str]:
    rng = random.Random(seed)
    files: dict[str, str] = {}
    for i in range(n_files):
        if rng.random() < 0.5:
            head = rng.choice(PY_UNSORTED_IMPORTS)
        else:
            head = "import json\nimport os\nimport sys\n"
        files[f"{pkg}/m{i:03d}.py"] = head + f"\nVALUE_{i} = {i}\n"
    return files


# ---------------------------------------------------------------------------- JS

JS_SNIPPETS = [
    """
    var total{k} = 0
    function add{k}(a, b) {{
      if (a == b) {{ return undefinedHelper{k}(a); }}
      total{k} = a + b
      return total{k};
    }}
    """,
    """
    let config{k} = {{ name: "svc{k}", retries: 3 }};
    export function describe{k}() {{
      const unused{k} = 42;
      return "service " + config{k}.name;
    }}
    """,
    """
    export async function fetchAll{k}(urls) {{
      const results = [];
      for (const url of urls) {{
        try {{
          results.push(await fetch(url));
        }} catch (e) {{}}
      }}
      return results
    }}
    """,
    """
    export function pick{k}(items, key) {{
      debugger;
      return items.filter(function (item) {{ return item[key] != null }});
    }}
    """,
    """
    export function clamp{k}(value, min, max) {{
      if (value < min) return min;
      else if (value > max) return max;
      else return value;
    }}
    """,
]


def js_module(rng: random.Random, n_snippets: int) -> str:
    parts = []
    for k in range(n_snippets):
        parts.append(textwrap.dedent(rng.choice(JS_SNIPPETS).format(k=k)))
    return "\n".join(parts)


def js_project(n_files: int, seed: int, n_snippets: tuple[int, int] = (2, 5), root: str = "src") -> dict[str, str]:
    rng = random.Random(seed)
    files: dict[str, str] = {}
    dirs = ["components", "services", "utils", "store"]
    for i in range(n_files):
        d = dirs[i % len(dirs)]
        files[f"{root}/{d}/module{i:03d}.js"] = js_module(rng, rng.randint(*n_snippets))
    return files


JS_CLEAN = """\
export function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}
"""

# ------------------------------------------------------------------------- shell

SH_SNIPPETS = [
    "echo $1 $2\n",
    "cd $WORKDIR\nrm -rf $TARGET/*\n",
    "for f in $(ls *.log); do\n  gzip $f\ndone\n",
    'if [ $STATUS == "ok" ]; then\n  echo done\nfi\n',
    "files=$(find . -name '*.tmp')\nfor f in $files; do rm $f; done\n",
    'read name\necho "hello $name"\n',
    "count=`wc -l < input.txt`\necho $count\n",
    "export PATH=$PATH:$HOME/bin\nsource ./env.sh\n",
    "[ -z $VAR ] && echo empty\n",
    "\tcp $SRC $DEST\n",
]


def shell_scripts(n_files: int, seed: int, root: str = "scripts") -> dict[str, str]:
    rng = random.Random(seed)
    files: dict[str, str] = {}
    for i in range(n_files):
        body = ["#!/bin/bash\n", "set -u\n"]
        for _ in range(rng.randint(2, 6)):
            body.append(rng.choice(SH_SNIPPETS))
        files[f"{root}/job_{i:03d}.sh"] = "".join(body)
    return files


# --------------------------------------------------------------------------- CSS

CSS_SNIPPETS = [
    ".card-{k} {{ color: #FFF; }}\n",
    ".empty-{k} {{}}\n",
    ".box-{k} {{ colr: red; margin: 0px; }}\n",
    ".title-{k} {{\n  font-weight: bold;\n  font-weight: normal;\n}}\n",
    ".link-{k}:hover {{\n  color: RED;\n}}\n",
    "a.nav-{k} {{\n  transition: all 0.3S ease;\n}}\n",
]


def css_files(n_files: int, seed: int, root: str = "styles") -> dict[str, str]:
    rng = random.Random(seed)
    files: dict[str, str] = {}
    for i in range(n_files):
        files[f"{root}/part{i:03d}.css"] = "".join(
            rng.choice(CSS_SNIPPETS).format(k=k) for k in range(rng.randint(2, 6))
        )
    return files


# ---------------------------------------------------------------------- Markdown

MD_SNIPPETS = [
    "#Heading without space {k}\n",
    "Some text with trailing spaces   \n",
    "* item one\n- item two\n",
    "## Section {k}\n## Section {k}\n",
    "A very long line of documentation that goes on and on about the configuration options and keeps going past eighty characters.\n",
    "Visit http://example.com/docs/{k} for details.\n",
    "```\nno language\n```\n",
]


def markdown_files(n_files: int, seed: int, root: str = "docs") -> dict[str, str]:
    rng = random.Random(seed)
    files: dict[str, str] = {}
    for i in range(n_files):
        body = [f"# Document {i}\n", "\n"]
        for k in range(rng.randint(2, 6)):
            body.append(rng.choice(MD_SNIPPETS).format(k=k))
            body.append("\n" if rng.random() < 0.6 else "")
        files[f"{root}/page{i:03d}.md"] = "".join(body)
    return files


# ----------------------------------------------------------------- signal helpers


def loc_sig_texts(loc: str) -> list[str]:
    """A location as it can appear in a reduction: `a.py:12:` on its finding line, or
    `a.py:12,` / `a.py:12 ` inside a folded `… same at N more:` list."""
    return [f"{loc}:", f"{loc},", f"{loc} "]


def changed_lines(before: str, after: str) -> list[str]:
    """The `-old` / `+new` lines (non-blank) a formatter would change, by difflib."""
    import difflib

    out = []
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0):
        if line[:1] in "+-" and not line.startswith(("+++", "---")) and line[1:].strip():
            out.append(line)
    return out


_FORMAT_SCRIPT = r"""
import json, sys
tool, rels = sys.argv[1], sys.argv[2:]
out = {}
for rel in rels:
    src = open(rel, encoding="utf-8").read()
    try:
        if tool == "black":
            import black
            try:
                dst = black.format_file_contents(src, fast=False, mode=black.Mode())
            except black.NothingChanged:
                dst = src
        else:
            import isort
            dst = isort.code(src, config=isort.Config(settings_path="."))
    except Exception as exc:
        dst = None
    out[rel] = dst
print(json.dumps(out))
"""


def formatted(ws: object, cwd: str, rels: list[str], tool: str) -> dict[str, str | None]:
    """Each file's content after black/isort, via the tool's own API in the tools venv
    (None when the tool cannot format it). One process for all files."""
    import json
    import shlex

    script = ws.path(f"{cwd}/.tj_format.py")  # type: ignore[attr-defined]
    script.write_text(_FORMAT_SCRIPT, encoding="utf-8")
    out = ws.sh(f"python .tj_format.py {tool} " + " ".join(shlex.quote(r) for r in rels), cwd)  # type: ignore[attr-defined]
    script.unlink()
    return json.loads(out)
