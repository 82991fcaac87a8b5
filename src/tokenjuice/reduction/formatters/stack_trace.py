"""Python tracebacks and Node.js uncaught errors, from any program.

Python: every `Traceback (most recent call last):` header, every chain separator
(`The above exception was the direct cause…`, `During handling…`), every exception
line with its continuation lines, the frames of the program's own code (with their
source line) and the innermost frame of each traceback stay; runs of standard-library
and site-packages frames fold into one line naming their modules; the `^^^^` markers
go. Node: the throw site (`file.js:N`, its source line and caret), the error line,
`[cause]:` lines, the error's properties and the program's own `at` frames stay;
runs of `node:internal` / node_modules frames fold into a count. Lines outside a
trace (the program's own output) are left to the rule's head/tail window.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

PY_HEADER = "Traceback (most recent call last):"
PY_CHAIN_RE = re.compile(
    r"^(?:The above exception was the direct cause of the following exception:"
    r"|During handling of the above exception, another exception occurred:)$"
)
PY_FRAME_RE = re.compile(r'^(\s*)File "([^"]+)", line (\d+)(?:, in (.+))?$')
PY_REPEAT_RE = re.compile(r"^\s*\[Previous line repeated \d+ more times?\]$")
PY_MARK_RE = re.compile(r"^\s*[\^~]+\s*$")
# Library frames. The path patterns start with a literal character, which `re` scans
# for; what must sit at the start of the text is checked apart (`_py_lib`, `_js_lib`):
# an alternative led by `^` made `re` try the whole alternation at every position.
PY_LIB_RE = re.compile(r"/(?:site|dist)-packages/|/lib/python\d(?:\.\d+)?/")
PY_EXC_RE = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure|Fault)\b|^[A-Za-z_][\w.]*: ")

JS_AT_RE = re.compile(r"^(\s+)at ")
JS_LIB_RE = re.compile(r"\(node:|/node_modules/|\(<anonymous>\)$|\(native\)$")
JS_NODE_AT_RE = re.compile(r"\s+at node:")
JS_ERROR_RE = re.compile(
    r"^\s*(?:\[cause\]: |Uncaught )?(?:[A-Z]\w*(?:Error|Exception)|Error|AssertionError \[\w+\])\b"
)
JS_SITE_RE = re.compile(r"^(?:node:internal/\S+|/\S+|[A-Za-z]:\\\S+|file:///\S+):\d+$")
JS_BANNER_RE = re.compile(r"^Node\.js v\d+")


def _py_lib(path: str) -> bool:
    """A Python frame's file in an installed package, the standard library or frozen code."""
    return PY_LIB_RE.search(path) is not None or path.startswith("<frozen ") or path in ("<string>", "<string>\n")


def _js_lib(line: str) -> bool:
    """A JS `at …` frame in Node's internals or a dependency."""
    return JS_LIB_RE.search(line) is not None or JS_NODE_AT_RE.match(line) is not None


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    n = len(lines)
    b = Builder(lines, fi.weights)
    seen = False
    i = 0
    while i < n:
        ln = lines[i]
        if ln.strip() == PY_HEADER:
            i = _python(b, lines, i)
            seen = True
            continue
        if JS_SITE_RE.match(ln) or (JS_ERROR_RE.match(ln) and i + 1 < n and JS_AT_RE.match(lines[i + 1])):
            j = _node(b, lines, i)
            if j > i:
                seen = True
                i = j
                continue
        b.keep(i)
        i += 1
    return b.build(final=False) if seen else None


# ------------------------------------------------------------------ python


def _python(b: Builder, lines: list[str], start: int) -> int:
    """Reduce one traceback starting at its header; return the index after it."""
    n = len(lines)
    b.keep(start, protect=True)
    # Collect frames: (file line index, [following code/marker line indices])
    frames: list[tuple[int, list[int], bool]] = []
    i = start + 1
    while i < n:
        m = PY_FRAME_RE.match(lines[i])
        if m:
            body: list[int] = []
            j = i + 1
            while j < n and lines[j].startswith("    ") and not PY_FRAME_RE.match(lines[j]):
                body.append(j)
                j += 1
            frames.append((i, body, _py_lib(m.group(2))))
            i = j
            continue
        if PY_REPEAT_RE.match(lines[i]):
            frames.append((i, [], False))
            i += 1
            continue
        break
    last = len(frames) - 1
    k = 0
    while k < len(frames):
        fidx, body, lib = frames[k]
        if lib and k != last:
            run = [k]
            while run[-1] + 1 < last and frames[run[-1] + 1][2]:
                run.append(run[-1] + 1)
            mods = []
            for r in run:
                m = PY_FRAME_RE.match(lines[frames[r][0]])
                mod = _module(m.group(2)) if m else "?"
                if mod not in mods:
                    mods.append(mod)
            b.add(
                f"  … {len(run)} library frame{'s' if len(run) > 1 else ''} ({', '.join(mods[:4])}"
                f"{', …' if len(mods) > 4 else ''}) …"
            )
            for r in run:
                b.drop(frames[r][0], "library frames")
                for j in frames[r][1]:
                    b.drop(j, "library frames")
            k = run[-1] + 1
            continue
        b.keep(fidx, protect=True)
        for j in body:
            if PY_MARK_RE.match(lines[j]):
                b.drop(j, "markers")
            else:
                b.keep(j)
        k += 1
    # The exception line(s): up to a blank line, a chain separator or a new traceback.
    first = True
    while i < n:
        ln = lines[i]
        if not ln.strip():
            b.drop(i, "blank")
            i += 1
            break
        if ln.strip() == PY_HEADER or (PY_CHAIN_RE.match(ln) and not first):
            break
        if not first and not ln.startswith((" ", "\t")) and PY_EXC_RE.match(ln) is None and _looks_like_output(ln):
            break
        b.keep(i, protect=True)
        first = False
        i += 1
    if i < n and PY_CHAIN_RE.match(lines[i]):
        b.keep(i, protect=True)
        i += 1
    return i


def _looks_like_output(ln: str) -> bool:
    """A line after the exception that starts the program's next output, not more message."""
    return bool(re.match(r"^(?:\d{4}-\d\d-\d\d|[A-Z]+:[\w.]+:|\[)", ln))


def _module(path: str) -> str:
    for marker in ("/site-packages/", "/dist-packages/"):
        if marker in path:
            return path.split(marker, 1)[1].split("/", 1)[0]
    m = re.search(r"/lib/python\d(?:\.\d+)?/(.+)$", path)
    if m:
        return m.group(1).rsplit(".py", 1)[0].replace("/__init__", "")
    return path.rsplit("/", 1)[-1]


# -------------------------------------------------------------------- node


def _node(b: Builder, lines: list[str], start: int) -> int:
    """Reduce one Node error block (throw site, error, frames, properties, cause)."""
    n = len(lines)
    i = start
    if JS_SITE_RE.match(lines[i]):
        # throw site, source line, caret, blank
        b.keep(i, protect=not lines[i].startswith("node:"))
        i += 1
        while i < n and not JS_ERROR_RE.match(lines[i]) and i - start <= 4:
            if lines[i].strip():
                b.keep(i)
            else:
                b.drop(i, "blank")
            i += 1
        if i >= n or not JS_ERROR_RE.match(lines[i]):
            return i
    depth = 0
    while i < n:
        ln = lines[i]
        if JS_ERROR_RE.match(ln):
            b.keep(i, protect=True)
            i += 1
            # a multi-line message ("Require stack:" lists) runs until the first frame
            while i < n and not JS_AT_RE.match(lines[i]) and lines[i].strip() and not lines[i].startswith("}"):
                if JS_ERROR_RE.match(lines[i]):
                    break
                b.keep(i, protect=True)
                i += 1
            i = _frames(b, lines, i)
            continue
        if ln.rstrip().endswith("{") and depth == 0 and JS_AT_RE.match(ln):
            i += 1
            continue
        stripped = ln.strip()
        if stripped.startswith(
            ("code:", "errno:", "syscall:", "address:", "port:", "requireStack:", "path:")
        ) or stripped in ("}", "{"):
            b.keep(i, protect=stripped.startswith("code:"))
            i += 1
            continue
        if stripped.startswith("... ") and stripped.endswith(" ..."):
            b.keep(i)
            i += 1
            continue
        if JS_BANNER_RE.match(ln):
            b.drop(i, "runtime banner")
            i += 1
            continue
        if not stripped:
            b.drop(i, "blank")
            i += 1
            continue
        break
    return i


def _frames(b: Builder, lines: list[str], i: int) -> int:
    n = len(lines)
    frames = []
    while i < n and JS_AT_RE.match(lines[i]):
        frames.append(i)
        i += 1
    k = 0
    while k < len(frames):
        idx = frames[k]
        lib = _js_lib(lines[idx])
        if lib and k != 0:
            run = [idx]
            while k + len(run) < len(frames) and _js_lib(lines[frames[k + len(run)]]):
                run.append(frames[k + len(run)])
            indent = JS_AT_RE.match(lines[idx]).group(1)  # type: ignore[union-attr]
            tail = " {" if lines[run[-1]].rstrip().endswith("{") else ""
            b.add(f"{indent}… {len(run)} internal frame{'s' if len(run) > 1 else ''} …{tail}")
            for r in run:
                b.drop(r, "internal frames")
            k += len(run)
            continue
        b.keep(idx, protect=True)
        k += 1
    return i
