"""kubectl describe: state, reasons, exit codes and events; bookkeeping fields go.

Kept: identity (Name, Namespace, Node, Status, IP, Controlled By), each container's
image, state with its reason, exit code and timestamps, Ready and Restart Count,
limits/requests and probes, Conditions that are not True, and the Events table (its `----`
underline goes). Dropped: Labels and Annotations (with their continuation lines),
Container/Image IDs, host ports, Environment and Mounts listings, Volumes,
Tolerations, Node-Selectors, QoS class. Any dropped line that looks like an error
stays. Works on one object or many (`describe pods -l …`).
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction import signals
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder

KEY_RE = re.compile(r"^(\s*)([A-Za-z][\w .()/-]*+):(?:\s|$)")
# Fields whose line (and every more-indented or continuation line under it) goes.
DROP_BLOCKS = frozenset(
    {
        "Labels",
        "Annotations",
        "Container ID",
        "Image ID",
        "Host Port",
        "Host Ports",
        "Environment",
        "Environment Variables from",
        "Mounts",
        "Volumes",
        "Tolerations",
        "Node-Selectors",
        "QoS Class",
        "Priority",
        "Priority Class Name",
        "Service Account",
        "IPs",
        "Runtime Class Name",
        "Seccomp Profile",
        "SeccompProfile",
        "Topology Spread Constraints",
    }
)
UNDERLINE_RE = re.compile(r"^\s+-{4,}(?:\s+-{3,})+\s*$")
STATE_KEY_RE = re.compile(r"\b(?:Reason|Exit Code|State|Last State|Message):")
# The same without the word boundary: `re` skips to its literals, a third of the cost;
# only lines it finds are checked with the boundary.
_STATE_KEY_GATE_RE = re.compile(r"(?:Reason|Exit Code|State|Last State|Message):")
CONDITION_ROW_RE = re.compile(r"^\s+\S+\s+(True|False|Unknown)\b")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    if not any(ln.startswith(("Name:", "Events:")) for ln in lines[:200]):
        return None
    b = Builder(lines, fi.weights)
    errors = signals.find(lines, locations=False, warnings=False)  # all lines at once
    drop_indent: int | None = None  # inside a dropped block: lines indented deeper than this go
    section = ""
    objects = 0
    for i, line in enumerate(lines):
        m = KEY_RE.match(line)
        indent = len(line) - len(line.lstrip())
        if drop_indent is not None:
            # Continuation lines of `Labels:` etc. are indented past the key; nested blocks deeper.
            if line.strip() and (indent > drop_indent or (m is None and indent >= drop_indent and indent > 0)):
                if i in errors:
                    b.keep(i, protect=True)
                else:
                    b.drop(i, "bookkeeping fields")
                continue
            drop_indent = None
        if not line.strip():
            b.drop(i, "blank")
            continue
        if m and indent == 0:
            section = m.group(2)
            if section == "Name":
                objects += 1
        if m and m.group(2) in DROP_BLOCKS:
            drop_indent = indent
            b.drop(i, "bookkeeping fields")
            continue
        if UNDERLINE_RE.match(line):
            b.drop(i, "table rules")
            continue
        if section == "Events" and indent > 0:
            b.keep(i, protect=line.lstrip().startswith("Warning"))
            continue
        if section == "Conditions" and indent > 0:
            st = CONDITION_ROW_RE.match(line)
            if st and st.group(1) == "True":
                b.drop(i, "true conditions")  # only the failing conditions say anything
            else:
                b.keep(i, protect=st is not None)
            continue
        protect = i in errors or (_STATE_KEY_GATE_RE.search(line) is not None and STATE_KEY_RE.search(line) is not None)
        b.keep(i, protect=protect)
    if objects > 1:
        b.facts["object"] = objects
    return b.build(final=True)
