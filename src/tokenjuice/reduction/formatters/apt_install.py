"""apt / apt-get install, remove, upgrade, update (also -s simulations).

Kept: the `N upgraded, N newly installed, N to remove` line, every package that will be
REMOVED, downgraded, held or kept back, the packages the command named (their `Inst` /
`Setting up` lines carry the version), `is already the newest version`, size lines,
every E:/W:/Err: line and dpkg error. Long NEW/upgraded/additional lists are folded to
their first names and a count; Suggested/Recommended lists, download (`Get:`), unpack,
trigger, `Conf` and progress lines go.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder
from tokenjuice.reduction.formatters._install_common import wrap_items

LIST_HEAD_RE = re.compile(
    r"^(?:The following (?:(?P<new>NEW) packages? will be installed|"
    r"packages? will be (?P<kind>REMOVED|upgraded|DOWNGRADED)|"
    r"(?P<additional>additional) packages? will be installed|packages? (?:have|has) been (?P<kept>kept back)|"
    r"(?P<held>held) packages? will be changed|packages? (?:were|was) (?P<auto>automatically installed) and "
    r"(?:are|is) no longer required)|(?P<suggested>Suggested|Recommended) packages):$"
)
ITEM_RE = re.compile(r"^  \S")
SIM_RE = re.compile(r"^(Inst|Conf|Remv|Purg) (\S+)")
PROGRESS_RE = re.compile(
    r"^(?:Reading package lists|Building dependency tree|Reading state information|Calculating upgrade)"
    r"\.\.\.(?: Done)?$"
)
FETCH_RE = re.compile(r"^(?:Get|Hit|Ign):\d+ |^Fetched [\d.,]+ [kMG]?B in ")
DPKG_NOISE_RE = re.compile(
    r"^(?:Selecting previously unselected package |Preparing to unpack |Unpacking |\(Reading database \.\.\.|"
    r"Processing triggers for |update-alternatives: |Created symlink |Removed (?:\"|')?/etc/systemd|debconf: |"
    r"invoke-rc\.d: |Adding (?:user|group|system user) |Purging configuration files for |"
    r"Setting up (?P<setup>\S+) |Removing (?P<removing>\S+) )"
)
CLI_WARNING_RE = re.compile(r"^WARNING: apt does not have a stable CLI interface")
SUMMARY_RE = re.compile(r"^\d+ upgraded, \d+ newly installed, \d+ to remove")
SIGNAL_RE = re.compile(
    r"^(?:E|W|Err|N):|^dpkg: |^Errors were encountered|is already the newest version|set to manually installed|"
    r"^Package \S+ is not available|has no installation candidate|^Unable to |^You might want to run|"
    r"^The following packages have unmet dependencies|Depends: |^Sub-process "
)
VALUE_OPTS = frozenset({"-o", "-c", "-t", "--option", "--config-file", "--target-release", "--default-release"})

FOLD_SHOW = 12  # names shown of a long NEW/upgraded/additional list
FOLD_MIN_LINES = 3  # lists up to this many lines are kept as printed


def _requested(argv: tuple[str, ...]) -> set[str]:
    """Package names the command asked for (`apt-get install -y foo bar=1.2 baz/bookworm`)."""
    names: set[str] = set()
    seen_sub = False
    skip = False
    for a in argv[1:]:
        if skip:
            skip = False
            continue
        if a in VALUE_OPTS:
            skip = True
            continue
        if a.startswith("-"):
            continue
        if not seen_sub:
            seen_sub = True
            continue
        names.add(re.split(r"[=/]", a, maxsplit=1)[0].split(":", 1)[0])
    return names


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    lines = fi.lines
    b = Builder(lines, fi.weights)
    wanted = _requested(fi.cmd.argv)
    saw_apt = False
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        head = LIST_HEAD_RE.match(line)
        if head:
            saw_apt = True
            j = i + 1
            while j < n and ITEM_RE.match(lines[j]):
                j += 1
            _emit_list(b, i, j, head, wanted)
            i = j
            continue
        i += 1
        idx = i - 1
        sim = SIM_RE.match(line)
        if sim:
            saw_apt = True
            if sim.group(1) == "Inst" and sim.group(2).split(":", 1)[0] in wanted:
                b.keep(idx)
            else:
                b.drop(idx, "simulated steps")
            continue
        if PROGRESS_RE.match(line):
            saw_apt = True
            b.drop(idx, "progress")
            continue
        if FETCH_RE.match(line):
            saw_apt = True
            b.drop(idx, "downloads")
            continue
        if CLI_WARNING_RE.match(line):
            b.drop(idx, "apt CLI notice")
            continue
        dn = DPKG_NOISE_RE.match(line)
        if dn:
            saw_apt = True
            name = dn.group("setup") or dn.group("removing")
            if name is not None and name.split(":", 1)[0] in wanted:
                b.keep(idx)
            else:
                b.drop(idx, "dpkg steps")
            continue
        if SUMMARY_RE.match(line):
            saw_apt = True
            b.keep(idx, protect=True)
            continue
        if SIGNAL_RE.search(line):
            saw_apt = True
            b.keep(idx, protect=True)
            continue
        if not line.strip():
            b.drop(idx, "blank")
            continue
        b.keep(idx)
    if not saw_apt:
        return None
    return b.build(final=False)


def _emit_list(b: Builder, start: int, end: int, head: re.Match[str], wanted: set[str]) -> None:
    """A package list under a `The following … :` heading, kept, folded or dropped."""
    lines = b.src_lines
    items = [name for k in range(start + 1, end) for name in lines[k].split() if name != "|"]
    if head.group("suggested"):
        for k in range(start, end):
            b.drop(k, "suggested packages")
        return
    whole = bool(head.group("kind") in ("REMOVED", "DOWNGRADED") or head.group("kept") or head.group("held"))
    if whole or end - start - 1 <= FOLD_MIN_LINES:
        for k in range(start, end):
            b.keep(k, protect=whole)
        return
    shown = items[:FOLD_SHOW]
    shown += [x for x in items[FOLD_SHOW:] if x.split(":", 1)[0] in wanted]
    rest = len(items) - len(shown)
    title = lines[start][:-1]
    b.keep(start, text=f"{title} ({len(items)}):")
    for text in wrap_items("  ", shown + ([f"… {rest} more"] if rest else []), width=100):
        b.add(text)
    for k in range(start + 1, end):
        b.drop(k, "package lists (folded)")
