"""terraform / tofu plan and apply: every resource change, only the attributes that change.

Plan: each `# <address> will be created|updated in-place|destroyed|must be replaced`
line stays; created, destroyed and read resources lose their attribute listing (the
header says it all); updated and replaced resources keep the attributes that change
(`~ a = x -> y`, `# forces replacement`, elements added to or removed from a
collection) under the name of the block that holds them, and lose unchanged,
hidden-count and wholesale `-> (known after apply)` listings. `Plan: …` becomes the
facts line. Refresh lines and the symbol legend go; `Changes to Outputs` keeps one line
per output.

Apply: per-resource progress (`Creating...`, `Still creating...`, `Creation complete`,
provisioner output) goes for every resource that completed; resources that did not
complete keep all their lines. `Apply complete! …` becomes the facts line; long output
values keep their first items.

Diagnostics (the `╷ │ Error: … ╵` boxes) are kept whole.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

HEADER_RE = re.compile(
    r"^\s*# (\S.*?) (will be created|will be updated in-place|will be destroyed|must be replaced"
    r"|will be read during apply|will be imported|will be forgotten|has moved to \S+|will no longer be managed)"
)
REFRESH_RE = re.compile(r": (?:Refreshing state\.\.\.|Reading\.\.\.|Read complete after |Preparing import\.\.\.)")
LEGEND_START_RE = re.compile(r"^(?:Terraform|OpenTofu) used the selected providers")
LEGEND_END_RE = re.compile(r"^(?:Terraform|OpenTofu) will perform the following actions:")
RESOURCE_OPEN_RE = re.compile(r'^\s*(?:[+~-]|-/\+|\+/-|<=) (?:resource|data) "[^"]+" "[^"]+" \{$')
SUMMARY_RE = re.compile(r"^(?:Plan: \d+ to (?:add|import)|Apply complete! Resources:|Destroy complete! Resources:)")
PROGRESS_RE = re.compile(
    r"^(\S[^:(]*)(?: \((?:local-exec|remote-exec|file|[\w-]+)\))?: "
    r"(?:Creating\.\.\.|Modifying\.\.\.|Destroying\.\.\.|Still [a-z]+\.\.\.|Creation complete|"
    r"Modifications complete|Destruction complete|Provisioning with |Executing: |Importing|Import complete)"
)
PROVISIONER_OUT_RE = re.compile(r"^(\S[^(]*) \((?:local-exec|remote-exec|file)\): ")
COMPLETE_RE = re.compile(r"^(\S[^:]*+): (?:Creation|Modifications|Destruction|Import) complete after ")
CHANGE_RE = re.compile(r"^\s*~ .+ -> ")
FORCES_RE = re.compile(r"# forces replacement")
OPEN_RE = re.compile(r"[{\[(]$")
CLOSE_RE = re.compile(r"^\s*[}\])](?:\s*->\s*(.+))?,?$")
ID_CHANGE_RE = re.compile(r"^\s*~ id\s+= ")
NOTE_RE = re.compile(r"^Note: You didn't use the -out option")
RULE_LINE_RE = re.compile(r"^─{10,}$")
PAD_RE = re.compile(r" {2,}= ")
OUTPUT_ITEM_LIMIT = 5


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not any(
        HEADER_RE.match(ln) or SUMMARY_RE.match(ln) or PROGRESS_RE.match(ln) or REFRESH_RE.search(ln) for ln in lines
    ):
        return None
    completed = {m.group(1) for ln in lines if (m := COMPLETE_RE.match(ln))}
    b = Builder(lines, fi.weights)
    n = len(lines)
    i = 0
    section = ""
    while i < n:
        line = lines[i]
        if line.startswith(("╷", "│", "╵")):
            b.keep(i, protect=line.startswith("│ Error") or " line " in line)
            i += 1
            continue
        if SUMMARY_RE.match(line):
            b.headline_from(i, line.strip())
            i += 1
            continue
        if REFRESH_RE.search(line):
            b.drop(i, "refresh")
            i += 1
            continue
        if LEGEND_START_RE.match(line):
            j = i
            while j < n and not LEGEND_END_RE.match(lines[j]) and (j == i or lines[j].strip()):
                b.drop(j, "legend")
                j += 1
            if j < n and LEGEND_END_RE.match(lines[j]):
                b.drop(j, "legend")
                j += 1
            i = j
            continue
        if LEGEND_END_RE.match(line):
            b.drop(i, "legend")
            i += 1
            continue
        h = HEADER_RE.match(line)
        if h:
            b.keep(i, protect=True, text=line.strip())
            i = _resource(b, lines, i + 1, h.group(2))
            continue
        if line.startswith("Changes to Outputs:"):
            section = "plan-outputs"
            b.keep(i)
            i += 1
            continue
        if line.startswith("Outputs:"):
            section = "outputs"
            b.keep(i)
            i += 1
            continue
        if not line.strip():
            section = "" if section == "plan-outputs" else section
            b.drop(i, "blank")
            i += 1
            continue
        if section == "plan-outputs":
            indent = len(line) - len(line.lstrip())
            if indent == 0:
                section = ""  # apply -auto-approve goes straight on to progress lines
            else:
                if indent <= 2:
                    b.keep(i, protect=True)
                else:
                    b.drop(i, "output details")
                i += 1
                continue
        if section == "outputs":
            i = _output_value(b, lines, i)
            continue
        p = PROGRESS_RE.match(line) or PROVISIONER_OUT_RE.match(line)
        if p:
            if p.group(1) in completed:
                b.drop(i, "resource progress")
            else:
                b.keep(i, protect=True)
            i += 1
            continue
        if RULE_LINE_RE.match(line):
            b.drop(i, "separator")
            i += 1
            continue
        if NOTE_RE.match(line):
            j = i
            while j < n and lines[j].strip():
                b.drop(j, "hints")
                j += 1
            i = j
            continue
        b.keep(i)
        i += 1
    for verb, pattern in (("created", "Creation"), ("changed", "Modifications"), ("destroyed", "Destruction")):
        count = sum(1 for ln in lines if f": {pattern} complete after " in ln)
        if count:
            b.facts[f"resource {verb}"] = count
    return b.build(final=True)


def _resource(b: Builder, lines: list[str], i: int, action: str) -> int:
    """Handle the lines after a resource header; return the index after its block."""
    n = len(lines)
    while i < n and lines[i].lstrip().startswith("# (") and not HEADER_RE.match(lines[i]):
        b.keep(i, text=lines[i].strip())  # why: "(because key … is not in for_each map)"
        i += 1
    if i >= n or not RESOURCE_OPEN_RE.match(lines[i]):
        return i
    start = i
    depth = 0
    end = start
    for j in range(start, n):
        s = lines[j]
        if OPEN_RE.search(s.rstrip(",")) and not CLOSE_RE.match(s):
            depth += 1
        elif CLOSE_RE.match(s):
            depth -= 1
        if depth <= 0:
            end = j
            break
    else:
        end = n - 1
    b.drop(start, "attributes")
    body = range(start + 1, end + 1)
    detail = action in ("will be updated in-place", "must be replaced")
    if not detail:
        for j in body:
            b.drop(j, "attributes")
        return end + 1
    # Nested blocks: (opener, closer, closer replaces the whole value).
    spans: dict[int, tuple[int, bool]] = {}
    stack: list[int] = []
    for j in body:
        s = lines[j]
        c = CLOSE_RE.match(s)
        if c and stack:
            opener = stack.pop()
            spans[opener] = (j, c.group(1) is not None)
        elif OPEN_RE.search(s.rstrip(",")):
            stack.append(j)
    keep: set[int] = set()
    wholesale: set[int] = set()
    for opener, (closer, replaced) in spans.items():
        if replaced:
            wholesale.update(range(opener + 1, closer))
    parents: dict[int, int] = {}
    stack = []
    for j in body:
        s = lines[j]
        if stack:
            parents[j] = stack[-1]
        if CLOSE_RE.match(s) and stack:
            stack.pop()
        elif OPEN_RE.search(s.rstrip(",")):
            stack.append(j)
    for j in body:
        s = lines[j]
        if j in wholesale or ID_CHANGE_RE.match(s):
            continue
        stripped = s.lstrip()
        changed = FORCES_RE.search(s) is not None or (CHANGE_RE.match(s) is not None and not OPEN_RE.search(s))
        if not changed and stripped[:2] in ("+ ", "- ") and j in parents and lines[parents[j]].lstrip().startswith("~"):
            changed = True  # an element added to / removed from a changed collection
        if changed:
            keep.add(j)
            p = parents.get(j)
            while p is not None and p not in keep:
                keep.add(p)
                p = parents.get(p)
    for j in body:
        if j in keep:
            # Alignment padding before `=` is only layout.
            b.keep(j, protect=FORCES_RE.search(lines[j]) is not None, text=PAD_RE.sub(" = ", lines[j][4:], count=1))
        else:
            b.drop(j, "unchanged attributes")
    return end + 1


def _output_value(b: Builder, lines: list[str], i: int) -> int:
    """One `name = value` output after apply; long multi-line values keep their first items."""
    n = len(lines)
    line = lines[i]
    b.keep(i, protect=True)
    if not OPEN_RE.search(line):
        return i + 1
    j = i + 1
    items: list[int] = []
    while j < n and lines[j].strip() and not CLOSE_RE.match(lines[j]):
        items.append(j)
        j += 1
    for k in items[:OUTPUT_ITEM_LIMIT]:
        b.keep(k)
    rest = items[OUTPUT_ITEM_LIMIT:]
    if rest:
        for k in rest:
            b.drop(k, "output items")
        b.add(f"  … {len(rest)} more items")
    if j < n and CLOSE_RE.match(lines[j]):
        b.keep(j)
        j += 1
    return j
