"""webpack (webpack-cli): ERROR/WARNING blocks, emitted assets, the compiled line.

Each `ERROR in ./src/index.js 2:0-32` block keeps its header, its message and the first
` @ ./importer` line; the resolver trace (`resolve './x' in …`, `no extension`,
`… doesn't exist`), code frames (`> 2 | …`, `    | ^`) and loader advice go. WARNING
blocks keep their header and the listed assets/entrypoints, not the performance
advice. Module listings (`./src/a.js 1 KiB [built] [code generated]`, `modules by
path …`, `runtime modules …`) and `--progress` lines go; `asset …` lines (what was
emitted) stay, as does `webpack 5.x compiled with 3 errors in 740 ms`.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

BLOCK_RE = re.compile(r"^(ERROR|WARNING) in (\S.*)$")
COMPILED_RE = re.compile(r"^(?:webpack(?: \d[\w.-]*)? compiled\b|\S+ \(webpack \d[\w.-]*\) compiled\b)")
PROGRESS_RE = re.compile(
    r"^<[sie]> \[webpack\.Progress\]|^\[webpack-cli\] (?:Compiler starting|Compiler is using config|Compiler finished)"
)
MODULE_RE = re.compile(
    r"^\s*(?:\.{1,2}/\S.*? \d[\d.]* (?:bytes|KiB|MiB|GiB)\b|(?:modules|assets) by (?:path|status|chunk|type)\b|"
    r"(?:runtime|orphan|cacheable|javascript|asset|dependent) modules \d|webpack/runtime/|"
    r"\+ \d+ (?:modules|hidden modules|assets)|chunk \(runtime: )"
)
ASSET_RE = re.compile(r"^\s*asset \S+ \d")
HINT_RE = re.compile(
    r"^(?:\d+ errors? (?:has|have) detailed information that is not shown|Use 'stats\.errorDetails: true')"
)
FRAME_RE = re.compile(r"^\s*>?\s*\d*\s*\|")
IMPORTER_RE = re.compile(r"^ @ \S")
RESOLVE_RE = re.compile(r"^resolve '[^']*' in ")
ADVICE_RE = re.compile(
    r"^(?:This can impact web performance\.|You can limit the size of your bundles|For more info visit https://webpack\.js\.org|"
    r"You may need an (?:appropriate|additional) loader|File was parsed as module type|"
    r"Set 'mode' option to|You can also set it to 'none'|Learn more: https://webpack\.js\.org)"
)
MAX_MESSAGE = 3  # message lines kept per ERROR block (before its trace)


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    block: str | None = None  # "ERROR" / "WARNING" while inside a block
    message = 0  # message lines kept in the current block
    importer = False  # the block's first ` @ ./x` line was kept
    tracing = False  # inside the resolver trace of an ERROR block
    seen = False
    for i, line in enumerate(lines):
        m = BLOCK_RE.match(line)
        if m:
            seen = True
            block, message, importer, tracing = m.group(1), 0, False, False
            b.keep(i, protect=True)
            continue
        if COMPILED_RE.match(line):
            seen = True
            block = None
            b.keep(i, protect=True)
            continue
        if not line.strip():
            block = None
            b.drop(i, "blank")
            continue
        if PROGRESS_RE.match(line):
            seen = True
            b.drop(i, "progress")
            continue
        if HINT_RE.match(line) or ADVICE_RE.match(line):
            b.drop(i, "advice")
            continue
        if block is not None:
            if FRAME_RE.match(line):
                b.drop(i, "code frames")
            elif IMPORTER_RE.match(line):
                if importer:
                    b.drop(i, "import trace")
                else:
                    importer = True
                    b.keep(i)
            elif block == "ERROR" and ((tracing and line.startswith(" ")) or RESOLVE_RE.match(line)):
                tracing = True
                b.drop(i, "resolver trace")
            elif block == "WARNING" or message < MAX_MESSAGE:
                message += 1
                b.keep(i, protect=block == "ERROR")
            else:
                b.drop(i, "details")
            continue
        if ASSET_RE.match(line):
            seen = True
            b.keep(i)
        elif MODULE_RE.match(line):
            seen = True
            b.drop(i, "modules")
        else:
            b.keep(i)
    if not seen:
        return None
    return b.build(final=True)
