"""ESLint's stylish output (also stylelint's string formatter, see `stylelint.py`).

Each file's block keeps its path line and one compact line per problem,
`  12:5 error Unexpected var, use let or const instead  no-var`: the column padding
stylish adds to align a table goes (it is most of the bytes). The `✖ N problems` summary
and the fixable hint stay; crash reports and config errors keep their own lines.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters._common import Builder, lazy_end

# `  1:5   warning  'x' is assigned a value but never used        no-unused-vars`;
# the rule column is missing for parsing errors. Message and rule are separated by
# at least two spaces (messages use single spaces).
# What `ESLINT_HEAD_RE` and `item_text` read (a test holds them to it): the lazy message
# tried the rule after every character.
ESLINT_ITEM_RE = re.compile(r"^ +(?P<pos>\d+:\d+) +(?P<sev>error|warning) +(?P<msg>\S.*?)(?: {2,}(?P<rule>\S+))?$")
ESLINT_HEAD_RE = re.compile(r"^ +(?P<pos>\d+:\d+) +(?P<sev>error|warning) +(?=\S)")
# the rule id ending a stylish line, two or more blanks after the message
RULE_TAIL_RE = re.compile(r"  +(\S+)$")
ESLINT_SUMMARY_RE = re.compile(r"^[✖✔×] \d+ problems? |^ +\d+ errors? and \d+ warnings? potentially fixable")
ESLINT_EXTRA_RE = re.compile(r"^ESLint found too many warnings|^Oops! Something went wrong")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    return stylish(fi, ESLINT_HEAD_RE, ESLINT_SUMMARY_RE, ESLINT_EXTRA_RE)


def item_text(head: re.Match[str]) -> str:
    """A stylish problem line whose position and severity `head` matched, in one
    spacing: `  3:7 error Message text  rule-id` (the rule, when there is one, is the
    last word, after two or more blanks)."""
    line, start = head.string, head.end()
    end = lazy_end(head, RULE_TAIL_RE)
    rule = line[end:].lstrip(" ")
    return f"  {head.group('pos')} {head.group('sev')} {line[start:end]}" + (f"  {rule}" if rule else "")


def stylish(
    fi: FormatInput, head_re: re.Pattern[str], summary_re: re.Pattern[str], extra_re: re.Pattern[str]
) -> FormatOutput | None:
    """eslint's and stylelint's `stylish` report; `head_re` matches a problem line up to
    its message."""
    lines = fi.lines
    n = len(lines)
    items = [head_re.match(line) for line in lines]
    if not any(items) and not any(summary_re.match(line) for line in lines):
        return None
    b = Builder(lines, fi.weights)
    for i, line in enumerate(lines):
        m = items[i]
        if m:
            b.keep(i, protect=True, text=item_text(m))
        elif summary_re.match(line) or extra_re.match(line):
            b.keep(i, protect=True)
        elif not line.strip():
            b.drop(i, "blank lines")
        elif not line.startswith(" ") and i + 1 < n and items[i + 1]:
            b.keep(i, protect=True)  # the file path heading its problems
        else:
            b.keep(i)
    return b.build(final=True, essential=True)  # every finding is the point of the run
